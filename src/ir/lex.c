#include "ir/lex.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"

static const char *const predefined[] = {
#define LEX_PREDEF_TEXT(id, text) text,
    LEX_PREDEFINED_LIST(LEX_PREDEF_TEXT)
#undef LEX_PREDEF_TEXT
};

/* ---- interning ---------------------------------------------------------- */

static uint32_t hash_bytes(const char *s, uint32_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a: short identifiers, good enough */
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void interner_grow(lex_interner *in)
{
    uint32_t ncap = in->cap ? in->cap * 2 : 1024;
    ir_sym **slots = xcalloc(ncap, sizeof *slots);
    for (uint32_t i = 0; i < in->cap; i++) {
        ir_sym *s = in->slots[i];
        if (!s)
            continue;
        uint32_t h = hash_bytes(s->text, s->len) & (ncap - 1);
        while (slots[h])
            h = (h + 1) & (ncap - 1);
        slots[h] = s;
    }
    free(in->slots);
    in->slots = slots;
    in->cap = ncap;
}

ir_sym *lex_intern(lexer *lx, const char *s, uint32_t len)
{
    lex_interner *in = &lx->names;
    if ((in->count + 1) * 2 > in->cap)
        interner_grow(in);
    uint32_t h = hash_bytes(s, len) & (in->cap - 1);
    for (;;) {
        ir_sym *e = in->slots[h];
        if (!e)
            break;
        if (e->len == len && memcmp(e->text, s, len) == 0)
            return e;
        h = (h + 1) & (in->cap - 1);
    }
    ir_sym *sym = ir_arena_alloc(lx->arena, sizeof *sym);
    sym->text = ir_arena_strndup(lx->arena, s, len);
    sym->len = len;
    sym->id = in->count++;
    in->slots[h] = sym;
    return sym;
}

/* ---- errors --------------------------------------------------------------- */

void lex_error_at(lexer *lx, uint32_t offset, uint32_t line, uint32_t line_start,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_loc loc = {lx->path, (int)line, (int)(offset - line_start + 1)};
    diag_vreport(lx->sink, DIAG_ERROR, loc, lx->src + line_start, fmt, ap);
    va_end(ap);
    lx->errors++;
}

#define LEX_ERROR(lx, off, ...) lex_error_at(lx, off, (lx)->line, (lx)->line_start, __VA_ARGS__)

/* ---- setup ---------------------------------------------------------------- */

void lex_init(lexer *lx, const char *src, uint32_t len, ir_arena *arena, const char *path,
              diag_sink *sink)
{
    memset(lx, 0, sizeof *lx);
    lx->src = src;
    lx->len = len;
    lx->line = 1;
    lx->at_line_start = 1;
    lx->emitted_newline = 1;
    lx->nindent = 1; /* indent[0] = 0 */
    lx->arena = arena;
    lx->path = path;
    lx->sink = sink;
    for (int i = 0; i < LEX_PREDEFINED_COUNT; i++)
        lex_intern(lx, predefined[i], (uint32_t)strlen(predefined[i]));
}

void lex_free(lexer *lx)
{
    free(lx->names.slots);
    free(lx->comments);
    lx->names.slots = NULL;
    lx->comments = NULL;
}

/* ---- helpers ---------------------------------------------------------------- */

int lex_is_name_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

int lex_is_name_char(unsigned char c)
{
    return lex_is_name_start(c) || (c >= '0' && c <= '9');
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static int utf8_len(const unsigned char *s, size_t avail)
{
    unsigned char c = s[0];
    int n;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if ((size_t)n > avail)
        return 0;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

static void newline_advance(lexer *lx, uint32_t after)
{
    lx->line++;
    lx->line_start = after;
}

static void add_comment(lexer *lx, uint32_t hash, uint32_t end, int own_line)
{
    if (lx->ncomments == lx->comments_cap) {
        lx->comments_cap = lx->comments_cap ? lx->comments_cap * 2 : 64;
        lx->comments = xreallocarray(lx->comments, lx->comments_cap, sizeof *lx->comments);
    }
    lex_comment *c = &lx->comments[lx->ncomments++];
    c->span.line = lx->line;
    c->span.col = hash - lx->line_start + 1;
    c->span.start = hash;
    c->span.end = end;
    c->text_start = hash + 1;
    c->text_len = end - hash - 1;
    c->own_line = own_line;
}

/* Scans a comment starting at '#'; validates UTF-8. Returns the end. */
static uint32_t scan_comment(lexer *lx, uint32_t p, int own_line)
{
    const unsigned char *s = (const unsigned char *)lx->src;
    uint32_t hash = p;
    while (p < lx->len && s[p] != '\n' && s[p] != '\r') {
        if (s[p] == 0) {
            LEX_ERROR(lx, p, "NUL byte in source");
            p++;
            continue;
        }
        int n = utf8_len(s + p, lx->len - p);
        if (n == 0) {
            LEX_ERROR(lx, p, "invalid UTF-8 byte 0x%02x in comment", s[p]);
            n = 1;
        }
        p += (uint32_t)n;
    }
    add_comment(lx, hash, p, own_line);
    return p;
}

/* Consumes a line end at p ("\n" or "\r\n" or "\r"); returns the offset after. */
static uint32_t skip_eol(lexer *lx, uint32_t p)
{
    if (lx->src[p] == '\r' && p + 1 < lx->len && lx->src[p + 1] == '\n')
        return p + 2;
    return p + 1;
}

static lex_token make_tok(lexer *lx, lex_kind kind, uint32_t start, uint32_t end)
{
    lex_token t;
    t.kind = kind;
    t.start = start;
    t.end = end;
    t.line = lx->line;
    t.col = start - lx->line_start + 1;
    t.line_start = lx->line_start;
    t.sym = NULL;
    return t;
}

/* At the start of a logical line (bracket depth 0): measures indentation,
 * skips blank and comment-only lines, and queues INDENT/DEDENT. Returns a
 * token to emit now (INDENT, DEDENT, ERROR) or TK_EOF-kind meaning "none". */
static int measure_indent(lexer *lx, lex_token *out)
{
    const char *s = lx->src;
    for (;;) {
        uint32_t p = lx->pos, col = 0, altcol = 0;
        while (p < lx->len && (s[p] == ' ' || s[p] == '\t' || s[p] == '\f')) {
            if (s[p] == ' ') {
                col++;
                altcol++;
            } else if (s[p] == '\t') {
                col = (col / 8 + 1) * 8;
                altcol++;
            } else {
                col = altcol = 0;
            }
            p++;
        }
        if (p >= lx->len) {
            lx->pos = p;
            return 0; /* EOF: handled by the caller */
        }
        if (s[p] == '#') {
            p = scan_comment(lx, p, 1);
            if (p < lx->len)
                p = skip_eol(lx, p), newline_advance(lx, p);
            lx->pos = p;
            continue;
        }
        if (s[p] == '\n' || s[p] == '\r') {
            p = skip_eol(lx, p);
            newline_advance(lx, p);
            lx->pos = p;
            continue;
        }
        lx->pos = p;
        lx->at_line_start = 0;
        int top = lx->nindent - 1;
        if (col == lx->indent[top]) {
            if (altcol != lx->altindent[top]) {
                LEX_ERROR(lx, p, "inconsistent use of tabs and spaces in indentation");
                *out = make_tok(lx, TK_ERROR, p, p);
                return 1;
            }
            return 0;
        }
        if (col > lx->indent[top]) {
            if (altcol <= lx->altindent[top]) {
                LEX_ERROR(lx, p, "inconsistent use of tabs and spaces in indentation");
                *out = make_tok(lx, TK_ERROR, p, p);
                return 1;
            }
            if (lx->nindent > IR_INDENT_MAX) {
                /* Reported once: every deeper line would repeat it. */
                if (!lx->indent_overflow)
                    LEX_ERROR(lx, p, "too many levels of indentation (more than %d)",
                              IR_INDENT_MAX);
                lx->indent_overflow = 1;
                *out = make_tok(lx, TK_ERROR, p, p);
                return 1;
            }
            lx->indent[lx->nindent] = col;
            lx->altindent[lx->nindent] = altcol;
            lx->nindent++;
            *out = make_tok(lx, TK_INDENT, p, p);
            return 1;
        }
        int n = 0;
        while (lx->nindent > 1 && col < lx->indent[lx->nindent - 1]) {
            lx->nindent--;
            n++;
        }
        if (col != lx->indent[lx->nindent - 1]) {
            LEX_ERROR(lx, p, "unindent does not match any outer indentation level");
            /* Treat the line as being at the enclosing level. */
        } else if (altcol != lx->altindent[lx->nindent - 1]) {
            LEX_ERROR(lx, p, "inconsistent use of tabs and spaces in indentation");
        }
        lx->pending_dedents = n - 1;
        *out = make_tok(lx, TK_DEDENT, p, p);
        return 1;
    }
}

static lex_kind close_kind(char c)
{
    return c == ')' ? TK_RPAR : c == ']' ? TK_RSQB : TK_RBRACE;
}

static char opener_of(char c)
{
    return c == ')' ? '(' : c == ']' ? '[' : '{';
}

static lex_token scan_string(lexer *lx, uint32_t start)
{
    const unsigned char *s = (const unsigned char *)lx->src;
    char q = (char)s[start];
    int triple = start + 2 < lx->len && s[start + 1] == (unsigned char)q &&
                 s[start + 2] == (unsigned char)q;
    uint32_t p = start + (triple ? 3 : 1);
    uint32_t line0 = lx->line, ls0 = lx->line_start;
    for (;;) {
        if (p >= lx->len) {
            lex_error_at(lx, start, line0, ls0, "unterminated %sstring literal",
                         triple ? "triple-quoted " : "");
            lx->pos = p;
            lex_token t = make_tok(lx, TK_ERROR, start, p);
            t.line = line0;
            t.line_start = ls0;
            t.col = start - ls0 + 1;
            return t;
        }
        unsigned char c = s[p];
        if (c == (unsigned char)q) {
            if (!triple) {
                p++;
                break;
            }
            if (p + 2 < lx->len && s[p + 1] == (unsigned char)q && s[p + 2] == (unsigned char)q) {
                p += 3;
                break;
            }
            p++;
            continue;
        }
        if (c == '\n' || c == '\r') {
            if (!triple) {
                lex_error_at(lx, start, line0, ls0, "unterminated string literal");
                lx->pos = p;
                lex_token t = make_tok(lx, TK_ERROR, start, p);
                return t;
            }
            p = skip_eol(lx, p);
            newline_advance(lx, p);
            continue;
        }
        if (c == '\\' && p + 1 < lx->len) {
            if (s[p + 1] == '\n' || s[p + 1] == '\r') {
                p = skip_eol(lx, p + 1);
                newline_advance(lx, p);
            } else {
                p += 2;
            }
            continue;
        }
        if (c == 0) {
            LEX_ERROR(lx, p, "NUL byte in source");
            lx->pos = p + 1;
            return make_tok(lx, TK_ERROR, start, p + 1);
        }
        int n = utf8_len(s + p, lx->len - p);
        if (n == 0) {
            LEX_ERROR(lx, p, "invalid UTF-8 byte 0x%02x in string", c);
            lx->pos = p + 1;
            return make_tok(lx, TK_ERROR, start, p + 1);
        }
        p += (uint32_t)n;
    }
    lx->pos = p;
    lex_token t = make_tok(lx, TK_STRING, start, p);
    t.line = line0;
    t.line_start = ls0;
    t.col = start - ls0 + 1;
    return t;
}

static int is_string_prefix(const char *s, uint32_t n)
{
    int r = 0, b = 0, f = 0, u = 0;
    for (uint32_t i = 0; i < n; i++) {
        char c = (char)(s[i] | 0x20);
        if (c == 'r')
            r++;
        else if (c == 'b')
            b++;
        else if (c == 'f')
            f++;
        else if (c == 'u')
            u++;
        else
            return 0;
    }
    return r <= 1 && b + f + u <= 1 && !(u && r);
}

/* Python number forms the printer never writes: prefixed, underscored or
 * imaginary. Returns the end, or 0 when the number is a plain one. */
static uint32_t scan_other_number(const lexer *lx, uint32_t start)
{
    const unsigned char *s = (const unsigned char *)lx->src;
    uint32_t p = start;
    int other = 0;
    if (s[p] == '0' && p + 1 < lx->len &&
        ((s[p + 1] | 0x20) == 'x' || (s[p + 1] | 0x20) == 'o' || (s[p + 1] | 0x20) == 'b')) {
        p += 2;
        while (p < lx->len && (lex_is_name_char(s[p])))
            p++;
        return p;
    }
    while (p < lx->len) {
        unsigned char c = s[p];
        if (is_digit(c) || c == '.') {
            p++;
        } else if (c == '_' && p + 1 < lx->len && is_digit(s[p + 1]) && p > start &&
                   is_digit(s[p - 1])) {
            other = 1;
            p++;
        } else if ((c | 0x20) == 'e' && p + 1 < lx->len &&
                   (is_digit(s[p + 1]) ||
                    ((s[p + 1] == '+' || s[p + 1] == '-') && p + 2 < lx->len && is_digit(s[p + 2])))) {
            p += 2;
        } else if ((c | 0x20) == 'j') {
            other = 1;
            p++;
            break;
        } else {
            break;
        }
    }
    if (p < lx->len && lex_is_name_char(s[p]))
        return 0; /* reported as an invalid literal by scan_number */
    return other ? p : 0;
}

static lex_token scan_number(lexer *lx, uint32_t start)
{
    const unsigned char *s = (const unsigned char *)lx->src;
    uint32_t p = start;
    int is_float = 0;
    uint32_t other = scan_other_number(lx, start);
    if (other) {
        lx->pos = other;
        return make_tok(lx, TK_OTHER_NUMBER, start, other);
    }
    while (p < lx->len && is_digit(s[p]))
        p++;
    if (p < lx->len && s[p] == '.' && !(p + 1 < lx->len && s[p + 1] == '.')) {
        is_float = 1;
        p++;
        while (p < lx->len && is_digit(s[p]))
            p++;
    }
    if (p < lx->len && (s[p] == 'e' || s[p] == 'E')) {
        uint32_t q = p + 1;
        if (q < lx->len && (s[q] == '+' || s[q] == '-'))
            q++;
        if (q < lx->len && is_digit(s[q])) {
            while (q < lx->len && is_digit(s[q]))
                q++;
            p = q;
            is_float = 1;
        }
    }
    if (p < lx->len && lex_is_name_char(s[p])) {
        LEX_ERROR(lx, start, "invalid number literal");
        while (p < lx->len && lex_is_name_char(s[p]))
            p++;
        lx->pos = p;
        return make_tok(lx, TK_ERROR, start, p);
    }
    lx->pos = p;
    return make_tok(lx, is_float ? TK_FLOAT : TK_INT, start, p);
}

static lex_token op_tok(lexer *lx, lex_kind k, uint32_t start, uint32_t n)
{
    lx->pos = start + n;
    return make_tok(lx, k, start, start + n);
}

static lex_token scan_operator(lexer *lx, uint32_t p)
{
    const char *s = lx->src;
    char c = s[p], c1 = p + 1 < lx->len ? s[p + 1] : '\0', c2 = p + 2 < lx->len ? s[p + 2] : '\0';
    switch (c) {
    case '(':
    case '[':
    case '{': {
        if (lx->depth < LEX_BRACKET_MAX) {
            lx->bracket[lx->depth] = c;
            lx->bracket_pos[lx->depth] = p;
            lx->bracket_line[lx->depth] = lx->line;
            lx->bracket_line_start[lx->depth] = lx->line_start;
        }
        lx->depth++;
        return op_tok(lx, c == '(' ? TK_LPAR : c == '[' ? TK_LSQB : TK_LBRACE, p, 1);
    }
    case ')':
    case ']':
    case '}':
        if (lx->depth == 0) {
            LEX_ERROR(lx, p, "unmatched '%c'", c);
            lx->pos = p + 1;
            return make_tok(lx, TK_ERROR, p, p + 1);
        }
        lx->depth--;
        if (lx->depth < LEX_BRACKET_MAX && lx->bracket[lx->depth] != opener_of(c)) {
            LEX_ERROR(lx, p, "closing bracket '%c' does not match opening bracket '%c' on line %u",
                      c, lx->bracket[lx->depth], lx->bracket_line[lx->depth]);
            lx->pos = p + 1;
            return make_tok(lx, TK_ERROR, p, p + 1);
        }
        return op_tok(lx, close_kind(c), p, 1);
    case ':':
        return c1 == '=' ? op_tok(lx, TK_WALRUS, p, 2) : op_tok(lx, TK_COLON, p, 1);
    case ',': return op_tok(lx, TK_COMMA, p, 1);
    case ';': return op_tok(lx, TK_SEMI, p, 1);
    case '.':
        if (c1 == '.' && c2 == '.')
            return op_tok(lx, TK_ELLIPSIS, p, 3);
        return op_tok(lx, TK_DOT, p, 1);
    case '@': return c1 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 2) : op_tok(lx, TK_AT, p, 1);
    case '=': return c1 == '=' ? op_tok(lx, TK_EQEQ, p, 2) : op_tok(lx, TK_ASSIGN, p, 1);
    case '!':
        if (c1 == '=')
            return op_tok(lx, TK_NE, p, 2);
        break;
    case '+': return c1 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 2) : op_tok(lx, TK_PLUS, p, 1);
    case '-':
        if (c1 == '>')
            return op_tok(lx, TK_ARROW, p, 2);
        return c1 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 2) : op_tok(lx, TK_MINUS, p, 1);
    case '*':
        if (c1 == '*')
            return c2 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 3) : op_tok(lx, TK_DSTAR, p, 2);
        return c1 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 2) : op_tok(lx, TK_STAR, p, 1);
    case '/':
        if (c1 == '/')
            return c2 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 3) : op_tok(lx, TK_DSLASH, p, 2);
        return c1 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 2) : op_tok(lx, TK_SLASH, p, 1);
    case '%': return c1 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 2) : op_tok(lx, TK_PERCENT, p, 1);
    case '&': return c1 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 2) : op_tok(lx, TK_AMP, p, 1);
    case '|': return c1 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 2) : op_tok(lx, TK_VBAR, p, 1);
    case '^': return c1 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 2) : op_tok(lx, TK_CARET, p, 1);
    case '~': return op_tok(lx, TK_TILDE, p, 1);
    case '<':
        if (c1 == '<')
            return c2 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 3) : op_tok(lx, TK_LSHIFT, p, 2);
        return c1 == '=' ? op_tok(lx, TK_LE, p, 2) : op_tok(lx, TK_LT, p, 1);
    case '>':
        if (c1 == '>')
            return c2 == '=' ? op_tok(lx, TK_AUGASSIGN, p, 3) : op_tok(lx, TK_RSHIFT, p, 2);
        return c1 == '=' ? op_tok(lx, TK_GE, p, 2) : op_tok(lx, TK_GT, p, 1);
    default: break;
    }
    unsigned char u = (unsigned char)c;
    if (u == 0) {
        LEX_ERROR(lx, p, "NUL byte in source");
    } else if (u >= 0x80) {
        int n = utf8_len((const unsigned char *)s + p, lx->len - p);
        if (n == 0)
            LEX_ERROR(lx, p, "invalid UTF-8 byte 0x%02x", u);
        else
            LEX_ERROR(lx, p, "invalid non-ASCII character outside a string or comment");
        lx->pos = p + (n ? (uint32_t)n : 1);
        return make_tok(lx, TK_ERROR, p, lx->pos);
    } else if (u < 0x20 || u == 0x7f) {
        LEX_ERROR(lx, p, "invalid control character 0x%02x", u);
    } else {
        LEX_ERROR(lx, p, "invalid character '%c'", c);
    }
    lx->pos = p + 1;
    return make_tok(lx, TK_ERROR, p, p + 1);
}

lex_token lex_next(lexer *lx)
{
    const char *s = lx->src;
    lex_token t;
restart:
    if (lx->pending_dedents > 0) {
        lx->pending_dedents--;
        return make_tok(lx, TK_DEDENT, lx->pos, lx->pos);
    }
    if (lx->at_line_start && lx->depth == 0) {
        if (measure_indent(lx, &t)) {
            lx->emitted_newline = 0;
            return t;
        }
    }
    for (;;) {
        uint32_t p = lx->pos;
        while (p < lx->len && (s[p] == ' ' || s[p] == '\t' || s[p] == '\f'))
            p++;
        lx->pos = p;
        if (p >= lx->len) {
            if (lx->depth > 0) {
                uint32_t d = lx->depth <= LEX_BRACKET_MAX ? lx->depth - 1 : LEX_BRACKET_MAX - 1;
                if (!lx->eof_done) {
                    size_t before = lx->sink->count;
                    lex_error_at(lx, lx->bracket_pos[d], lx->bracket_line[d],
                                 lx->bracket_line_start[d], "'%c' was never closed",
                                 lx->bracket[d]);
                    if (lx->sink->count > before)
                        lx->unclosed_diag = before + 1;
                }
                lx->depth = 0;
                lx->eof_done = 1;
                return make_tok(lx, TK_ERROR, p, p);
            }
            if (!lx->emitted_newline) {
                lx->emitted_newline = 1;
                return make_tok(lx, TK_NEWLINE, p, p);
            }
            if (lx->nindent > 1) {
                lx->nindent--;
                return make_tok(lx, TK_DEDENT, p, p);
            }
            lx->eof_done = 1;
            return make_tok(lx, TK_EOF, p, p);
        }
        unsigned char c = (unsigned char)s[p];
        if (c == '#') {
            lx->pos = scan_comment(lx, p, 0);
            continue;
        }
        if (c == '\n' || c == '\r') {
            uint32_t after = skip_eol(lx, p);
            if (lx->depth > 0) {
                newline_advance(lx, after);
                lx->pos = after;
                continue; /* implicit line joining */
            }
            t = make_tok(lx, TK_NEWLINE, p, after);
            newline_advance(lx, after);
            lx->pos = after;
            lx->at_line_start = 1;
            if (lx->emitted_newline)
                goto restart; /* blank logical line (after a continuation) */
            lx->emitted_newline = 1;
            return t;
        }
        if (c == '\\') {
            if (p + 1 < lx->len && (s[p + 1] == '\n' || s[p + 1] == '\r')) {
                uint32_t after = skip_eol(lx, p + 1);
                newline_advance(lx, after);
                lx->pos = after;
                if (after >= lx->len) {
                    LEX_ERROR(lx, p, "unexpected end of file after line continuation");
                    return make_tok(lx, TK_ERROR, p, after);
                }
                continue;
            }
            LEX_ERROR(lx, p, "unexpected character after line continuation character");
            lx->pos = p + 1;
            return make_tok(lx, TK_ERROR, p, p + 1);
        }
        lx->emitted_newline = 0;
        if (lex_is_name_start(c)) {
            uint32_t q = p + 1;
            while (q < lx->len && lex_is_name_char((unsigned char)s[q]))
                q++;
            if (q < lx->len && (s[q] == '"' || s[q] == '\'') && q - p <= 2 &&
                is_string_prefix(s + p, q - p)) {
                /* r"...", b'...', f"..." (verbatim Python bodies only). */
                t = scan_string(lx, q);
                t.start = p;
                t.col = p - t.line_start + 1;
                return t;
            }
            t = make_tok(lx, TK_NAME, p, q);
            t.sym = lex_intern(lx, s + p, q - p);
            lx->pos = q;
            return t;
        }
        if (is_digit(c) || (c == '.' && p + 1 < lx->len && is_digit((unsigned char)s[p + 1])))
            return scan_number(lx, p);
        if (c == '"' || c == '\'')
            return scan_string(lx, p);
        return scan_operator(lx, p);
    }
}

const char *lex_kind_name(lex_kind kind)
{
    static const char *const names[TK_KIND_COUNT] = {
        [TK_EOF] = "end of file", [TK_NEWLINE] = "end of line", [TK_INDENT] = "indent",
        [TK_DEDENT] = "dedent", [TK_NAME] = "name", [TK_INT] = "integer", [TK_FLOAT] = "float",
        [TK_STRING] = "string", [TK_OTHER_NUMBER] = "number", [TK_ERROR] = "invalid token", [TK_LPAR] = "'('",
        [TK_RPAR] = "')'", [TK_LSQB] = "'['", [TK_RSQB] = "']'", [TK_LBRACE] = "'{'",
        [TK_RBRACE] = "'}'", [TK_COLON] = "':'", [TK_COMMA] = "','", [TK_DOT] = "'.'",
        [TK_SEMI] = "';'", [TK_ELLIPSIS] = "'...'", [TK_AT] = "'@'", [TK_ARROW] = "'->'",
        [TK_ASSIGN] = "'='", [TK_AUGASSIGN] = "augmented assignment", [TK_WALRUS] = "':='",
        [TK_PLUS] = "'+'", [TK_MINUS] = "'-'", [TK_STAR] = "'*'", [TK_SLASH] = "'/'",
        [TK_DSLASH] = "'//'", [TK_PERCENT] = "'%'", [TK_DSTAR] = "'**'", [TK_LSHIFT] = "'<<'",
        [TK_RSHIFT] = "'>>'", [TK_AMP] = "'&'", [TK_VBAR] = "'|'", [TK_CARET] = "'^'",
        [TK_TILDE] = "'~'", [TK_LT] = "'<'", [TK_GT] = "'>'", [TK_LE] = "'<='",
        [TK_GE] = "'>='", [TK_EQEQ] = "'=='", [TK_NE] = "'!='",
    };
    return (unsigned)kind < TK_KIND_COUNT && names[kind] ? names[kind] : "token";
}
