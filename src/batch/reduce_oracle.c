#include "batch/reduce_oracle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/mem.h"
#include "batch/divergence.h"
#include "batch/json.h"
#include "exec/compare.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/walk.h"

typedef struct find_line {
    int line;
    const ir_stmt *st;
} find_line;

static void at_line(void *ctx, const ir_stmt *st)
{
    find_line *f = ctx;
    if (!f->st && (int)st->span.line == f->line)
        f->st = st;
}

/* The short op name of the statement at line of the file ("row_expand_mul",
 * "if", "store" for an expression statement's call), "?" when unknown. */
static char *op_at(const char *path, int line)
{
    diag_sink sink;
    diag_sink_init(&sink, 1);
    ptodb_status st;
    ir_module *m = ir_parse_file(path, &sink, &st);
    diag_sink_free(&sink);
    find_line f = {line, NULL};
    for (uint32_t i = 0; m && m->program && i < m->program->nfuncs && !f.st; i++)
        ir_walk_stmts(&m->program->funcs[i]->body, at_line, &f);
    strbuf out = STRBUF_INIT;
    if (f.st) {
        const ir_expr *v = f.st->kind == IR_STMT_ASSIGN || f.st->kind == IR_STMT_YIELD ? f.st->u.assign.value
                           : f.st->kind == IR_STMT_EXPR                                 ? f.st->u.expr.value
                                                                                         : NULL;
        if (v && v->kind == IR_EXPR_CALL && v->u.call.callee->kind == IR_EXPR_ATTR)
            strbuf_puts(&out, v->u.call.callee->u.attr.name->text);
        else if (f.st->kind == IR_STMT_IF) {
            strbuf_puts(&out, "if ");
            ir_print_expr(f.st->u.if_.cond, &out);
        }
        else if (f.st->kind == IR_STMT_FOR)
            strbuf_puts(&out, "for");
        else if (v)
            strbuf_puts(&out, ir_expr_kind_name((ir_expr_kind)v->kind));
    }
    ir_module_free(m);
    if (!out.len)
        strbuf_puts(&out, "?");
    return strbuf_detach(&out);
}

/* A control-flow record's name carries its line ("branch taken by the if at
 * line 155 ..."), which moves as the file shrinks: the line goes (the op
 * field names the if by its condition). */
static char *stable_name(const char *name)
{
    strbuf out = STRBUF_INIT;
    const char *at = strstr(name, " at line ");
    if (!at) {
        strbuf_puts(&out, name);
        return strbuf_detach(&out);
    }
    strbuf_append(&out, name, (size_t)(at - name));
    const char *p = at + strlen(" at line ");
    while (*p >= '0' && *p <= '9')
        p++;
    strbuf_puts(&out, p);
    return strbuf_detach(&out);
}

static char *mismatch_kind(const bisect_stmt *s)
{
    if (s->fails)
        return xstrdup("fails");
    if (s->new_if)
        return xstrdup("new-if");
    if (s->op_changed)
        return xstrdup("op-changed");
    double a = s->actual_at, g = s->good_at;
    if (isnan(a) || isnan(g) || isnan(s->max_abs_diff))
        return xstrdup("nan");
    if (isinf(a) || isinf(g) || isinf(s->max_abs_diff))
        return xstrdup("inf");
    if (s->first_bad >= 0 && ((a < 0 && g > 0) || (a > 0 && g < 0)))
        return xstrdup("sign");
    /* by how much, in three classes: a rounding-sized difference, one
     * smaller than the values, one as large as them or larger (finer
     * buckets would pin the values a reduction may change) */
    double rel = s->max_golden > 0 ? s->max_abs_diff / s->max_golden : s->max_abs_diff;
    strbuf out = STRBUF_INIT;
    strbuf_puts(&out, rel < 1e-2 ? "magnitude:small" : rel < 0.5 ? "magnitude:medium" : "magnitude:large");
    return strbuf_detach(&out);
}

void reduce_golden_free(tensor **g, size_t n)
{
    for (size_t i = 0; g && i < n; i++)
        tensor_unref(g[i]);
    free(g);
}

static void say(strbuf *why, const char *what, const char *msg)
{
    if (why)
        strbuf_printf(why, "%s%s%s", what, msg ? ": " : "", msg ? msg : "");
}

reduce_verdict reduce_oracle(const char *good_path, const char *bad_path, const char *pass, const case_info *c,
                             const runpass_options *ro, reduce_fp *fp, tensor ***golden, strbuf *why)
{
    memset(fp, 0, sizeof *fp);
    runpass_result rg;
    runpass_file(good_path, c, ro, &rg);
    if (rg.status != RUNPASS_COMPARED) {
        say(why, "the passing file does not run", rg.message);
        runpass_result_free(&rg);
        return REDUCE_INVALID;
    }
    /* the case with the passing file's outputs as its golden */
    case_info c2 = *c;
    c2.outputs = xcalloc(c->noutputs ? c->noutputs : 1, sizeof *c2.outputs);
    tensor **g = xcalloc(c->noutputs ? c->noutputs : 1, sizeof *g);
    for (size_t k = 0; k < c->noutputs; k++) {
        c2.outputs[k] = c->outputs[k];
        for (size_t m = 0; m < rg.noutputs; m++)
            if (strcmp(rg.outputs[m].key, c->outputs[k].name) == 0 && rg.outputs[m].actual)
                g[k] = tensor_ref(rg.outputs[m].actual);
        if (!g[k]) {
            say(why, "the passing file does not write output", c->outputs[k].name);
            runpass_result_free(&rg);
            reduce_golden_free(g, c->noutputs);
            free(c2.outputs);
            return REDUCE_INVALID;
        }
        c2.outputs[k].t = g[k];
        /* the passing file must pass against its own outputs (NaN does not) */
        exec_compare_result self;
        exec_compare(g[k], g[k], c->outputs[k].rtol.value, c->outputs[k].atol.value, ro->mopt.profile, 0, &self);
        if (self.error || !self.pass) {
            say(why, "the passing file's output does not pass against itself (NaN)", c->outputs[k].name);
            runpass_result_free(&rg);
            reduce_golden_free(g, c->noutputs);
            free(c2.outputs);
            return REDUCE_INVALID;
        }
    }
    runpass_result_free(&rg);
    reduce_verdict v = REDUCE_SHOWN;
    runpass_result rb;
    runpass_file(bad_path, &c2, ro, &rb);
    char *output = NULL;
    if (rb.status == RUNPASS_COMPARED) {
        for (size_t m = 0; m < rb.noutputs && !output; m++)
            if (!rb.outputs[m].cmp.pass || rb.outputs[m].cmp.error)
                output = xstrdup(rb.outputs[m].key);
        if (!output) {
            say(why, "the failing file's outputs match the passing file's", NULL);
            v = REDUCE_NOT_SHOWN;
        }
    } else {
        output = xstrdup("-"); /* it fails to run: no output differs */
    }
    runpass_result_free(&rb);
    if (v == REDUCE_SHOWN) {
        divergence_side gs = {good_path, "passing", &c2}, bs = {bad_path, "failing", &c2};
        bisect_stmt s;
        divergence_find(&gs, &bs, ro, c->rtol.value, c->atol.value, 0, &s);
        if (!s.found) {
            say(why, "no differing statement", s.note);
            v = REDUCE_NOT_SHOWN;
        } else {
            fp->pass = xstrdup(pass);
            fp->func = xstrdup(s.func ? s.func : "?");
            fp->tensor = stable_name(s.tensor ? s.tensor : "");
            fp->op = op_at(bad_path, s.line);
            fp->output = output;
            output = NULL;
            fp->kind = mismatch_kind(&s);
            fp->line = s.line;
            fp->good_line = s.good_line;
        }
        divergence_stmt_free(&s);
    }
    free(output);
    free(c2.outputs);
    if (v == REDUCE_SHOWN && golden)
        *golden = g;
    else
        reduce_golden_free(g, c->noutputs);
    return v;
}

static int same(const char *a, const char *b)
{
    return a && b ? strcmp(a, b) == 0 : a == b;
}

int reduce_fp_equal(const reduce_fp *a, const reduce_fp *b)
{
    return same(a->pass, b->pass) && same(a->func, b->func) && same(a->tensor, b->tensor) && same(a->op, b->op) &&
           same(a->output, b->output) && same(a->kind, b->kind);
}

void reduce_fp_free(reduce_fp *fp)
{
    free(fp->pass);
    free(fp->func);
    free(fp->tensor);
    free(fp->op);
    free(fp->output);
    free(fp->kind);
    memset(fp, 0, sizeof *fp);
}

void reduce_fp_json(const reduce_fp *fp, strbuf *out)
{
    const char *keys[] = {"pass", "function", "statement", "op", "output", "kind"};
    const char *vals[] = {fp->pass, fp->func, fp->tensor, fp->op, fp->output, fp->kind};
    strbuf_putc(out, '{');
    for (int i = 0; i < 6; i++) {
        strbuf_printf(out, "%s\"%s\": ", i ? ", " : "", keys[i]);
        json_put_string(out, vals[i]);
    }
    strbuf_puts(out, "}");
}

void reduce_fp_text(const reduce_fp *fp, strbuf *out)
{
    strbuf_printf(out, "pass %s, function %s, statement '%s' (op %s), output %s, %s", fp->pass, fp->func,
                  fp->tensor, fp->op, fp->output, fp->kind);
}
