/* Entry function and parameters of a dump, via the dump parser. */
#include "config.h"

#include "data/case_ir.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "ir/ast.h"
#include "ir/parse.h"

static int is_pl_attr(const ir_expr *e, const char *name)
{
    return e && e->kind == IR_EXPR_ATTR && e->u.attr.value->kind == IR_EXPR_NAME &&
           strcmp(e->u.attr.name->text, name) == 0;
}

/* pl.FP32 -> dtype, with REF's float32 fallback for the exotic types. The
 * FP8 dtypes parse as themselves; case_bind holds their data as float32. */
static dtype_id dtype_of_attr(const ir_expr *e)
{
    if (!e || e->kind != IR_EXPR_ATTR)
        return DTYPE_FP32;
    dtype_id dt;
    if (dtype_parse(e->u.attr.name->text, &dt) == 0)
        return dt;
    return DTYPE_FP32; /* FP4, HF4, HF8, INT4, UINT4, TASK_ID (semantics.md §1.1) */
}

static void decode_type(const ir_expr *t, case_param *p)
{
    p->ndim = -1;
    p->dtype = DTYPE_FP32;
    if (!t || t->kind != IR_EXPR_SUBSCRIPT || t->u.sub.n < 1)
        return;
    const ir_expr *head = t->u.sub.value;
    if (is_pl_attr(head, "Scalar")) {
        p->is_tensor = 0;
        p->dtype = dtype_of_attr(t->u.sub.items[0]);
        return;
    }
    if (!is_pl_attr(head, "Tensor") && !is_pl_attr(head, "Tile"))
        return;
    p->is_tensor = 1;
    const ir_expr *dims = t->u.sub.items[0];
    if (t->u.sub.n >= 2)
        p->dtype = dtype_of_attr(t->u.sub.items[1]);
    if ((dims->kind == IR_EXPR_LIST || dims->kind == IR_EXPR_TUPLE) && dims->u.seq.n <= TENSOR_MAX_DIMS) {
        p->ndim = (int)dims->u.seq.n;
        for (uint32_t d = 0; d < dims->u.seq.n; d++) {
            const ir_expr *x = dims->u.seq.items[d];
            p->shape[d] = x->kind == IR_EXPR_INT && !(x->flags & IR_EF_BIG) && x->u.num.i >= 0 ? x->u.num.i : -1;
        }
    }
}

static int cmp_func_name(const void *a, const void *b)
{
    const ir_func *fa = *(ir_func *const *)a, *fb = *(ir_func *const *)b;
    return strcmp(fa->name->text, fb->name->text);
}

static const ir_func *pick_entry(const ir_program *prog, const char *want, const char *path, diag_sink *sink)
{
    diag_loc loc = {path, 0, 0};
    if (want) {
        for (uint32_t i = 0; i < prog->nfuncs; i++)
            if (strcmp(prog->funcs[i]->name->text, want) == 0)
                return prog->funcs[i];
        diag_report(sink, DIAG_ERROR, loc, NULL, "entry function '%s' (from the manifest) is not in this dump", want);
        return NULL;
    }
    if (prog->nfuncs == 1)
        return prog->funcs[0];
    ir_func **sorted = xcalloc(prog->nfuncs ? prog->nfuncs : 1, sizeof *sorted);
    memcpy(sorted, prog->funcs, prog->nfuncs * sizeof *sorted);
    qsort(sorted, prog->nfuncs, sizeof *sorted, cmp_func_name);
    const ir_func *f = NULL;
    for (uint32_t i = 0; i < prog->nfuncs && !f; i++)
        if (sorted[i]->type_name && strcmp(sorted[i]->type_name, "Orchestration") == 0)
            f = sorted[i];
    free(sorted);
    if (!f)
        diag_report(sink, DIAG_ERROR, loc, NULL, "Program '%s' has %u functions but no Orchestration entry",
                    prog->name ? prog->name->text : "?", prog->nfuncs);
    return f;
}

static const ir_func *pick_host(const ir_program *prog, const char *path, diag_sink *sink)
{
    for (uint32_t i = 0; i < prog->nfuncs; i++)
        if (prog->funcs[i]->level_name && strcmp(prog->funcs[i]->level_name, "HOST") == 0)
            return prog->funcs[i];
    diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL,
                "no function with level=pl.Level.HOST: a multi-rank case needs its host orchestrator");
    return NULL;
}

static ptodb_status entry_from_dump(const char *dump_path, const char *want, int host, case_entry *out,
                                    diag_sink *sink)
{
    memset(out, 0, sizeof *out);
    ptodb_status st;
    ir_module *m = ir_parse_file(dump_path, sink, &st);
    if (!m)
        return st != PTODB_OK ? st : PTODB_ERR_SYNTAX;
    if (st == PTODB_OK && !m->program) {
        diag_report(sink, DIAG_ERROR, (diag_loc){dump_path, 0, 0}, NULL, "no @pl.program in this dump");
        st = PTODB_ERR_SYNTAX;
    }
    const ir_func *f = st != PTODB_OK ? NULL
                       : host      ? pick_host(m->program, dump_path, sink)
                                   : pick_entry(m->program, want, dump_path, sink);
    if (st == PTODB_OK && !f)
        st = PTODB_ERR_NOT_FOUND;
    if (f) {
        out->name = xstrdup(f->name->text);
        out->program = m->program->name ? xstrdup(m->program->name->text) : NULL;
        out->nparams = f->nparams;
        out->params = xcalloc(f->nparams ? f->nparams : 1, sizeof *out->params);
        for (uint32_t i = 0; i < f->nparams; i++) {
            case_param *p = &out->params[i];
            p->name = xstrdup(f->params[i].name->text);
            p->dir = f->params[i].dir == IR_DIR_OUT     ? CASE_PARAM_OUT
                     : f->params[i].dir == IR_DIR_INOUT ? CASE_PARAM_INOUT
                                                        : CASE_PARAM_IN;
            decode_type(f->params[i].type, p);
        }
    }
    ir_module_free(m);
    return st;
}

ptodb_status case_entry_from_dump(const char *dump_path, const char *want, case_entry *out,
                                  diag_sink *sink)
{
    return entry_from_dump(dump_path, want, 0, out, sink);
}

ptodb_status case_host_entry_from_dump(const char *dump_path, case_entry *out, diag_sink *sink)
{
    return entry_from_dump(dump_path, NULL, 1, out, sink);
}

void case_entry_free(case_entry *e)
{
    for (size_t i = 0; i < e->nparams; i++)
        free((char *)e->params[i].name);
    free(e->params);
    free(e->name);
    free(e->program);
    memset(e, 0, sizeof *e);
}
