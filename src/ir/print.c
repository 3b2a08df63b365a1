/* Prints a module in the canonical raw printer form (ir-format.md §1.3):
 * 4-space indentation, no blank lines inside the class, no line wrapping,
 * parentheses only where precedence needs them, single quotes for string
 * keyword arguments of op calls and double quotes elsewhere, float
 * exponents with an explicit sign. */
#include "ir/print.h"

#include <string.h>

#include "ir/lex.h"

enum { PREC_ATOM = 14, PREC_UNARY = 12, PREC_NOT = 4, PREC_TEST = 0 };

typedef struct printer {
    strbuf *out;
} printer;

static void put(printer *pr, const char *s, size_t n)
{
    strbuf_append(pr->out, s, n);
}

static void puts_(printer *pr, const char *s)
{
    strbuf_puts(pr->out, s);
}

static void indent(printer *pr, int level)
{
    static const char spaces[] = "                                                                ";
    size_t n = (size_t)level * 4;
    while (n > 0) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        put(pr, spaces, k);
        n -= k;
    }
}

static int expr_prec(const ir_expr *e)
{
    switch (e->kind) {
    case IR_EXPR_BINARY: return ir_binop_prec((ir_binop)e->op);
    case IR_EXPR_UNARY: return e->op == IR_UNOP_NOT ? PREC_NOT : PREC_UNARY;
    case IR_EXPR_OPAQUE: {
        /* Parenthesised (it prints its parentheses), a bracketed construct,
         * a string (prefixed or concatenated) or a starred argument is an
         * atom; a lambda or a conditional expression binds loosest. */
        const char *t = e->u.opaque.text;
        uint32_t n = e->u.opaque.len, k = 0;
        if (e->flags & IR_EF_PARENS)
            return PREC_ATOM;
        while (k < n && k < 2 && ((t[k] | 0x20) >= 'a' && (t[k] | 0x20) <= 'z'))
            k++;
        char c = k < n ? t[k] : ' ';
        if (c == '"' || c == '\'')
            return PREC_ATOM;
        c = n ? t[0] : ' ';
        return c == '[' || c == '(' || c == '{' || c == '*' || c == '.' || (c >= '0' && c <= '9')
                   ? PREC_ATOM /* ... or a number (0x1f, 1_000, 2j) */
                   : PREC_TEST;
    }
    default: return PREC_ATOM;
    }
}

static void print_expr(printer *pr, const ir_expr *e, int single_quote_strings);

/* Prints e where its parent needs at least precedence min_prec. */
static void print_sub(printer *pr, const ir_expr *e, int min_prec, int strict)
{
    int p = expr_prec(e);
    int paren = p < min_prec || (strict && p == min_prec);
    if (paren)
        puts_(pr, "(");
    print_expr(pr, e, 0);
    if (paren)
        puts_(pr, ")");
}

static void print_string(printer *pr, const ir_expr *e, int single)
{
    /* Printed from the source text between the quotes, so escapes stay as
     * written; only the quote character may change (raw dumps: single
     * quotes for op keyword values, double elsewhere), which needs that
     * character escaped, and a triple-quoted body's newlines become \n. */
    char q = single ? '\'' : '"';
    const char *raw = e->u.str.raw;
    uint32_t n = e->u.str.raw_len;
    put(pr, &q, 1);
    uint32_t from = 0;
    for (uint32_t i = 0; i < n; i++) {
        char c = raw[i];
        if (c == '\\' && i + 1 < n) {
            i++;
            continue;
        }
        if (c != q && c != '\n' && c != '\r')
            continue;
        put(pr, raw + from, i - from);
        puts_(pr, c == q ? (single ? "\\'" : "\\\"") : c == '\n' ? "\\n" : "\\r");
        from = i + 1;
    }
    put(pr, raw + from, n - from);
    put(pr, &q, 1);
}

static void print_number(printer *pr, const ir_expr *e)
{
    if (e->flags & IR_EF_NEGATIVE)
        puts_(pr, "-");
    const char *t = e->u.num.text;
    uint32_t n = e->u.num.len;
    if (e->kind == IR_EXPR_INT) {
        put(pr, t, n);
        return;
    }
    /* Raw floats spell the exponent sign (1e+16); ruff drops it (1e16). */
    for (uint32_t i = 0; i < n; i++) {
        char c = t[i];
        if (c == 'e' || c == 'E') {
            puts_(pr, "e");
            if (i + 1 < n && t[i + 1] >= '0' && t[i + 1] <= '9')
                puts_(pr, "+");
        } else {
            put(pr, &c, 1);
        }
    }
}

/* Op calls (pl.ns.op, pld.ns.op, pl.builtin.tensor.op) print string keyword
 * values in single quotes; everything else uses double quotes. */
static int is_op_callee(const ir_expr *c)
{
    int depth = 0;
    while (c->kind == IR_EXPR_ATTR) {
        depth++;
        c = c->u.attr.value;
    }
    return depth >= 2 && c->kind == IR_EXPR_NAME &&
           (c->u.name->id == LEX_KW_PL || c->u.name->id == LEX_KW_PLD);
}

/* Whether e prints starting with a digit (its leftmost leaf is a
 * non-negative number literal). */
static int starts_with_number(const ir_expr *e)
{
    for (;;) {
        switch (e->kind) {
        case IR_EXPR_INT:
        case IR_EXPR_FLOAT: return !(e->flags & IR_EF_NEGATIVE);
        case IR_EXPR_BINARY:
            if (expr_prec(e->u.binary.lhs) < ir_binop_prec((ir_binop)e->op))
                return 0; /* the lhs gets parentheses */
            e = e->u.binary.lhs;
            break;
        case IR_EXPR_ATTR: e = e->u.attr.value; break;
        case IR_EXPR_CALL: e = e->u.call.callee; break;
        case IR_EXPR_SUBSCRIPT: e = e->u.sub.value; break;
        default: return 0;
        }
    }
}

static void print_items(printer *pr, ir_expr *const *items, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            puts_(pr, ", ");
        print_sub(pr, items[i], PREC_TEST, 0);
    }
}

static void print_expr(printer *pr, const ir_expr *e, int single_quote_strings)
{
    switch (e->kind) {
    case IR_EXPR_NAME: put(pr, e->u.name->text, e->u.name->len); break;
    case IR_EXPR_INT:
    case IR_EXPR_FLOAT: print_number(pr, e); break;
    case IR_EXPR_STRING: print_string(pr, e, single_quote_strings); break;
    case IR_EXPR_BOOL: puts_(pr, e->u.boolean ? "True" : "False"); break;
    case IR_EXPR_NONE: puts_(pr, "None"); break;
    case IR_EXPR_ELLIPSIS: puts_(pr, "..."); break;
    case IR_EXPR_ATTR:
        print_sub(pr, e->u.attr.value, PREC_ATOM, 0);
        puts_(pr, ".");
        put(pr, e->u.attr.name->text, e->u.attr.name->len);
        break;
    case IR_EXPR_CALL: {
        print_sub(pr, e->u.call.callee, PREC_ATOM, 0);
        puts_(pr, "(");
        print_items(pr, e->u.call.args, e->u.call.nargs);
        int sq = is_op_callee(e->u.call.callee);
        for (uint32_t i = 0; i < e->u.call.nkwargs; i++) {
            const ir_kwarg *k = &e->u.call.kwargs[i];
            if (i || e->u.call.nargs)
                puts_(pr, ", ");
            put(pr, k->name->text, k->name->len);
            puts_(pr, "=");
            if (k->value->kind == IR_EXPR_STRING) {
                print_string(pr, k->value, sq);
            } else if ((k->value->flags & IR_EF_PARENS) && k->value->kind != IR_EXPR_TUPLE) {
                /* The printer's own grouping of a keyword value: predicate=(...) */
                puts_(pr, "(");
                print_expr(pr, k->value, 0);
                puts_(pr, ")");
            } else {
                print_sub(pr, k->value, PREC_TEST, 0);
            }
        }
        puts_(pr, ")");
        break;
    }
    case IR_EXPR_SUBSCRIPT:
        print_sub(pr, e->u.sub.value, PREC_ATOM, 0);
        puts_(pr, "[");
        print_items(pr, e->u.sub.items, e->u.sub.n);
        if (e->u.sub.n == 1 && (e->flags & IR_EF_TUPLE_SUB))
            puts_(pr, ",");
        puts_(pr, "]");
        break;
    case IR_EXPR_SLICE:
        if (e->u.slice.lo)
            print_sub(pr, e->u.slice.lo, PREC_TEST, 0);
        puts_(pr, ":");
        if (e->u.slice.hi)
            print_sub(pr, e->u.slice.hi, PREC_TEST, 0);
        if (e->u.slice.step) {
            puts_(pr, ":");
            print_sub(pr, e->u.slice.step, PREC_TEST, 0);
        }
        break;
    case IR_EXPR_LIST:
        puts_(pr, "[");
        print_items(pr, e->u.seq.items, e->u.seq.n);
        puts_(pr, "]");
        break;
    case IR_EXPR_TUPLE:
        puts_(pr, "(");
        print_items(pr, e->u.seq.items, e->u.seq.n);
        if (e->u.seq.n == 1)
            puts_(pr, ",");
        puts_(pr, ")");
        break;
    case IR_EXPR_DICT:
        puts_(pr, "{");
        for (uint32_t i = 0; i < e->u.dict.n; i++) {
            if (i)
                puts_(pr, ", ");
            print_sub(pr, e->u.dict.keys[i], PREC_TEST, 0);
            puts_(pr, ": ");
            print_sub(pr, e->u.dict.values[i], PREC_TEST, 0);
        }
        puts_(pr, "}");
        break;
    case IR_EXPR_UNARY:
        switch (e->op) {
        case IR_UNOP_NEG: puts_(pr, "-"); break;
        case IR_UNOP_POS: puts_(pr, "+"); break;
        case IR_UNOP_INVERT: puts_(pr, "~"); break;
        default: puts_(pr, "not "); break;
        }
        if (e->op == IR_UNOP_NEG && starts_with_number(e->u.unary.operand) &&
            e->u.unary.operand->kind != IR_EXPR_INT && e->u.unary.operand->kind != IR_EXPR_FLOAT) {
            /* "-2 ** 3" would read back as (-2) ** 3 (§6.4): keep -(2 ** 3). */
            puts_(pr, "(");
            print_expr(pr, e->u.unary.operand, 0);
            puts_(pr, ")");
            break;
        }
        print_sub(pr, e->u.unary.operand, e->op == IR_UNOP_NOT ? PREC_NOT : PREC_UNARY, 0);
        break;
    case IR_EXPR_BINARY: {
        ir_binop op = (ir_binop)e->op;
        int p = ir_binop_prec(op);
        int right_assoc = op == IR_BINOP_POW;
        print_sub(pr, e->u.binary.lhs, p, right_assoc);
        puts_(pr, " ");
        puts_(pr, ir_binop_text(op));
        puts_(pr, " ");
        print_sub(pr, e->u.binary.rhs, p, !right_assoc);
        break;
    }
    case IR_EXPR_OPAQUE:
        /* Its own grouping parentheses are not in the text; a multi-line
         * construct needs them. */
        if (e->flags & IR_EF_PARENS)
            puts_(pr, "(");
        put(pr, e->u.opaque.text, e->u.opaque.len);
        if (e->flags & IR_EF_PARENS)
            puts_(pr, ")");
        break;
    default: break;
    }
}

/* A statement-level expression: the source's redundant parentheses there
 * come from the formatter and are dropped. */
static void print_top(printer *pr, const ir_expr *e)
{
    if (e->kind == IR_EXPR_TUPLE && e->u.seq.n > 0) {
        print_expr(pr, e, 0);
        return;
    }
    print_expr(pr, e, 0);
}

static void print_comments(printer *pr, const ir_comments *c, int level)
{
    for (uint32_t i = 0; i < c->n; i++) {
        indent(pr, level);
        puts_(pr, "# ");
        put(pr, c->items[i].text, c->items[i].len);
        puts_(pr, "\n");
    }
}

static void print_block(printer *pr, const ir_block *b, int level);

static void print_targets(printer *pr, const ir_target *t, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            puts_(pr, ", ");
        put(pr, t[i].name->text, t[i].name->len);
    }
}

static void print_opaque_stmt(printer *pr, const ir_stmt *s, int level)
{
    /* Re-indent the captured lines from their column to this level. */
    const char *t = s->u.opaque.text;
    uint32_t n = s->u.opaque.len, ind = s->u.opaque.indent;
    indent(pr, level);
    if (ind == (uint32_t)level * 4) {
        /* Already at this depth: verbatim, so that multi-line strings and
         * odd continuation lines keep every byte. */
        put(pr, t, n);
        puts_(pr, "\n");
        return;
    }
    uint32_t i = 0;
    while (i < n) {
        uint32_t j = i;
        while (j < n && t[j] != '\n')
            j++;
        put(pr, t + i, j - i);
        puts_(pr, "\n");
        if (j >= n)
            break;
        i = j + 1;
        uint32_t k = 0;
        while (k < ind && i + k < n && t[i + k] == ' ')
            k++;
        if (i + k < n && t[i + k] != '\n')
            indent(pr, level);
        i += k;
    }
}

void ir_print_stmt(const ir_stmt *s, int level, strbuf *out)
{
    printer pr0 = {out}, *pr = &pr0;
    print_comments(pr, &s->comments, level);
    if (s->kind == IR_STMT_OPAQUE) {
        print_opaque_stmt(pr, s, level);
        return;
    }
    indent(pr, level);
    switch (s->kind) {
    case IR_STMT_ASSIGN:
    case IR_STMT_YIELD:
        if (s->u.assign.ntargets) {
            print_targets(pr, s->u.assign.targets, s->u.assign.ntargets);
            if (s->u.assign.annot) {
                puts_(pr, ": ");
                print_top(pr, s->u.assign.annot);
            }
            puts_(pr, " = ");
        }
        print_top(pr, s->u.assign.value);
        break;
    case IR_STMT_EXPR:
    case IR_STMT_COND:
    case IR_STMT_FUNC_ATTR: print_top(pr, s->u.expr.value); break;
    case IR_STMT_RETURN:
        puts_(pr, "return");
        if (s->u.ret.n) {
            puts_(pr, " ");
            print_items(pr, s->u.ret.values, s->u.ret.n);
        }
        break;
    case IR_STMT_IF:
        puts_(pr, "if ");
        print_top(pr, s->u.if_.cond);
        puts_(pr, ":\n");
        print_block(pr, &s->u.if_.body, level + 1);
        if (s->u.if_.has_else) {
            print_comments(pr, &s->u.if_.else_comments, level);
            indent(pr, level);
            puts_(pr, "else:\n");
            print_block(pr, &s->u.if_.orelse, level + 1);
        }
        return;
    case IR_STMT_FOR:
        puts_(pr, "for ");
        if (s->u.for_.var) {
            put(pr, s->u.for_.var->name->text, s->u.for_.var->name->len);
            if (s->u.for_.has_iter_args)
                puts_(pr, ", ");
        }
        if (s->u.for_.has_iter_args) {
            puts_(pr, "(");
            print_targets(pr, s->u.for_.iter_args, s->u.for_.niter_args);
            if (s->u.for_.niter_args == 1)
                puts_(pr, ",");
            puts_(pr, ")");
        }
        puts_(pr, " in ");
        print_top(pr, s->u.for_.iter);
        puts_(pr, ":\n");
        print_block(pr, &s->u.for_.body, level + 1);
        return;
    case IR_STMT_WHILE:
        puts_(pr, "while ");
        print_top(pr, s->u.while_.cond);
        puts_(pr, ":\n");
        print_block(pr, &s->u.while_.body, level + 1);
        return;
    case IR_STMT_WITH:
        puts_(pr, "with ");
        print_top(pr, s->u.with.ctx);
        if (s->u.with.as) {
            puts_(pr, " as ");
            put(pr, s->u.with.as->name->text, s->u.with.as->name->len);
        }
        puts_(pr, ":\n");
        print_block(pr, &s->u.with.body, level + 1);
        return;
    case IR_STMT_PASS: puts_(pr, "pass"); break;
    case IR_STMT_BREAK: puts_(pr, "break"); break;
    case IR_STMT_CONTINUE: puts_(pr, "continue"); break;
    case IR_STMT_ELLIPSIS: puts_(pr, "..."); break;
    default: break;
    }
    puts_(pr, "\n");
}

static void print_block(printer *pr, const ir_block *b, int level)
{
    for (uint32_t i = 0; i < b->n; i++)
        ir_print_stmt(b->items[i], level, pr->out);
}

static void print_func(printer *pr, const ir_func *f)
{
    print_comments(pr, &f->comments, 1);
    if (f->decorator) {
        indent(pr, 1);
        puts_(pr, "@");
        print_expr(pr, f->decorator, 0);
        puts_(pr, "\n");
    }
    indent(pr, 1);
    puts_(pr, "def ");
    put(pr, f->name->text, f->name->len);
    puts_(pr, "(");
    if (f->has_self)
        puts_(pr, f->nparams ? "self, " : "self");
    for (uint32_t i = 0; i < f->nparams; i++) {
        const ir_param *p = &f->params[i];
        if (i)
            puts_(pr, ", ");
        put(pr, p->name->text, p->name->len);
        if (p->annot) {
            puts_(pr, ": ");
            print_expr(pr, p->annot, 0);
        }
    }
    puts_(pr, ")");
    if (f->ret_annot) {
        puts_(pr, " -> ");
        print_expr(pr, f->ret_annot, 0);
    }
    puts_(pr, ":\n");
    print_block(pr, &f->body, 2);
}

void ir_print_expr(const ir_expr *e, strbuf *out)
{
    printer pr = {out};
    print_expr(&pr, e, 0);
}

void ir_print_module(const ir_module *m, strbuf *out)
{
    printer pr0 = {out}, *pr = &pr0;
    print_comments(pr, &m->comments, 0);
    const char *prefix = m->prefix ? m->prefix->text : "pl";
    if (m->from_import)
        strbuf_printf(out, "from pypto import language as %s\n", prefix);
    else
        strbuf_printf(out, "import pypto.language as %s\n", prefix);
    puts_(pr, "\n");
    const ir_program *prog = m->program;
    if (!prog)
        return;
    if (prog->ndeclared_dyns) {
        print_comments(pr, &m->dyn_comments, 0);
        for (uint32_t i = 0; i < prog->ndeclared_dyns; i++) {
            const ir_sym *n = prog->dyns[i].name;
            strbuf_printf(out, "%s = pl.dynamic(\"%s\")\n", n->text, n->text);
        }
        puts_(pr, "\n");
    }
    print_comments(pr, &prog->comments, 0);
    /* The parser reads the pl. spelling only (other prefixes never occur
     * in dumps, §1.4), so that is what is printed back. */
    strbuf_printf(out, "@pl.program\nclass %s:\n", prog->name->text);
    for (uint32_t i = 0; i < prog->nfuncs; i++)
        print_func(pr, prog->funcs[i]);
    print_comments(pr, &prog->trailing, 1);
    print_comments(pr, &m->trailing, 0);
}
