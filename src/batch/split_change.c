/* The cross-core statement whose split= a pass changed (split_change.h). */
#include "batch/split_change.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/mem.h"
#include "base/strbuf.h"
#include "ir/parse.h"
#include "ir/walk.h"

typedef struct split_use {
    int line;
    const char *func;
    int64_t value;
} split_use;

typedef struct split_uses {
    split_use *v;
    size_t n, cap;
    const char *func; /* the function being walked */
    const ir_stmt *st;
} split_uses;

/* Every call with an integer split= keyword in e. */
static void uses_in_expr(split_uses *u, const ir_expr *e)
{
    if (!e)
        return;
    if (e->kind == IR_EXPR_CALL) {
        for (uint32_t i = 0; i < e->u.call.nkwargs; i++) {
            const ir_kwarg *k = &e->u.call.kwargs[i];
            if (strcmp(k->name->text, "split") != 0 || !k->value || k->value->kind != IR_EXPR_INT)
                continue;
            if (u->n == u->cap) {
                u->cap = u->cap ? u->cap * 2 : 16;
                u->v = xreallocarray(u->v, u->cap, sizeof *u->v);
            }
            u->v[u->n++] = (split_use){(int)u->st->span.line, u->func, k->value->u.num.i};
        }
        for (uint32_t i = 0; i < e->u.call.nargs; i++)
            uses_in_expr(u, e->u.call.args[i]);
    }
}

static void uses_in_stmt(void *ctx, const ir_stmt *st)
{
    split_uses *u = ctx;
    u->st = st;
    if (st->kind == IR_STMT_ASSIGN || st->kind == IR_STMT_YIELD)
        uses_in_expr(u, st->u.assign.value);
    else if (st->kind == IR_STMT_EXPR)
        uses_in_expr(u, st->u.expr.value);
}

/* The split= uses of m's functions related to `group`. */
static void collect(const ir_module *m, const char *group, split_uses *u)
{
    for (uint32_t i = 0; m->program && i < m->program->nfuncs; i++) {
        const ir_func *f = m->program->funcs[i];
        if (!ir_funcs_related(f->name->text, group))
            continue;
        u->func = f->name->text;
        ir_walk_stmts(&f->body, uses_in_stmt, u);
    }
}

static ir_module *parse(const char *path)
{
    diag_sink sink;
    diag_sink_init(&sink, 1);
    ptodb_status st;
    ir_module *m = ir_parse_file(path, &sink, &st);
    diag_sink_free(&sink);
    if (st != PTODB_OK) {
        ir_module_free(m);
        return NULL;
    }
    return m;
}

int split_change_find(const char *error, const char *bad_path, const char *good_path, split_change *out)
{
    /* REF's refusal, or (device semantics, where each pipe op keeps its own
     * split) the deadlock of a group whose two sides no longer meet */
    static const char needle[] = "Conflicting cross-core split kwargs in group ";
    static const char deadlock[] = "ptodb: deadlock in group ";
    memset(out, 0, sizeof *out);
    const char *g = error ? strstr(error, needle) : NULL;
    if (g)
        g += sizeof needle - 1;
    else if (error && (g = strstr(error, deadlock)) != NULL)
        g += sizeof deadlock - 1;
    if (!g)
        return 0;
    char *group = xstrndup(g, strcspn(g, ":\n"));
    ir_module *bad = parse(bad_path), *good = bad ? parse(good_path) : NULL;
    int found = 0;
    if (bad && good) {
        split_uses ub = {0}, ug = {0};
        collect(bad, group, &ub);
        collect(good, group, &ug);
        for (size_t i = 0; i < ub.n && !found; i++) {
            int used = 0;
            for (size_t j = 0; j < ug.n && !used; j++)
                used = ug.v[j].value == ub.v[i].value;
            if (used || !ug.n)
                continue;
            found = 1;
            out->line = ub.v[i].line;
            out->func = xstrdup(ub.v[i].func);
            out->value = ub.v[i].value;
            strbuf sb = STRBUF_INIT;
            for (size_t j = 0; j < ug.n; j++) {
                int dup = 0;
                for (size_t k = 0; k < j && !dup; k++)
                    dup = ug.v[k].value == ug.v[j].value;
                if (!dup)
                    strbuf_printf(&sb, "%s%lld", sb.len ? ", " : "", (long long)ug.v[j].value);
            }
            out->good_values = strbuf_detach(&sb);
        }
        free(ub.v);
        free(ug.v);
    }
    ir_module_free(bad);
    ir_module_free(good);
    free(group);
    return found;
}

void split_change_free(split_change *c)
{
    free(c->func);
    free(c->good_values);
    memset(c, 0, sizeof *c);
}
