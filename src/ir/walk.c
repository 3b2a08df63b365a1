#include "ir/walk.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "ir/resolve.h"

void ir_walk_stmts(const ir_block *b, void (*fn)(void *ctx, const ir_stmt *st), void *ctx)
{
    /* Nesting is bounded by the parser (IR_MAX_DEPTH), so recursion is safe. */
    for (uint32_t i = 0; i < b->n; i++) {
        const ir_stmt *st = b->items[i];
        fn(ctx, st);
        switch (st->kind) {
        case IR_STMT_IF:
            ir_walk_stmts(&st->u.if_.body, fn, ctx);
            ir_walk_stmts(&st->u.if_.orelse, fn, ctx);
            break;
        case IR_STMT_FOR: ir_walk_stmts(&st->u.for_.body, fn, ctx); break;
        case IR_STMT_WHILE: ir_walk_stmts(&st->u.while_.body, fn, ctx); break;
        case IR_STMT_WITH: ir_walk_stmts(&st->u.with.body, fn, ctx); break;
        default: break;
        }
    }
}

static void index_stmt(void *ctx, const ir_stmt *st)
{
    ir_line_index *li = ctx;
    size_t line = st->span.line;
    if (line >= li->n) {
        size_t n = li->n ? li->n : 64;
        while (n <= line)
            n *= 2;
        li->at = xreallocarray(li->at, n, sizeof *li->at);
        memset(li->at + li->n, 0, (n - li->n) * sizeof *li->at);
        li->n = n;
    }
    if (!li->at[line])
        li->at[line] = st;
}

void ir_line_index_add(ir_line_index *li, const ir_block *b)
{
    ir_walk_stmts(b, index_stmt, li);
}

void ir_line_index_free(ir_line_index *li)
{
    free(li->at);
    li->at = NULL;
    li->n = 0;
}

void ir_ssa_base_name(const char *name, strbuf *out)
{
    const char *cut = strstr(name, "__");
    strbuf_append(out, name, cut ? (size_t)(cut - name) : strlen(name));
}

void ir_call_short_name(const ir_expr *e, strbuf *out)
{
    if (!e || e->kind != IR_EXPR_CALL)
        return;
    if (e->res.kind == IR_REF_OP) {
        const ir_op_info *info = ir_op_info_get(e->res.id);
        const char *dot = info ? strrchr(info->name, '.') : NULL;
        strbuf_puts(out, dot ? dot + 1 : info ? info->name : "?");
    } else if (e->u.call.callee->kind == IR_EXPR_ATTR) {
        strbuf_puts(out, e->u.call.callee->u.attr.name->text);
    }
}

int ir_funcs_related(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la == lb)
        return strcmp(a, b) == 0;
    const char *lo = la < lb ? a : b, *hi = la < lb ? b : a;
    size_t n = la < lb ? la : lb;
    return strncmp(lo, hi, n) == 0 && hi[n] == '_';
}
