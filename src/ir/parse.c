/* Recursive-descent parser of pass dumps. Recursion is bounded: every
 * nesting construct goes through enter(), which stops at IR_MAX_DEPTH with
 * a diagnostic, so hostile input cannot exhaust the C stack.
 *
 * Error handling: the first error in a statement sets p->panic; parse
 * functions then return NULL quickly up to the nearest statement loop,
 * which skips to the end of the statement (and any block it opens) and
 * goes on. Lexical errors arrive as TK_ERROR tokens, already reported. */
#include "base/fdio.h"
#include "base/input_file.h"
#include "ir/parse.h"

#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "ir/arena.h"
#include "ir/lex.h"

typedef struct parser {
    lexer lx;
    lex_token tok, peek;
    int has_peek;
    uint32_t prev_end; /* end offset of the last consumed real token */
    ir_module *m;
    ir_arena *a;
    diag_sink *sink;
    int depth;
    int panic;
    int errors;
    int stop; /* the error cap is reached: give up */
    int prev_opaque; /* the last statement was opaque (try:, except:): an
                        else: clause after it belongs to it */
    uint32_t next_comment;
    void **stack; /* scratch for building arrays (stack discipline) */
    size_t sp, scap;
    locale_t c_locale;
} parser;

/* ---- tokens --------------------------------------------------------------- */

static int is_real(lex_kind k)
{
    return k != TK_NEWLINE && k != TK_INDENT && k != TK_DEDENT && k != TK_EOF;
}

static void advance(parser *p)
{
    if (is_real(p->tok.kind))
        p->prev_end = p->tok.end;
    if (p->has_peek) {
        p->tok = p->peek;
        p->has_peek = 0;
    } else {
        p->tok = lex_next(&p->lx);
    }
    if (p->tok.kind == TK_ERROR) {
        p->panic = 1;
        p->errors++;
    }
    if (p->sink->errors && diag_sink_full(p->sink))
        p->stop = 1;
}

static const lex_token *peek(parser *p)
{
    if (!p->has_peek) {
        p->peek = lex_next(&p->lx);
        p->has_peek = 1;
    }
    return &p->peek;
}

static int is_kw(const lex_token *t, int kw)
{
    return t->kind == TK_NAME && t->sym->id == (uint32_t)kw;
}

static const char *tok_desc(parser *p, const lex_token *t, char *buf, size_t n)
{
    if (t->kind == TK_NAME) {
        snprintf(buf, n, "'%.40s'", t->sym->text);
        return buf;
    }
    if (t->kind == TK_INT || t->kind == TK_FLOAT || t->kind == TK_STRING) {
        uint32_t len = t->end - t->start;
        snprintf(buf, n, "%s %.*s%s", lex_kind_name(t->kind), (int)(len > 30 ? 30 : len),
                 p->lx.src + t->start, len > 30 ? "..." : "");
        return buf;
    }
    return lex_kind_name(t->kind);
}

static void perr_at(parser *p, const lex_token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void perr_at(parser *p, const lex_token *t, const char *fmt, ...)
{
    if (p->panic)
        return;
    p->panic = 1;
    p->errors++;
    va_list ap;
    va_start(ap, fmt);
    diag_loc loc = {p->m->path, (int)t->line, (int)t->col};
    diag_vreport(p->sink, DIAG_ERROR, loc, p->lx.src + t->line_start, fmt, ap);
    va_end(ap);
    if (diag_sink_full(p->sink))
        p->stop = 1;
}

static void perr_unexpected(parser *p, const char *what)
{
    char buf[96];
    perr_at(p, &p->tok, "expected %s, found %s", what, tok_desc(p, &p->tok, buf, sizeof buf));
}

static int expect(parser *p, lex_kind k, const char *what)
{
    if (p->panic)
        return 0;
    if (p->tok.kind != k) {
        perr_unexpected(p, what);
        return 0;
    }
    advance(p);
    return 1;
}

static int enter(parser *p)
{
    if (++p->depth > IR_MAX_DEPTH) {
        perr_at(p, &p->tok, "nesting too deep (more than %d levels)", IR_MAX_DEPTH);
        return 0;
    }
    return 1;
}

static void leave(parser *p)
{
    p->depth--;
}

/* ---- scratch stack ---------------------------------------------------------- */

static void spush(parser *p, void *x)
{
    if (p->sp == p->scap) {
        p->scap = p->scap ? p->scap * 2 : 256;
        p->stack = xreallocarray(p->stack, p->scap, sizeof *p->stack);
    }
    p->stack[p->sp++] = x;
}

/* Copies stack[base..sp) into the arena and pops it. */
static void **spop_array(parser *p, size_t base, uint32_t *n)
{
    *n = (uint32_t)(p->sp - base);
    void **arr = NULL;
    if (*n) {
        arr = ir_arena_alloc(p->a, *n * sizeof *arr);
        memcpy(arr, p->stack + base, *n * sizeof *arr);
    }
    p->sp = base;
    return arr;
}

/* ---- nodes ------------------------------------------------------------------- */

static void span_begin(ir_span *s, const lex_token *t)
{
    s->line = t->line;
    s->col = t->col;
    s->start = t->start;
    s->end = t->end;
}

static void span_finish(parser *p, ir_span *s)
{
    s->end = p->prev_end > s->start ? p->prev_end : s->end;
}

static ir_expr *new_expr(parser *p, ir_expr_kind kind, const lex_token *t)
{
    ir_expr *e = ir_arena_alloc(p->a, sizeof *e);
    e->kind = (uint8_t)kind;
    e->height = 1;
    span_begin(&e->span, t);
    return e;
}

/* Sets e's height from its children; trees higher than IR_MAX_DEPTH are
 * refused (long operator chains and call chains are not caught by the
 * recursion guard because the parser builds them in loops). */
static int child_h(const ir_expr *c)
{
    return c ? c->height : 0;
}

static ir_expr *set_height(parser *p, ir_expr *e)
{
    if (!e)
        return NULL;
    int h = 0;
    switch (e->kind) {
    case IR_EXPR_ATTR: h = child_h(e->u.attr.value); break;
    case IR_EXPR_CALL:
        h = child_h(e->u.call.callee);
        for (uint32_t i = 0; i < e->u.call.nargs; i++)
            if (child_h(e->u.call.args[i]) > h)
                h = child_h(e->u.call.args[i]);
        for (uint32_t i = 0; i < e->u.call.nkwargs; i++)
            if (child_h(e->u.call.kwargs[i].value) > h)
                h = child_h(e->u.call.kwargs[i].value);
        break;
    case IR_EXPR_SUBSCRIPT:
        h = child_h(e->u.sub.value);
        for (uint32_t i = 0; i < e->u.sub.n; i++)
            if (child_h(e->u.sub.items[i]) > h)
                h = child_h(e->u.sub.items[i]);
        break;
    case IR_EXPR_SLICE:
        h = child_h(e->u.slice.lo);
        if (child_h(e->u.slice.hi) > h)
            h = child_h(e->u.slice.hi);
        if (child_h(e->u.slice.step) > h)
            h = child_h(e->u.slice.step);
        break;
    case IR_EXPR_LIST:
    case IR_EXPR_TUPLE:
        for (uint32_t i = 0; i < e->u.seq.n; i++)
            if (child_h(e->u.seq.items[i]) > h)
                h = child_h(e->u.seq.items[i]);
        break;
    case IR_EXPR_DICT:
        for (uint32_t i = 0; i < e->u.dict.n; i++) {
            if (child_h(e->u.dict.keys[i]) > h)
                h = child_h(e->u.dict.keys[i]);
            if (child_h(e->u.dict.values[i]) > h)
                h = child_h(e->u.dict.values[i]);
        }
        break;
    case IR_EXPR_UNARY: h = child_h(e->u.unary.operand); break;
    case IR_EXPR_BINARY:
        h = child_h(e->u.binary.lhs);
        if (child_h(e->u.binary.rhs) > h)
            h = child_h(e->u.binary.rhs);
        break;
    default: break;
    }
    e->height = (uint16_t)(h + 1);
    if (h + 1 > IR_MAX_DEPTH) {
        lex_token at;
        memset(&at, 0, sizeof at);
        at.line = e->span.line;
        at.col = e->span.col;
        at.line_start = e->span.start - (e->span.col - 1);
        perr_at(p, &at, "expression nested too deeply (more than %d levels)", IR_MAX_DEPTH);
        return NULL;
    }
    return e;
}

static ir_stmt *new_stmt(parser *p, ir_stmt_kind kind, const lex_token *t)
{
    ir_stmt *s = ir_arena_alloc(p->a, sizeof *s);
    s->kind = (uint8_t)kind;
    span_begin(&s->span, t);
    return s;
}

/* Comments inside an opaque construct are part of its text: do not attach
 * them again to the next statement. */
static void drop_comments_before(parser *p, uint32_t end)
{
    while (p->next_comment < p->lx.ncomments && p->lx.comments[p->next_comment].span.start < end)
        p->next_comment++;
}

static ir_expr *make_opaque(parser *p, ir_expr *from)
{
    /* Keeps the construct's text, from its first byte to the last token. */
    ir_expr *e = ir_arena_alloc(p->a, sizeof *e);
    e->kind = IR_EXPR_OPAQUE;
    e->height = 1;
    e->span = from->span;
    span_finish(p, &e->span);
    e->u.opaque.text = p->lx.src + e->span.start;
    e->u.opaque.len = e->span.end - e->span.start;
    drop_comments_before(p, e->span.end);
    return e;
}

/* ---- comments ---------------------------------------------------------------- */

static uint32_t comment_indent(const ir_comment *c)
{
    uint32_t k = 0;
    while (k < c->len && c->text[k] == ' ')
        k++;
    return k == c->len ? 0 : k;
}

static int comment_blank(const ir_comment *c)
{
    for (uint32_t i = 0; i < c->len; i++)
        if (c->text[i] != ' ' && c->text[i] != '\t')
            return 0;
    return 1;
}

/* Takes the comments that start before offset `upto` and are not attached
 * yet. Whitespace-only comments are normalised to what the raw printer
 * writes for docstring lines (ruff strips the trailing blanks, so they must
 * be re-derived): the last blank line of an indented docstring block keeps
 * the block's indentation ("#         "), every other one is "# ". */
static ir_comments take_comments(parser *p, uint32_t upto)
{
    ir_comments out = {NULL, 0};
    lexer *lx = &p->lx;
    uint32_t first = p->next_comment, last = first;
    while (last < lx->ncomments && lx->comments[last].span.start < upto)
        last++;
    if (last == first)
        return out;
    out.n = last - first;
    out.items = ir_arena_alloc(p->a, out.n * sizeof *out.items);
    for (uint32_t i = 0; i < out.n; i++) {
        const lex_comment *lc = &lx->comments[first + i];
        ir_comment *c = &out.items[i];
        c->span = lc->span;
        const char *t = lx->src + lc->text_start;
        uint32_t n = lc->text_len;
        if (n && t[0] == ' ') {
            t++;
            n--;
        }
        c->text = ir_arena_strndup(p->a, t, n);
        c->len = n;
        if (n >= 16 && memcmp(t, "pypto.program:", 14) == 0)
            c->kind = IR_COMMENT_HEADER;
        else if (n >= 17 && memcmp(t, "pld.comm_domain:", 16) == 0)
            c->kind = IR_COMMENT_COMM_DOMAIN;
    }
    for (uint32_t i = 0; i < out.n; i++) {
        ir_comment *c = &out.items[i];
        if (!comment_blank(c))
            continue;
        uint32_t k = 0;
        for (uint32_t j = i; j-- > 0;) {
            uint32_t kj = comment_blank(&out.items[j]) ? 0 : comment_indent(&out.items[j]);
            if (kj == 0)
                break;
            if (k == 0 || kj < k)
                k = kj;
        }
        int next_indented = i + 1 < out.n && !comment_blank(&out.items[i + 1]) &&
                            comment_indent(&out.items[i + 1]) > 0;
        if (k > 0 && !next_indented) {
            char *sp = ir_arena_alloc(p->a, k + 1);
            memset(sp, ' ', k);
            c->text = sp;
            c->len = k;
        } else {
            c->text = "";
            c->len = 0;
        }
    }
    p->next_comment = last;
    return out;
}

/* ---- literals ---------------------------------------------------------------- */

static ir_expr *parse_int(parser *p, int negative, const lex_token *at)
{
    ir_expr *e = new_expr(p, IR_EXPR_INT, at);
    const char *s = p->lx.src + p->tok.start;
    uint32_t n = p->tok.end - p->tok.start;
    uint64_t v = 0;
    for (uint32_t i = 0; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) {
            perr_at(p, &p->tok, "integer literal too large");
            return NULL;
        }
        v = v * 10 + d;
    }
    e->u.num.text = s;
    e->u.num.len = n;
    e->u.num.u = v;
    if (negative) {
        e->flags |= IR_EF_NEGATIVE;
        if (v > (uint64_t)INT64_MAX + 1) {
            perr_at(p, &p->tok, "integer literal too large");
            return NULL;
        }
        e->u.num.i = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
        e->u.num.f = -(double)v;
    } else {
        if (v > (uint64_t)INT64_MAX)
            e->flags |= IR_EF_BIG;
        e->u.num.i = (int64_t)v;
        e->u.num.f = (double)v;
    }
    advance(p);
    span_finish(p, &e->span);
    return e;
}

static ir_expr *parse_float(parser *p, int negative, const lex_token *at)
{
    ir_expr *e = new_expr(p, IR_EXPR_FLOAT, at);
    const char *s = p->lx.src + p->tok.start;
    uint32_t n = p->tok.end - p->tok.start;
    char buf[64];
    double v;
    if (n < sizeof buf) {
        memcpy(buf, s, n);
        buf[n] = '\0';
        v = p->c_locale ? strtod_l(buf, NULL, p->c_locale) : strtod(buf, NULL);
    } else {
        char *tmp = xstrndup(s, n);
        v = p->c_locale ? strtod_l(tmp, NULL, p->c_locale) : strtod(tmp, NULL);
        free(tmp);
    }
    e->u.num.text = s;
    e->u.num.len = n;
    e->u.num.f = negative ? -v : v;
    if (negative)
        e->flags |= IR_EF_NEGATIVE;
    advance(p);
    span_finish(p, &e->span);
    return e;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static ir_expr *parse_string(parser *p)
{
    ir_expr *e = new_expr(p, IR_EXPR_STRING, &p->tok);
    const char *s = p->lx.src + p->tok.start;
    uint32_t n = p->tok.end - p->tok.start;
    if (s[0] != '"' && s[0] != '\'') {
        /* A prefixed string (r"", f"", b""): legal Python, kept as text. */
        advance(p);
        while (p->tok.kind == TK_STRING)
            advance(p);
        return make_opaque(p, e);
    }
    uint32_t q = (n >= 6 && s[1] == s[0] && s[2] == s[0]) ? 3 : 1;
    const char *body = s + q;
    uint32_t blen = n - 2 * q;
    char *out = ir_arena_alloc(p->a, blen + 1);
    uint32_t o = 0;
    for (uint32_t i = 0; i < blen; i++) {
        char c = body[i];
        if (c != '\\' || i + 1 >= blen) {
            out[o++] = c;
            continue;
        }
        char d = body[++i];
        switch (d) {
        case 'n': out[o++] = '\n'; break;
        case 't': out[o++] = '\t'; break;
        case 'r': out[o++] = '\r'; break;
        case '0': out[o++] = '\0'; break;
        case '\\': out[o++] = '\\'; break;
        case '\'': out[o++] = '\''; break;
        case '"': out[o++] = '"'; break;
        case '\n': break;
        case 'x':
            if (i + 2 < blen && hexval(body[i + 1]) >= 0 && hexval(body[i + 2]) >= 0) {
                /* A code point: U+0080..U+00FF take two UTF-8 bytes (the
                 * buffer has room: the escape itself is four). */
                int v = hexval(body[i + 1]) * 16 + hexval(body[i + 2]);
                if (v < 0x80) {
                    out[o++] = (char)v;
                } else {
                    out[o++] = (char)(0xc0 | (v >> 6));
                    out[o++] = (char)(0x80 | (v & 0x3f));
                }
                i += 2;
                break;
            }
            /* fall through */
        default:
            out[o++] = '\\';
            out[o++] = d;
            break;
        }
    }
    out[o] = '\0';
    e->u.str.raw = body;
    e->u.str.raw_len = blen;
    e->u.str.value = out;
    e->u.str.len = o;
    advance(p);
    span_finish(p, &e->span);
    if (p->tok.kind == TK_STRING) {
        /* Implicit concatenation: legal Python, never printed; kept opaque. */
        while (p->tok.kind == TK_STRING)
            advance(p);
        return make_opaque(p, e);
    }
    return e;
}

/* ---- expressions ------------------------------------------------------------- */

static ir_expr *parse_expr(parser *p);
static ir_expr *parse_or(parser *p);
static ir_expr *parse_factor(parser *p);
static ir_expr *parse_bitor(parser *p);

/* Skips a comprehension tail ("for ... in ... [if ...]") after its first
 * element; the caller turns the whole bracket into an opaque node. */
static void skip_comprehension(parser *p)
{
    while (!p->panic && is_kw(&p->tok, LEX_KW_FOR)) {
        advance(p);
        while (!p->panic && !is_kw(&p->tok, LEX_KW_IN) && p->tok.kind != TK_EOF &&
               p->tok.kind != TK_NEWLINE)
            advance(p);
        if (!expect(p, TK_NAME, "'in'"))
            return;
        parse_or(p);
        while (!p->panic && is_kw(&p->tok, LEX_KW_IF)) {
            advance(p);
            parse_or(p);
        }
    }
}

static ir_expr *finish_binary(parser *p, ir_binop op, ir_expr *lhs, ir_expr *rhs)
{
    ir_expr *e = ir_arena_alloc(p->a, sizeof *e);
    e->kind = IR_EXPR_BINARY;
    e->op = (uint8_t)op;
    e->span = lhs->span;
    span_finish(p, &e->span);
    e->u.binary.lhs = lhs;
    e->u.binary.rhs = rhs;
    return set_height(p, e);
}

/* An element inside brackets: an expression, or "*x" / "**x" (opaque). */
static ir_expr *parse_element(parser *p)
{
    if (p->tok.kind == TK_STAR || p->tok.kind == TK_DSTAR) {
        ir_expr *star = new_expr(p, IR_EXPR_OPAQUE, &p->tok);
        advance(p);
        if (!parse_expr(p))
            return NULL;
        return make_opaque(p, star);
    }
    return parse_expr(p);
}

static ir_expr *parse_paren(parser *p)
{
    lex_token open = p->tok;
    advance(p);
    if (p->tok.kind == TK_RPAR) {
        ir_expr *e = new_expr(p, IR_EXPR_TUPLE, &open);
        advance(p);
        span_finish(p, &e->span);
        return e;
    }
    ir_expr *first = parse_element(p);
    if (!first)
        return NULL;
    if (is_kw(&p->tok, LEX_KW_FOR)) {
        ir_expr *holder = new_expr(p, IR_EXPR_OPAQUE, &open);
        skip_comprehension(p);
        if (!expect(p, TK_RPAR, "')'"))
            return NULL;
        return make_opaque(p, holder);
    }
    if (p->tok.kind != TK_COMMA) {
        if (!expect(p, TK_RPAR, "')'"))
            return NULL;
        /* The span covers the parentheses, so that a construct built on it
         * later (a generator argument kept opaque) has its whole text. */
        first->flags |= IR_EF_PARENS;
        first->span.line = open.line;
        first->span.col = open.col;
        first->span.start = open.start;
        span_finish(p, &first->span);
        return first;
    }
    size_t base = p->sp;
    spush(p, first);
    while (p->tok.kind == TK_COMMA) {
        advance(p);
        if (p->tok.kind == TK_RPAR)
            break;
        ir_expr *x = parse_element(p);
        if (!x) {
            p->sp = base;
            return NULL;
        }
        spush(p, x);
    }
    ir_expr *e = new_expr(p, IR_EXPR_TUPLE, &open);
    e->u.seq.items = (ir_expr **)spop_array(p, base, &e->u.seq.n);
    if (!expect(p, TK_RPAR, "')' or ','"))
        return NULL;
    span_finish(p, &e->span);
    return set_height(p, e);
}

static ir_expr *parse_list(parser *p)
{
    lex_token open = p->tok;
    advance(p);
    ir_expr *e = new_expr(p, IR_EXPR_LIST, &open);
    size_t base = p->sp;
    int first = 1;
    while (p->tok.kind != TK_RSQB) {
        ir_expr *x = parse_element(p);
        if (!x) {
            p->sp = base;
            return NULL;
        }
        if (first && is_kw(&p->tok, LEX_KW_FOR)) {
            p->sp = base;
            skip_comprehension(p);
            if (!expect(p, TK_RSQB, "']'"))
                return NULL;
            return make_opaque(p, e);
        }
        first = 0;
        spush(p, x);
        if (p->tok.kind != TK_COMMA)
            break;
        advance(p);
    }
    e->u.seq.items = (ir_expr **)spop_array(p, base, &e->u.seq.n);
    if (!expect(p, TK_RSQB, "']' or ','"))
        return NULL;
    span_finish(p, &e->span);
    return set_height(p, e);
}

static ir_expr *parse_dict(parser *p)
{
    lex_token open = p->tok;
    advance(p);
    ir_expr *e = new_expr(p, IR_EXPR_DICT, &open);
    size_t base = p->sp;
    while (p->tok.kind != TK_RBRACE) {
        ir_expr *k = parse_element(p);
        if (!k) {
            p->sp = base;
            return NULL;
        }
        if (p->tok.kind != TK_COLON) {
            /* A set or a comprehension: legal Python, not in dumps. */
            p->sp = base;
            if (is_kw(&p->tok, LEX_KW_FOR))
                skip_comprehension(p);
            while (p->tok.kind == TK_COMMA) {
                advance(p);
                if (p->tok.kind == TK_RBRACE)
                    break;
                if (!parse_element(p))
                    return NULL;
            }
            if (!expect(p, TK_RBRACE, "'}'"))
                return NULL;
            return make_opaque(p, e);
        }
        advance(p);
        ir_expr *v = parse_expr(p);
        if (!v) {
            p->sp = base;
            return NULL;
        }
        if (is_kw(&p->tok, LEX_KW_FOR)) {
            p->sp = base;
            skip_comprehension(p);
            if (!expect(p, TK_RBRACE, "'}'"))
                return NULL;
            return make_opaque(p, e);
        }
        spush(p, k);
        spush(p, v);
        if (p->tok.kind != TK_COMMA)
            break;
        advance(p);
    }
    uint32_t n2;
    ir_expr **kv = (ir_expr **)spop_array(p, base, &n2);
    e->u.dict.n = n2 / 2;
    if (e->u.dict.n) {
        e->u.dict.keys = ir_arena_alloc(p->a, e->u.dict.n * sizeof(ir_expr *));
        e->u.dict.values = ir_arena_alloc(p->a, e->u.dict.n * sizeof(ir_expr *));
        for (uint32_t i = 0; i < e->u.dict.n; i++) {
            e->u.dict.keys[i] = kv[2 * i];
            e->u.dict.values[i] = kv[2 * i + 1];
        }
    }
    if (!expect(p, TK_RBRACE, "'}' or ','"))
        return NULL;
    span_finish(p, &e->span);
    return set_height(p, e);
}

static ir_expr *parse_lambda(parser *p)
{
    ir_expr *holder = new_expr(p, IR_EXPR_OPAQUE, &p->tok);
    advance(p);
    while (!p->panic && p->tok.kind != TK_COLON && p->tok.kind != TK_NEWLINE &&
           p->tok.kind != TK_EOF)
        advance(p);
    if (!expect(p, TK_COLON, "':'"))
        return NULL;
    if (!parse_expr(p))
        return NULL;
    return make_opaque(p, holder);
}

static ir_expr *parse_atom(parser *p)
{
    char buf[96];
    switch (p->tok.kind) {
    case TK_NAME: {
        uint32_t id = p->tok.sym->id;
        if (id == LEX_KW_TRUE || id == LEX_KW_FALSE) {
            ir_expr *e = new_expr(p, IR_EXPR_BOOL, &p->tok);
            e->u.boolean = id == LEX_KW_TRUE;
            advance(p);
            return e;
        }
        if (id == LEX_KW_NONE) {
            ir_expr *e = new_expr(p, IR_EXPR_NONE, &p->tok);
            advance(p);
            return e;
        }
        if (id == LEX_KW_LAMBDA)
            return parse_lambda(p);
        if (id < LEX_KEYWORD_COUNT) {
            perr_at(p, &p->tok, "expected an expression, found keyword '%s'", p->tok.sym->text);
            return NULL;
        }
        ir_expr *e = new_expr(p, IR_EXPR_NAME, &p->tok);
        e->u.name = p->tok.sym;
        advance(p);
        return e;
    }
    case TK_INT: return parse_int(p, 0, &p->tok);
    case TK_FLOAT: return parse_float(p, 0, &p->tok);
    case TK_STRING: return parse_string(p);
    case TK_OTHER_NUMBER: {
        ir_expr *e = new_expr(p, IR_EXPR_OPAQUE, &p->tok);
        advance(p);
        return make_opaque(p, e);
    }
    case TK_LPAR: return parse_paren(p);
    case TK_LSQB: return parse_list(p);
    case TK_LBRACE: return parse_dict(p);
    case TK_ELLIPSIS: {
        ir_expr *e = new_expr(p, IR_EXPR_ELLIPSIS, &p->tok);
        advance(p);
        return e;
    }
    case TK_ERROR:
        p->panic = 1; /* already reported by the lexer */
        return NULL;
    default:
        perr_at(p, &p->tok, "expected an expression, found %s",
                tok_desc(p, &p->tok, buf, sizeof buf));
        return NULL;
    }
}

static ir_expr *parse_call(parser *p, ir_expr *callee)
{
    advance(p); /* ( */
    size_t base = p->sp;
    size_t nkw = 0;
    /* Keyword arguments go to a separate list, kept in order: stored as
     * (name token sym, value) pairs after the positional ones, split below. */
    ir_kwarg *kws = NULL;
    size_t kwcap = 0;
    while (p->tok.kind != TK_RPAR) {
        if (p->tok.kind == TK_NAME && peek(p)->kind == TK_ASSIGN &&
            p->tok.sym->id >= LEX_KEYWORD_COUNT) {
            lex_token name = p->tok;
            advance(p);
            advance(p);
            ir_expr *v = parse_expr(p);
            if (!v)
                goto fail;
            if (nkw == kwcap) {
                size_t ncap = kwcap ? kwcap * 2 : 8;
                ir_kwarg *nk = ir_arena_alloc(p->a, ncap * sizeof *nk);
                if (nkw)
                    memcpy(nk, kws, nkw * sizeof *nk);
                kws = nk;
                kwcap = ncap;
            }
            ir_kwarg *k = &kws[nkw++];
            span_begin(&k->span, &name);
            span_finish(p, &k->span);
            k->name = name.sym;
            k->value = v;
        } else {
            if (nkw) {
                perr_at(p, &p->tok, "positional argument follows keyword argument");
                goto fail;
            }
            ir_expr *x = parse_element(p);
            if (!x)
                goto fail;
            if (is_kw(&p->tok, LEX_KW_FOR)) {
                ir_expr *holder = x;
                skip_comprehension(p);
                x = make_opaque(p, holder);
            }
            spush(p, x);
        }
        if (p->tok.kind != TK_COMMA)
            break;
        advance(p);
    }
    ir_expr *e = ir_arena_alloc(p->a, sizeof *e);
    e->kind = IR_EXPR_CALL;
    e->span = callee->span;
    e->u.call.callee = callee;
    e->u.call.args = (ir_expr **)spop_array(p, base, &e->u.call.nargs);
    e->u.call.kwargs = kws;
    e->u.call.nkwargs = (uint32_t)nkw;
    if (!expect(p, TK_RPAR, "')' or ','"))
        return NULL;
    span_finish(p, &e->span);
    return set_height(p, e);
fail:
    p->sp = base;
    return NULL;
}

static ir_expr *parse_subscript_item(parser *p)
{
    ir_expr *lo = NULL;
    lex_token start = p->tok;
    if (p->tok.kind != TK_COLON) {
        lo = parse_element(p);
        if (!lo)
            return NULL;
        if (p->tok.kind != TK_COLON)
            return lo;
    }
    ir_expr *e = new_expr(p, IR_EXPR_SLICE, &start);
    e->u.slice.lo = lo;
    advance(p); /* : */
    if (p->tok.kind != TK_COLON && p->tok.kind != TK_COMMA && p->tok.kind != TK_RSQB) {
        if (!(e->u.slice.hi = parse_expr(p)))
            return NULL;
    }
    if (p->tok.kind == TK_COLON) {
        advance(p);
        if (p->tok.kind != TK_COMMA && p->tok.kind != TK_RSQB) {
            if (!(e->u.slice.step = parse_expr(p)))
                return NULL;
        }
    }
    span_finish(p, &e->span);
    return set_height(p, e);
}

static ir_expr *parse_subscript(parser *p, ir_expr *value)
{
    advance(p); /* [ */
    size_t base = p->sp;
    int comma = 0;
    while (p->tok.kind != TK_RSQB) {
        ir_expr *x = parse_subscript_item(p);
        if (!x) {
            p->sp = base;
            return NULL;
        }
        spush(p, x);
        if (p->tok.kind != TK_COMMA)
            break;
        comma = 1;
        advance(p);
    }
    ir_expr *e = ir_arena_alloc(p->a, sizeof *e);
    e->kind = IR_EXPR_SUBSCRIPT;
    e->span = value->span;
    e->u.sub.value = value;
    e->u.sub.items = (ir_expr **)spop_array(p, base, &e->u.sub.n);
    if (comma)
        e->flags |= IR_EF_TUPLE_SUB;
    if (e->u.sub.n == 0) {
        perr_at(p, &p->tok, "empty subscript");
        return NULL;
    }
    if (!expect(p, TK_RSQB, "']' or ','"))
        return NULL;
    span_finish(p, &e->span);
    return set_height(p, e);
}

static ir_expr *parse_primary(parser *p)
{
    ir_expr *e = parse_atom(p);
    while (e && !p->panic) {
        if (p->tok.kind == TK_LPAR) {
            if (!enter(p))
                return NULL;
            e = parse_call(p, e);
            leave(p);
        } else if (p->tok.kind == TK_LSQB) {
            if (!enter(p))
                return NULL;
            e = parse_subscript(p, e);
            leave(p);
        } else if (p->tok.kind == TK_DOT) {
            advance(p);
            if (p->tok.kind != TK_NAME) {
                perr_unexpected(p, "a name after '.'");
                return NULL;
            }
            ir_expr *a = ir_arena_alloc(p->a, sizeof *a);
            a->kind = IR_EXPR_ATTR;
            a->span = e->span;
            a->u.attr.value = e;
            a->u.attr.name = p->tok.sym;
            advance(p);
            span_finish(p, &a->span);
            e = set_height(p, a);
        } else {
            break;
        }
    }
    return p->panic ? NULL : e;
}

static ir_expr *parse_power(parser *p, ir_expr *base)
{
    if (!base)
        return NULL;
    if (p->tok.kind != TK_DSTAR)
        return base;
    advance(p);
    if (!enter(p))
        return NULL;
    ir_expr *rhs = parse_factor(p);
    leave(p);
    if (!rhs)
        return NULL;
    return finish_binary(p, IR_BINOP_POW, base, rhs);
}

static ir_expr *parse_factor(parser *p)
{
    lex_kind k = p->tok.kind;
    if (k == TK_MINUS || k == TK_PLUS || k == TK_TILDE) {
        lex_token op = p->tok;
        if (k == TK_MINUS) {
            /* "-NUMBER" is one atom (ir-format.md §6.4): -2 ** 3 is (-2) ** 3. */
            const lex_token *nx = peek(p);
            if ((nx->kind == TK_INT || nx->kind == TK_FLOAT) && nx->start == op.end) {
                advance(p);
                ir_expr *lit = p->tok.kind == TK_INT ? parse_int(p, 1, &op) : parse_float(p, 1, &op);
                return parse_power(p, lit);
            }
        }
        advance(p);
        if (!enter(p))
            return NULL;
        ir_expr *operand = parse_factor(p);
        leave(p);
        if (!operand)
            return NULL;
        ir_expr *e = new_expr(p, IR_EXPR_UNARY, &op);
        e->op = (uint8_t)(k == TK_MINUS ? IR_UNOP_NEG : k == TK_PLUS ? IR_UNOP_POS : IR_UNOP_INVERT);
        e->u.unary.operand = operand;
        span_finish(p, &e->span);
        return set_height(p, e);
    }
    return parse_power(p, parse_primary(p));
}

static int binop_of(parser *p, int level, ir_binop *op)
{
    lex_kind k = p->tok.kind;
    switch (level) {
    case 0: /* term */
        if (k == TK_STAR) *op = IR_BINOP_MUL;
        else if (k == TK_SLASH) *op = IR_BINOP_DIV;
        else if (k == TK_DSLASH) *op = IR_BINOP_FLOORDIV;
        else if (k == TK_PERCENT) *op = IR_BINOP_MOD;
        else if (k == TK_AT) *op = IR_BINOP_MATMUL;
        else return 0;
        return 1;
    case 1: /* arith */
        if (k == TK_PLUS) *op = IR_BINOP_ADD;
        else if (k == TK_MINUS) *op = IR_BINOP_SUB;
        else return 0;
        return 1;
    case 2:
        if (k == TK_LSHIFT) *op = IR_BINOP_SHL;
        else if (k == TK_RSHIFT) *op = IR_BINOP_SHR;
        else return 0;
        return 1;
    case 3: if (k != TK_AMP) return 0; *op = IR_BINOP_BITAND; return 1;
    case 4: if (k != TK_CARET) return 0; *op = IR_BINOP_BITXOR; return 1;
    case 5: if (k != TK_VBAR) return 0; *op = IR_BINOP_BITOR; return 1;
    default: return 0;
    }
}

/* Levels 0..5: term, arith, shift, &, ^, |; iterative per level. */
static ir_expr *parse_binary_level(parser *p, int level)
{
    ir_expr *lhs = level == 0 ? parse_factor(p) : parse_binary_level(p, level - 1);
    ir_binop op;
    while (lhs && !p->panic && binop_of(p, level, &op)) {
        advance(p);
        ir_expr *rhs = level == 0 ? parse_factor(p) : parse_binary_level(p, level - 1);
        if (!rhs)
            return NULL;
        lhs = finish_binary(p, op, lhs, rhs);
    }
    return p->panic ? NULL : lhs;
}

static ir_expr *parse_bitor(parser *p)
{
    return parse_binary_level(p, 5);
}

static int compop(parser *p, ir_binop *op, int *two)
{
    *two = 0;
    switch (p->tok.kind) {
    case TK_EQEQ: *op = IR_BINOP_EQ; return 1;
    case TK_NE: *op = IR_BINOP_NE; return 1;
    case TK_LT: *op = IR_BINOP_LT; return 1;
    case TK_LE: *op = IR_BINOP_LE; return 1;
    case TK_GT: *op = IR_BINOP_GT; return 1;
    case TK_GE: *op = IR_BINOP_GE; return 1;
    case TK_NAME:
        if (p->tok.sym->id == LEX_KW_IN) {
            *op = IR_BINOP_IN;
            return 1;
        }
        if (p->tok.sym->id == LEX_KW_IS) {
            if (is_kw(peek(p), LEX_KW_NOT)) {
                *op = IR_BINOP_IS_NOT;
                *two = 1;
            } else {
                *op = IR_BINOP_IS;
            }
            return 1;
        }
        if (p->tok.sym->id == LEX_KW_NOT && is_kw(peek(p), LEX_KW_IN)) {
            *op = IR_BINOP_NOT_IN;
            *two = 1;
            return 1;
        }
        return 0;
    default: return 0;
    }
}

/* Comparisons are left-associative binary operators (§6.4: the printer
 * writes (a < b) == c as a < b == c). */
static ir_expr *parse_comparison(parser *p)
{
    ir_expr *lhs = parse_bitor(p);
    ir_binop op;
    int two;
    while (lhs && !p->panic && compop(p, &op, &two)) {
        advance(p);
        if (two)
            advance(p);
        ir_expr *rhs = parse_bitor(p);
        if (!rhs)
            return NULL;
        lhs = finish_binary(p, op, lhs, rhs);
    }
    return p->panic ? NULL : lhs;
}

static ir_expr *parse_not(parser *p)
{
    if (is_kw(&p->tok, LEX_KW_NOT)) {
        lex_token op = p->tok;
        advance(p);
        if (!enter(p))
            return NULL;
        ir_expr *operand = parse_not(p);
        leave(p);
        if (!operand)
            return NULL;
        ir_expr *e = new_expr(p, IR_EXPR_UNARY, &op);
        e->op = IR_UNOP_NOT;
        e->u.unary.operand = operand;
        span_finish(p, &e->span);
        return set_height(p, e);
    }
    return parse_comparison(p);
}

static ir_expr *parse_bool_level(parser *p, int level)
{
    /* level 2: or, 1: xor (not Python, §6.4), 0: and */
    static const int kw[3] = {LEX_KW_AND, LEX_KW_XOR, LEX_KW_OR};
    static const ir_binop ops[3] = {IR_BINOP_AND, IR_BINOP_XOR, IR_BINOP_OR};
    ir_expr *lhs = level == 0 ? parse_not(p) : parse_bool_level(p, level - 1);
    while (lhs && !p->panic && is_kw(&p->tok, kw[level])) {
        advance(p);
        ir_expr *rhs = level == 0 ? parse_not(p) : parse_bool_level(p, level - 1);
        if (!rhs)
            return NULL;
        lhs = finish_binary(p, ops[level], lhs, rhs);
    }
    return p->panic ? NULL : lhs;
}

static ir_expr *parse_or(parser *p)
{
    return parse_bool_level(p, 2);
}

static ir_expr *parse_expr(parser *p)
{
    if (p->stop)
        return NULL;
    if (!enter(p))
        return NULL;
    ir_expr *e;
    if (is_kw(&p->tok, LEX_KW_LAMBDA)) {
        e = parse_lambda(p);
    } else {
        e = parse_or(p);
        if (e && is_kw(&p->tok, LEX_KW_IF)) {
            /* Conditional expression: legal Python, kept opaque. */
            advance(p);
            if (parse_or(p) && expect(p, TK_NAME, "'else'") && parse_expr(p))
                e = make_opaque(p, e);
            else
                e = NULL;
        }
    }
    leave(p);
    return p->panic ? NULL : e;
}

/* expr {, expr} [,] : a bare tuple when there is a comma. */
static ir_expr *parse_testlist(parser *p)
{
    lex_token start = p->tok;
    ir_expr *first = parse_expr(p);
    if (!first || p->tok.kind != TK_COMMA)
        return first;
    size_t base = p->sp;
    spush(p, first);
    while (p->tok.kind == TK_COMMA) {
        advance(p);
        if (p->tok.kind == TK_NEWLINE || p->tok.kind == TK_ASSIGN || p->tok.kind == TK_COLON ||
            p->tok.kind == TK_EOF)
            break;
        ir_expr *x = parse_expr(p);
        if (!x) {
            p->sp = base;
            return NULL;
        }
        spush(p, x);
    }
    ir_expr *e = new_expr(p, IR_EXPR_TUPLE, &start);
    e->u.seq.items = (ir_expr **)spop_array(p, base, &e->u.seq.n);
    span_finish(p, &e->span);
    return set_height(p, e);
}

/* ---- statements -------------------------------------------------------------- */

static ir_stmt *parse_stmt(parser *p);
static ir_block parse_block(parser *p);

static int is_pl_call(const ir_expr *e, uint32_t attr_id)
{
    if (!e || e->kind != IR_EXPR_CALL)
        return 0;
    const ir_expr *c = e->u.call.callee;
    return c->kind == IR_EXPR_ATTR && c->u.attr.name->id == attr_id &&
           c->u.attr.value->kind == IR_EXPR_NAME && c->u.attr.value->u.name->id == LEX_KW_PL;
}

/* Skips to the end of the current logical line, and the block it opens. */
static void skip_statement(parser *p)
{
    int header_colon = 0;
    while (p->tok.kind != TK_NEWLINE && p->tok.kind != TK_EOF) {
        if (p->tok.kind == TK_DEDENT || p->tok.kind == TK_INDENT) {
            /* Only after lexical errors: leave them to the block loops. */
            if (p->tok.kind == TK_DEDENT)
                return;
        }
        header_colon = p->tok.kind == TK_COLON;
        advance(p);
    }
    if (p->tok.kind == TK_NEWLINE)
        advance(p);
    if (header_colon && p->tok.kind == TK_INDENT) {
        int level = 0;
        do {
            if (p->tok.kind == TK_INDENT)
                level++;
            else if (p->tok.kind == TK_DEDENT)
                level--;
            advance(p);
        } while (level > 0 && p->tok.kind != TK_EOF);
    }
}

static ir_stmt *make_opaque_stmt(parser *p, ir_stmt *s, const lex_token *start)
{
    int decorated = start->kind == TK_AT;
    skip_statement(p);
    while (decorated && (p->tok.kind == TK_AT || is_kw(&p->tok, LEX_KW_DEF) ||
                         is_kw(&p->tok, LEX_KW_CLASS) || is_kw(&p->tok, LEX_KW_ASYNC))) {
        decorated = p->tok.kind == TK_AT;
        skip_statement(p);
    }
    s->kind = IR_STMT_OPAQUE;
    span_finish(p, &s->span);
    s->u.opaque.text = p->lx.src + s->span.start;
    s->u.opaque.len = s->span.end - s->span.start;
    drop_comments_before(p, s->span.end);
    s->u.opaque.indent = start->col - 1;
    p->panic = 0;
    return s;
}

static int end_simple(parser *p)
{
    if (p->panic)
        return 0;
    if (p->tok.kind == TK_NEWLINE) {
        advance(p);
        return 1;
    }
    if (p->tok.kind == TK_EOF || p->tok.kind == TK_DEDENT)
        return 1;
    char buf[96];
    if (p->tok.kind == TK_SEMI)
        perr_at(p, &p->tok, "';' is not supported: one statement per line");
    else
        perr_at(p, &p->tok, "expected end of line, found %s", tok_desc(p, &p->tok, buf, sizeof buf));
    return 0;
}

static int expr_to_targets(parser *p, ir_expr *e, ir_stmt *s)
{
    if (e->kind == IR_EXPR_NAME) {
        s->u.assign.targets = ir_arena_alloc(p->a, sizeof(ir_target));
        s->u.assign.ntargets = 1;
        s->u.assign.targets[0].span = e->span;
        s->u.assign.targets[0].name = e->u.name;
        s->u.assign.targets[0].slot = -1;
        return 1;
    }
    if (e->kind != IR_EXPR_TUPLE || e->u.seq.n == 0)
        return 0;
    for (uint32_t i = 0; i < e->u.seq.n; i++)
        if (e->u.seq.items[i]->kind != IR_EXPR_NAME)
            return 0;
    s->u.assign.ntargets = e->u.seq.n;
    s->u.assign.targets = ir_arena_alloc(p->a, e->u.seq.n * sizeof(ir_target));
    for (uint32_t i = 0; i < e->u.seq.n; i++) {
        s->u.assign.targets[i].span = e->u.seq.items[i]->span;
        s->u.assign.targets[i].name = e->u.seq.items[i]->u.name;
        s->u.assign.targets[i].slot = -1;
    }
    return 1;
}

static void classify_value(ir_stmt *s)
{
    ir_expr *v = s->u.assign.value;
    if (is_pl_call(v, LEX_KW_YIELD_) && v->u.call.nkwargs == 0) {
        s->kind = IR_STMT_YIELD;
        s->u.assign.values = v->u.call.args;
        s->u.assign.nvalues = v->u.call.nargs;
    }
}

static ir_stmt *parse_simple(parser *p, ir_stmt *s, const lex_token *start)
{
    ir_expr *e = parse_testlist(p);
    if (!e)
        return NULL;
    if (p->tok.kind == TK_COLON) {
        /* NAME: annotation = value */
        advance(p);
        ir_expr *annot = parse_expr(p);
        if (!annot)
            return NULL;
        if (p->tok.kind != TK_ASSIGN || e->kind != IR_EXPR_NAME || (e->flags & IR_EF_PARENS))
            return make_opaque_stmt(p, s, start); /* x[i]: T = v, bare x: T */
        advance(p);
        ir_expr *v = parse_testlist(p);
        if (!v)
            return NULL;
        s->kind = IR_STMT_ASSIGN;
        expr_to_targets(p, e, s);
        s->u.assign.annot = annot;
        s->u.assign.value = v;
        classify_value(s);
    } else if (p->tok.kind == TK_ASSIGN) {
        advance(p);
        ir_expr *v = parse_testlist(p);
        if (!v)
            return NULL;
        if (p->tok.kind == TK_ASSIGN || !expr_to_targets(p, e, s))
            return make_opaque_stmt(p, s, start); /* chained or non-name target */
        s->kind = IR_STMT_ASSIGN;
        s->u.assign.value = v;
        classify_value(s);
    } else if (p->tok.kind == TK_AUGASSIGN) {
        return make_opaque_stmt(p, s, start);
    } else {
        s->kind = IR_STMT_EXPR;
        s->u.expr.value = e;
        if (is_pl_call(e, LEX_KW_YIELD_) && e->u.call.nkwargs == 0) {
            s->kind = IR_STMT_YIELD;
            s->u.assign.value = e;
            s->u.assign.values = e->u.call.args;
            s->u.assign.nvalues = e->u.call.nargs;
        } else if (is_pl_call(e, LEX_KW_COND) && e->u.call.nargs == 1 && !e->u.call.nkwargs) {
            s->kind = IR_STMT_COND;
            s->u.expr.arg = e->u.call.args[0];
        } else if (is_pl_call(e, LEX_KW_FUNC_ATTR) && e->u.call.nargs == 1 &&
                   !e->u.call.nkwargs) {
            s->kind = IR_STMT_FUNC_ATTR;
            s->u.expr.arg = e->u.call.args[0];
        }
    }
    if (!end_simple(p))
        return NULL;
    span_finish(p, &s->span);
    return s;
}

/* for-targets: NAME | "(" targets ")" with commas making tuples. */
static ir_expr *parse_target_list(parser *p);

static ir_expr *parse_target_atom(parser *p)
{
    if (p->tok.kind == TK_NAME && p->tok.sym->id >= LEX_KEYWORD_COUNT) {
        ir_expr *e = new_expr(p, IR_EXPR_NAME, &p->tok);
        e->u.name = p->tok.sym;
        advance(p);
        return e;
    }
    if (p->tok.kind == TK_LPAR) {
        if (!enter(p))
            return NULL;
        advance(p);
        ir_expr *e = parse_target_list(p);
        leave(p);
        if (!e || !expect(p, TK_RPAR, "')'"))
            return NULL;
        return e;
    }
    perr_unexpected(p, "a loop variable name");
    return NULL;
}

static ir_expr *parse_target_list(parser *p)
{
    lex_token start = p->tok;
    ir_expr *first = parse_target_atom(p);
    if (!first || p->tok.kind != TK_COMMA)
        return first;
    size_t base = p->sp;
    spush(p, first);
    while (p->tok.kind == TK_COMMA) {
        advance(p);
        if (p->tok.kind == TK_RPAR || is_kw(&p->tok, LEX_KW_IN))
            break;
        ir_expr *x = parse_target_atom(p);
        if (!x) {
            p->sp = base;
            return NULL;
        }
        spush(p, x);
    }
    ir_expr *e = new_expr(p, IR_EXPR_TUPLE, &start);
    e->u.seq.items = (ir_expr **)spop_array(p, base, &e->u.seq.n);
    return e;
}

static ir_target *names_to_targets(parser *p, ir_expr **items, uint32_t n)
{
    ir_target *t = ir_arena_alloc(p->a, (n ? n : 1) * sizeof *t);
    for (uint32_t i = 0; i < n; i++) {
        if (items[i]->kind != IR_EXPR_NAME)
            return NULL;
        t[i].span = items[i]->span;
        t[i].name = items[i]->u.name;
        t[i].slot = -1;
    }
    return t;
}

static ir_stmt *parse_for(parser *p, ir_stmt *s, const lex_token *start)
{
    lex_token target_tok = p->tok;
    ir_expr *t = parse_target_list(p);
    if (!t)
        return NULL;
    if (!is_kw(&p->tok, LEX_KW_IN)) {
        perr_unexpected(p, "'in'");
        return NULL;
    }
    advance(p);
    ir_expr *iter = parse_testlist(p);
    if (!iter)
        return NULL;
    s->u.for_.iter = iter;
    int while_form = is_pl_call(iter, LEX_KW_WHILE_);
    if (t->kind == IR_EXPR_NAME && !while_form) {
        s->u.for_.var = names_to_targets(p, &t, 1);
    } else if (while_form) {
        /* (a, b) / (a,) / a, b: iter-args only (§5.7). */
        ir_expr **items = t->kind == IR_EXPR_TUPLE ? t->u.seq.items : &t;
        uint32_t n = t->kind == IR_EXPR_TUPLE ? t->u.seq.n : 1;
        s->u.for_.iter_args = names_to_targets(p, items, n);
        s->u.for_.niter_args = n;
        s->u.for_.has_iter_args = 1;
        if (!s->u.for_.iter_args) {
            perr_at(p, &target_tok, "unsupported pl.while_ loop target");
            return NULL;
        }
    } else if (t->kind == IR_EXPR_TUPLE && t->u.seq.n == 2 &&
               t->u.seq.items[0]->kind == IR_EXPR_NAME &&
               t->u.seq.items[1]->kind == IR_EXPR_TUPLE) {
        ir_expr *ia = t->u.seq.items[1];
        s->u.for_.var = names_to_targets(p, t->u.seq.items, 1);
        s->u.for_.iter_args = names_to_targets(p, ia->u.seq.items, ia->u.seq.n);
        s->u.for_.niter_args = ia->u.seq.n;
        s->u.for_.has_iter_args = 1;
        if (!s->u.for_.iter_args) {
            perr_at(p, &target_tok, "unsupported loop target: iter-args must be names");
            return NULL;
        }
    } else if (t->kind == IR_EXPR_TUPLE) {
        /* for a, b in items: legal Python (verbatim host bodies, §3.3). */
        return make_opaque_stmt(p, s, start);
    } else {
        perr_at(p, &target_tok, "unsupported loop target (expected 'i' or 'i, (a, b)')");
        return NULL;
    }
    if (!expect(p, TK_COLON, "':'"))
        return NULL;
    s->u.for_.body = parse_block(p);
    return p->panic ? NULL : s;
}

static ir_stmt *parse_if(parser *p, ir_stmt *s)
{
    s->u.if_.cond = parse_expr(p);
    if (!s->u.if_.cond || !expect(p, TK_COLON, "':'"))
        return NULL;
    s->u.if_.body = parse_block(p);
    if (p->panic)
        return NULL;
    if (is_kw(&p->tok, LEX_KW_ELSE)) {
        s->u.if_.else_comments = take_comments(p, p->tok.start);
        advance(p);
        if (!expect(p, TK_COLON, "':'"))
            return NULL;
        s->u.if_.has_else = 1;
        s->u.if_.orelse = parse_block(p);
    } else if (is_kw(&p->tok, LEX_KW_ELIF)) {
        /* elif is never printed; read it as else: if ... */
        s->u.if_.else_comments = take_comments(p, p->tok.start);
        ir_stmt *inner = new_stmt(p, IR_STMT_IF, &p->tok);
        advance(p);
        if (!enter(p))
            return NULL;
        inner = parse_if(p, inner);
        leave(p);
        if (!inner)
            return NULL;
        span_finish(p, &inner->span);
        s->u.if_.has_else = 1;
        s->u.if_.orelse.items = ir_arena_alloc(p->a, sizeof(ir_stmt *));
        s->u.if_.orelse.items[0] = inner;
        s->u.if_.orelse.n = 1;
    }
    return p->panic ? NULL : s;
}

static ir_target *parse_as_name(parser *p)
{
    if (p->tok.kind != TK_NAME || p->tok.sym->id < LEX_KEYWORD_COUNT) {
        perr_unexpected(p, "a name after 'as'");
        return NULL;
    }
    ir_target *t = ir_arena_alloc(p->a, sizeof *t);
    span_begin(&t->span, &p->tok);
    t->name = p->tok.sym;
    t->slot = -1;
    advance(p);
    return t;
}

static ir_stmt *parse_compound(parser *p, ir_stmt *s, const lex_token *start)
{
    uint32_t id = start->sym->id;
    advance(p);
    if (id == LEX_KW_IF) {
        s->kind = IR_STMT_IF;
        return parse_if(p, s);
    }
    if (id == LEX_KW_FOR) {
        s->kind = IR_STMT_FOR;
        if (!parse_for(p, s, start))
            return NULL;
        if (s->kind == IR_STMT_FOR && is_kw(&p->tok, LEX_KW_ELSE))
            return make_opaque_stmt(p, s, start); /* for ... else: legal Python */
        return s;
    }
    if (id == LEX_KW_WHILE) {
        s->kind = IR_STMT_WHILE;
        s->u.while_.cond = parse_expr(p);
        if (!s->u.while_.cond)
            return NULL;
        if (!expect(p, TK_COLON, "':'"))
            return NULL;
        s->u.while_.body = parse_block(p);
        if (p->panic)
            return NULL;
        if (is_kw(&p->tok, LEX_KW_ELSE))
            return make_opaque_stmt(p, s, start); /* while ... else: legal Python */
        return s;
    }
    /* with */
    s->kind = IR_STMT_WITH;
    s->u.with.ctx = parse_expr(p);
    if (!s->u.with.ctx)
        return NULL;
    if (is_kw(&p->tok, LEX_KW_AS)) {
        advance(p);
        if (!(s->u.with.as = parse_as_name(p)))
            return NULL;
    }
    if (p->tok.kind == TK_COMMA)
        return make_opaque_stmt(p, s, start); /* several context managers */
    if (!expect(p, TK_COLON, "':'"))
        return NULL;
    s->u.with.body = parse_block(p);
    return p->panic ? NULL : s;
}

static ir_stmt *parse_stmt_inner(parser *p, ir_stmt *s)
{
    lex_token start = p->tok;
    if (p->tok.kind == TK_NAME) {
        switch (p->tok.sym->id) {
        case LEX_KW_IF:
        case LEX_KW_FOR:
        case LEX_KW_WHILE:
        case LEX_KW_WITH:
            return parse_compound(p, s, &start);
        case LEX_KW_PASS:
        case LEX_KW_BREAK:
        case LEX_KW_CONTINUE:
            s->kind = start.sym->id == LEX_KW_PASS    ? IR_STMT_PASS
                      : start.sym->id == LEX_KW_BREAK ? IR_STMT_BREAK
                                                      : IR_STMT_CONTINUE;
            advance(p);
            return end_simple(p) ? s : NULL;
        case LEX_KW_RETURN: {
            s->kind = IR_STMT_RETURN;
            advance(p);
            if (p->tok.kind != TK_NEWLINE && p->tok.kind != TK_EOF && p->tok.kind != TK_DEDENT) {
                ir_expr *v = parse_testlist(p);
                if (!v)
                    return NULL;
                /* "return a, b" and ruff's "return (\n a,\n b,\n)" alike. */
                if (v->kind == IR_EXPR_TUPLE) {
                    s->u.ret.values = v->u.seq.items;
                    s->u.ret.n = v->u.seq.n;
                } else {
                    s->u.ret.values = ir_arena_alloc(p->a, sizeof(ir_expr *));
                    s->u.ret.values[0] = v;
                    s->u.ret.n = 1;
                }
            }
            return end_simple(p) ? s : NULL;
        }
        case LEX_KW_ELSE:
        case LEX_KW_ELIF:
        case LEX_KW_EXCEPT:
        case LEX_KW_FINALLY:
            if (start.sym->id == LEX_KW_ELSE && p->prev_opaque)
                return make_opaque_stmt(p, s, &start);
            if (start.sym->id == LEX_KW_ELSE || start.sym->id == LEX_KW_ELIF) {
                perr_at(p, &start, "'%s' without a matching 'if'", start.sym->text);
                return NULL;
            }
            return make_opaque_stmt(p, s, &start);
        case LEX_KW_DEF:
        case LEX_KW_CLASS:
        case LEX_KW_TRY:
        case LEX_KW_RAISE:
        case LEX_KW_ASSERT:
        case LEX_KW_DEL:
        case LEX_KW_GLOBAL:
        case LEX_KW_NONLOCAL:
        case LEX_KW_IMPORT:
        case LEX_KW_FROM:
        case LEX_KW_ASYNC:
        case LEX_KW_YIELD:
        case LEX_KW_AWAIT:
            /* Legal Python that dumps only hold in verbatim bodies (§3.3). */
            return make_opaque_stmt(p, s, &start);
        default: break;
        }
    }
    if (p->tok.kind == TK_AT)
        return make_opaque_stmt(p, s, &start);
    if (p->tok.kind == TK_ELLIPSIS) {
        const lex_token *nx = peek(p);
        if (nx->kind == TK_NEWLINE || nx->kind == TK_EOF || nx->kind == TK_DEDENT) {
            s->kind = IR_STMT_ELLIPSIS;
            advance(p);
            return end_simple(p) ? s : NULL;
        }
    }
    return parse_simple(p, s, &start);
}

static ir_stmt *parse_stmt(parser *p)
{
    ir_comments comments = take_comments(p, p->tok.start);
    ir_stmt *s = new_stmt(p, IR_STMT_PASS, &p->tok);
    s->comments = comments;
    if (!parse_stmt_inner(p, s)) {
        p->prev_opaque = 0;
        return NULL;
    }
    span_finish(p, &s->span);
    p->prev_opaque = s->kind == IR_STMT_OPAQUE;
    return s;
}

/* After an error: skip the rest of the statement and resynchronise. */
static void recover(parser *p)
{
    p->panic = 0;
    skip_statement(p);
    p->panic = 0;
}

static ir_block parse_block(parser *p)
{
    ir_block b = {NULL, 0};
    if (p->panic)
        return b;
    if (!enter(p))
        return b;
    size_t base = p->sp;
    if (p->tok.kind != TK_NEWLINE) {
        /* One-line suite: "def f(...): ..." (ruff), "if c: pass". Python
         * allows only simple statements there. */
        static const int compound[] = {LEX_KW_IF, LEX_KW_FOR, LEX_KW_WHILE, LEX_KW_WITH,
                                       LEX_KW_DEF, LEX_KW_CLASS, LEX_KW_TRY, LEX_KW_ELSE,
                                       LEX_KW_ELIF, LEX_KW_EXCEPT, LEX_KW_FINALLY,
                                       LEX_KW_ASYNC};
        int bad = p->tok.kind == TK_AT || p->tok.kind == TK_INDENT;
        for (size_t i = 0; i < sizeof compound / sizeof compound[0]; i++)
            bad |= is_kw(&p->tok, compound[i]);
        if (bad) {
            perr_at(p, &p->tok, "expected a new line and an indented block after ':'");
            leave(p);
            return b;
        }
        ir_stmt *s = parse_stmt(p);
        if (s)
            spush(p, s);
    } else {
        advance(p);
        if (p->tok.kind != TK_INDENT) {
            if (!p->panic)
                perr_at(p, &p->tok, "expected an indented block");
            p->sp = base;
            leave(p);
            return b;
        }
        advance(p);
        while (p->tok.kind != TK_DEDENT && p->tok.kind != TK_EOF && !p->stop) {
            if (p->tok.kind == TK_INDENT) {
                perr_at(p, &p->tok, "unexpected indent");
                recover(p);
                continue;
            }
            ir_stmt *s = parse_stmt(p);
            if (s)
                spush(p, s);
            else
                recover(p);
        }
        if (p->tok.kind == TK_DEDENT)
            advance(p);
    }
    b.items = (ir_stmt **)spop_array(p, base, &b.n);
    leave(p);
    return b;
}

/* ---- functions and the program ---------------------------------------------- */

static const char *enum_tail(const ir_expr *e)
{
    /* pl.FunctionType.AIV -> "AIV" */
    return e && e->kind == IR_EXPR_ATTR ? e->u.attr.name->text : NULL;
}

static void decode_decorator(ir_func *f)
{
    const ir_expr *d = f->decorator;
    f->auto_scope = -1;
    if (!d || d->kind != IR_EXPR_CALL)
        return;
    for (uint32_t i = 0; i < d->u.call.nkwargs; i++) {
        const ir_kwarg *k = &d->u.call.kwargs[i];
        const char *n = k->name->text;
        if (strcmp(n, "type") == 0)
            f->type_name = enum_tail(k->value);
        else if (strcmp(n, "level") == 0)
            f->level_name = enum_tail(k->value);
        else if (strcmp(n, "role") == 0)
            f->role_name = enum_tail(k->value);
        else if (strcmp(n, "auto_scope") == 0 && k->value->kind == IR_EXPR_BOOL)
            f->auto_scope = k->value->u.boolean;
        else if (strcmp(n, "external_source") == 0 && k->value->kind == IR_EXPR_STRING)
            f->external_source = k->value;
    }
}

static void decode_param(ir_param *pr)
{
    ir_expr *a = pr->annot;
    pr->type = a;
    pr->dir = IR_DIR_IN;
    if (a && a->kind == IR_EXPR_SUBSCRIPT && a->u.sub.n == 1 &&
        a->u.sub.value->kind == IR_EXPR_ATTR) {
        const ir_expr *h = a->u.sub.value;
        uint32_t id = h->u.attr.name->id;
        if ((id == LEX_KW_OUT || id == LEX_KW_INOUT) && h->u.attr.value->kind == IR_EXPR_NAME) {
            pr->dir = id == LEX_KW_OUT ? IR_DIR_OUT : IR_DIR_INOUT;
            pr->type = a->u.sub.items[0];
        }
    }
}

static int parse_params(parser *p, ir_func *f)
{
    size_t base = p->sp;
    int first = 1;
    while (p->tok.kind != TK_RPAR) {
        if (p->tok.kind != TK_NAME || p->tok.sym->id < LEX_KEYWORD_COUNT) {
            perr_unexpected(p, "a parameter name");
            goto fail;
        }
        lex_token name = p->tok;
        advance(p);
        ir_expr *annot = NULL;
        if (p->tok.kind == TK_COLON) {
            advance(p);
            if (!(annot = parse_expr(p)))
                goto fail;
        }
        if (p->tok.kind == TK_ASSIGN) {
            perr_at(p, &p->tok, "default parameter values are not supported");
            goto fail;
        }
        if (first && !annot && name.sym->id == LEX_KW_SELF) {
            f->has_self = 1;
        } else {
            ir_param *pr = ir_arena_alloc(p->a, sizeof *pr);
            span_begin(&pr->span, &name);
            span_finish(p, &pr->span);
            pr->name = name.sym;
            pr->annot = annot;
            pr->slot = -1;
            decode_param(pr);
            spush(p, pr);
        }
        first = 0;
        if (p->tok.kind != TK_COMMA)
            break;
        advance(p);
    }
    uint32_t n;
    ir_param **pp = (ir_param **)spop_array(p, base, &n);
    f->nparams = n;
    f->params = ir_arena_alloc(p->a, (n ? n : 1) * sizeof *f->params);
    for (uint32_t i = 0; i < n; i++)
        f->params[i] = *pp[i];
    return expect(p, TK_RPAR, "')' or ','");
fail:
    p->sp = base;
    return 0;
}

static ir_expr *parse_decorator(parser *p)
{
    advance(p); /* @ */
    ir_expr *d = parse_expr(p);
    if (!d)
        return NULL;
    if (p->tok.kind != TK_NEWLINE) {
        perr_unexpected(p, "end of line after the decorator");
        return NULL;
    }
    advance(p);
    return d;
}

static ir_func *parse_function(parser *p)
{
    ir_func *f = ir_arena_alloc(p->a, sizeof *f);
    f->comments = take_comments(p, p->tok.start);
    span_begin(&f->span, &p->tok);
    f->auto_scope = -1;
    if (p->tok.kind == TK_AT) {
        if (!(f->decorator = parse_decorator(p)))
            return NULL;
        decode_decorator(f);
    }
    if (!is_kw(&p->tok, LEX_KW_DEF)) {
        perr_unexpected(p, "'def'");
        return NULL;
    }
    advance(p);
    if (p->tok.kind != TK_NAME || p->tok.sym->id < LEX_KEYWORD_COUNT) {
        perr_unexpected(p, "a function name");
        return NULL;
    }
    f->name = p->tok.sym;
    span_begin(&f->name_span, &p->tok);
    advance(p);
    if (!expect(p, TK_LPAR, "'('") || !parse_params(p, f))
        return NULL;
    if (p->tok.kind == TK_ARROW) {
        advance(p);
        if (!(f->ret_annot = parse_expr(p)))
            return NULL;
        ir_expr *r = f->ret_annot;
        if (r->kind == IR_EXPR_SUBSCRIPT && r->u.sub.value->kind == IR_EXPR_NAME &&
            r->u.sub.value->u.name->id == LEX_KW_TUPLE) {
            f->rets = r->u.sub.items;
            f->nrets = r->u.sub.n;
        } else {
            f->rets = ir_arena_alloc(p->a, sizeof(ir_expr *));
            f->rets[0] = r;
            f->nrets = 1;
        }
    }
    if (!expect(p, TK_COLON, "':'"))
        return NULL;
    f->body = parse_block(p);
    if (p->panic)
        return NULL;
    if (f->body.n && f->body.items[0]->kind == IR_STMT_FUNC_ATTR)
        f->func_attr = f->body.items[0]->u.expr.arg;
    span_finish(p, &f->span);
    return f;
}

static int is_pl_attr(const ir_expr *e, uint32_t id)
{
    return e && e->kind == IR_EXPR_ATTR && e->u.attr.name->id == id &&
           e->u.attr.value->kind == IR_EXPR_NAME && e->u.attr.value->u.name->id == LEX_KW_PL;
}

static ir_program *parse_program(parser *p)
{
    ir_program *prog = ir_arena_alloc(p->a, sizeof *prog);
    prog->comments = take_comments(p, p->tok.start);
    span_begin(&prog->span, &p->tok);
    lex_token at = p->tok;
    ir_expr *d = parse_decorator(p);
    if (!d)
        return NULL;
    if (!is_pl_attr(d, LEX_KW_PROGRAM)) {
        perr_at(p, &at, "expected '@pl.program' before the program class");
        return NULL;
    }
    if (!is_kw(&p->tok, LEX_KW_CLASS)) {
        perr_unexpected(p, "'class'");
        return NULL;
    }
    advance(p);
    if (p->tok.kind != TK_NAME || p->tok.sym->id < LEX_KEYWORD_COUNT) {
        perr_unexpected(p, "the program class name");
        return NULL;
    }
    prog->name = p->tok.sym;
    advance(p);
    if (p->tok.kind == TK_LPAR) {
        advance(p);
        if (!expect(p, TK_RPAR, "')'"))
            return NULL;
    }
    if (!expect(p, TK_COLON, "':'") || !expect(p, TK_NEWLINE, "end of line"))
        return NULL;
    if (p->tok.kind != TK_INDENT) {
        perr_at(p, &p->tok, "expected an indented block");
        return NULL;
    }
    advance(p);
    if (!enter(p))
        return NULL;
    size_t base = p->sp;
    while (p->tok.kind != TK_DEDENT && p->tok.kind != TK_EOF && !p->stop) {
        if (p->tok.kind == TK_AT || is_kw(&p->tok, LEX_KW_DEF)) {
            ir_func *f = parse_function(p);
            if (f)
                spush(p, f);
            else
                recover(p);
            continue;
        }
        if (p->tok.kind == TK_INDENT)
            perr_at(p, &p->tok, "unexpected indent");
        else
            perr_unexpected(p, "a '@pl.function' method");
        recover(p);
    }
    leave(p);
    prog->funcs = (ir_func **)spop_array(p, base, &prog->nfuncs);
    /* Comments before the class's end belong after the last function. */
    prog->trailing = take_comments(p, p->tok.start);
    if (p->tok.kind == TK_DEDENT)
        advance(p);
    span_finish(p, &prog->span);
    return prog;
}

static int parse_import(parser *p)
{
    ir_module *m = p->m;
    span_begin(&m->import_span, &p->tok);
    if (is_kw(&p->tok, LEX_KW_IMPORT)) {
        advance(p);
        if (!is_kw(&p->tok, LEX_KW_PYPTO)) {
            perr_unexpected(p, "'pypto'");
            return 0;
        }
        advance(p);
        if (!expect(p, TK_DOT, "'.'"))
            return 0;
        if (!is_kw(&p->tok, LEX_KW_LANGUAGE)) {
            perr_unexpected(p, "'language'");
            return 0;
        }
        advance(p);
    } else {
        m->from_import = 1;
        advance(p);
        if (!is_kw(&p->tok, LEX_KW_PYPTO)) {
            perr_unexpected(p, "'pypto'");
            return 0;
        }
        advance(p);
        if (!is_kw(&p->tok, LEX_KW_IMPORT)) {
            perr_unexpected(p, "'import'");
            return 0;
        }
        advance(p);
        if (!is_kw(&p->tok, LEX_KW_LANGUAGE)) {
            perr_unexpected(p, "'language'");
            return 0;
        }
        advance(p);
    }
    if (!is_kw(&p->tok, LEX_KW_AS)) {
        perr_unexpected(p, "'as'");
        return 0;
    }
    advance(p);
    if (p->tok.kind != TK_NAME || p->tok.sym->id < LEX_KEYWORD_COUNT) {
        perr_unexpected(p, "a module alias");
        return 0;
    }
    m->prefix = p->tok.sym;
    advance(p);
    span_finish(p, &m->import_span);
    return end_simple(p);
}

/* NAME = pl.dynamic("NAME") */
static int parse_dyn(parser *p, ir_dyn **dyns, uint32_t *n, uint32_t *cap)
{
    lex_token name = p->tok;
    advance(p);
    if (!expect(p, TK_ASSIGN, "'=' (a pl.dynamic declaration)"))
        return 0;
    lex_token vt = p->tok;
    ir_expr *v = parse_expr(p);
    if (!v)
        return 0;
    if (!is_pl_call(v, LEX_KW_DYNAMIC) || v->u.call.nargs != 1 ||
        v->u.call.args[0]->kind != IR_EXPR_STRING || v->u.call.nkwargs) {
        perr_at(p, &vt, "expected pl.dynamic(\"%.60s\") at top level", name.sym->text);
        return 0;
    }
    if (*n == *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 8;
        ir_dyn *nd = ir_arena_alloc(p->a, ncap * sizeof *nd);
        if (*n)
            memcpy(nd, *dyns, *n * sizeof *nd);
        *dyns = nd;
        *cap = ncap;
    }
    ir_dyn *d = &(*dyns)[(*n)++];
    span_begin(&d->span, &name);
    span_finish(p, &d->span);
    d->name = name.sym;
    d->declared = 1;
    return end_simple(p);
}

static void parse_module(parser *p)
{
    ir_module *m = p->m;
    ir_dyn *dyns = NULL;
    uint32_t ndyns = 0, dcap = 0;
    int seen_import = 0;
    advance(p);
    m->comments = take_comments(p, p->tok.start);
    while (p->tok.kind != TK_EOF && !p->stop) {
        int ok = 1;
        if (p->tok.kind == TK_NEWLINE || p->tok.kind == TK_DEDENT) {
            advance(p); /* DEDENT here only follows lexical errors */
            continue;
        }
        if (p->tok.kind == TK_INDENT) {
            perr_at(p, &p->tok, "unexpected indent");
            ok = 0;
        } else if (m->program) {
            perr_unexpected(p, "end of file after the program class");
            ok = 0;
        } else if (!seen_import && (is_kw(&p->tok, LEX_KW_IMPORT) || is_kw(&p->tok, LEX_KW_FROM))) {
            seen_import = 1;
            ok = parse_import(p);
        } else if (p->tok.kind == TK_NAME && p->tok.sym->id >= LEX_KEYWORD_COUNT) {
            ir_comments c = take_comments(p, p->tok.start);
            if (c.n && !m->dyn_comments.n)
                m->dyn_comments = c;
            ok = parse_dyn(p, &dyns, &ndyns, &dcap);
        } else if (p->tok.kind == TK_AT) {
            m->program = parse_program(p);
            ok = m->program != NULL;
        } else {
            perr_unexpected(p, "the import line, a pl.dynamic declaration or '@pl.program'");
            ok = 0;
        }
        if (!ok) {
            recover(p);
            if (p->tok.kind == TK_INDENT) {
                /* Skip a stray block as a whole. */
                int level = 0;
                do {
                    if (p->tok.kind == TK_INDENT)
                        level++;
                    else if (p->tok.kind == TK_DEDENT)
                        level--;
                    advance(p);
                } while (level > 0 && p->tok.kind != TK_EOF);
                p->panic = 0;
            }
        }
    }
    if (m->program) {
        m->program->dyns = dyns;
        m->program->ndyns = ndyns;
        m->program->ndeclared_dyns = ndyns;
    } else if (!p->errors) {
        lex_token t = p->tok;
        perr_at(p, &t, "no '@pl.program' class in the file");
    }
    m->trailing = take_comments(p, UINT32_MAX);
}

/* ---- entry points -------------------------------------------------------------- */

ir_module *ir_parse(const char *path, const char *src, size_t len, diag_sink *sink,
                    ptodb_status *status)
{
    ir_arena *a = ir_arena_new();
    ir_module *m = ir_arena_alloc(a, sizeof *m);
    m->arena = a;
    m->path = ir_arena_strndup(a, path ? path : "<input>", strlen(path ? path : "<input>"));
    if (len > UINT32_MAX - 16) {
        diag_report(sink, DIAG_ERROR, (diag_loc){m->path, 0, 0}, NULL,
                    "file too large (%zu bytes)", len);
        *status = PTODB_ERR_SYNTAX;
        m->src = "";
        return m;
    }
    m->src = ir_arena_strndup(a, src, len);
    m->src_len = (uint32_t)len;

    parser *p = xcalloc(1, sizeof *p);
    p->m = m;
    p->a = a;
    p->sink = sink;
    p->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    size_t errors_before = sink->errors, first = sink->count;
    lex_init(&p->lx, m->src, m->src_len, a, m->path, sink);
    parse_module(p);
    /* The errors in the order the parser met them, but a bracket the lexer
     * finds never closed only at the end of the file, opened on a line
     * before the first error, is that error's root cause (the next line
     * went on inside the bracket): it comes first, as CPython reports it. */
    if (p->lx.unclosed_diag > first + 1) {
        size_t u = p->lx.unclosed_diag - 1;
        if (sink->items[u].line < sink->items[first].line)
            diag_sink_move(sink, u, first);
    }
    m->nsyms = p->lx.names.count;
    int failed = sink->errors > errors_before || p->errors;
    lex_free(&p->lx);
    free(p->stack);
    if (p->c_locale)
        freelocale(p->c_locale);
    free(p);
    *status = failed ? PTODB_ERR_SYNTAX : PTODB_OK;
    return m;
}

static ir_module *parse_file_text(const char *path, diag_sink *sink, ptodb_status *status)
{
    char why[300];
    size_t len;
    char *text = file_read_all_why(path, &len, why, sizeof why);
    if (!text) {
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "%s", why);
        *status = PTODB_ERR_IO;
        return NULL;
    }
    ir_module *m = ir_parse(path, text, len, sink, status);
    free(text);
    return m;
}

ir_module *ir_parse_file(const char *path, diag_sink *sink, ptodb_status *status)
{
    int where = mem_where_push("parsing", path);
    ir_module *result = parse_file_text(path, sink, status);
    mem_where_pop(where);
    return result;
}

void ir_module_free(ir_module *m)
{
    if (m)
        ir_arena_free(m->arena);
}
