#include "base/jsonread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"

enum { MAX_DEPTH = 256 };

typedef struct parser {
    const char *s;
    size_t len, pos;
    char *err;
    size_t errsize;
    int failed;
} parser;

static void fail_at(parser *p, const char *what)
{
    if (p->failed)
        return;
    p->failed = 1;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < p->pos && i < p->len; i++) {
        if (p->s[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    snprintf(p->err, p->errsize, "%zu:%zu: %s", line, col, what);
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len &&
           (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static int peek(const parser *p)
{
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int literal(parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos >= n && memcmp(p->s + p->pos, word, n) == 0) {
        p->pos += n;
        return 1;
    }
    return 0;
}

static int hex4(parser *p, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        int c = peek(p);
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else {
            fail_at(p, "expected 4 hex digits after \\u");
            return -1;
        }
        *v = *v * 16 + d;
        p->pos++;
    }
    return 0;
}

static void put_utf8(strbuf *sb, unsigned cp)
{
    if (cp < 0x80) {
        strbuf_putc(sb, (char)cp);
    } else if (cp < 0x800) {
        strbuf_putc(sb, (char)(0xC0 | (cp >> 6)));
        strbuf_putc(sb, (char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        strbuf_putc(sb, (char)(0xE0 | (cp >> 12)));
        strbuf_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
        strbuf_putc(sb, (char)(0x80 | (cp & 0x3F)));
    } else {
        strbuf_putc(sb, (char)(0xF0 | (cp >> 18)));
        strbuf_putc(sb, (char)(0x80 | ((cp >> 12) & 0x3F)));
        strbuf_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
        strbuf_putc(sb, (char)(0x80 | (cp & 0x3F)));
    }
}

/* At the opening quote. */
static char *parse_string(parser *p)
{
    strbuf sb = STRBUF_INIT;
    p->pos++;
    for (;;) {
        int c = peek(p);
        if (c < 0) {
            fail_at(p, "unterminated string");
            break;
        }
        if (c == '"') {
            p->pos++;
            return strbuf_detach(&sb);
        }
        if (c < 0x20) {
            fail_at(p, "control character in a string");
            break;
        }
        if (c != '\\') {
            strbuf_putc(&sb, (char)c);
            p->pos++;
            continue;
        }
        p->pos++;
        c = peek(p);
        p->pos++;
        switch (c) {
        case '"': strbuf_putc(&sb, '"'); break;
        case '\\': strbuf_putc(&sb, '\\'); break;
        case '/': strbuf_putc(&sb, '/'); break;
        case 'b': strbuf_putc(&sb, '\b'); break;
        case 'f': strbuf_putc(&sb, '\f'); break;
        case 'n': strbuf_putc(&sb, '\n'); break;
        case 'r': strbuf_putc(&sb, '\r'); break;
        case 't': strbuf_putc(&sb, '\t'); break;
        case 'u': {
            unsigned cp, lo;
            if (hex4(p, &cp) != 0)
                goto bad;
            if (cp >= 0xD800 && cp < 0xDC00) {
                if (!literal(p, "\\u") || hex4(p, &lo) != 0 || lo < 0xDC00 || lo >= 0xE000) {
                    fail_at(p, "unpaired UTF-16 surrogate in \\u escape");
                    goto bad;
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp < 0xE000) {
                fail_at(p, "unpaired UTF-16 surrogate in \\u escape");
                goto bad;
            }
            if (cp == 0) {
                fail_at(p, "\\u0000 in a string");
                goto bad;
            }
            put_utf8(&sb, cp);
            break;
        }
        default:
            p->pos--;
            fail_at(p, "unknown escape in a string");
            goto bad;
        }
    }
bad:
    strbuf_free(&sb);
    return NULL;
}

static int parse_number(parser *p, double *v)
{
    size_t s = p->pos;
    if (peek(p) == '-')
        p->pos++;
    if (peek(p) == '0') {
        p->pos++;
    } else if (peek(p) >= '1' && peek(p) <= '9') {
        while (peek(p) >= '0' && peek(p) <= '9')
            p->pos++;
    } else {
        fail_at(p, "expected a value");
        return -1;
    }
    if (peek(p) == '.') {
        p->pos++;
        if (!(peek(p) >= '0' && peek(p) <= '9')) {
            fail_at(p, "expected a digit after '.'");
            return -1;
        }
        while (peek(p) >= '0' && peek(p) <= '9')
            p->pos++;
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        p->pos++;
        if (peek(p) == '+' || peek(p) == '-')
            p->pos++;
        if (!(peek(p) >= '0' && peek(p) <= '9')) {
            fail_at(p, "expected a digit in the exponent");
            return -1;
        }
        while (peek(p) >= '0' && peek(p) <= '9')
            p->pos++;
    }
    char *num = xstrndup(p->s + s, p->pos - s);
    *v = strtod(num, NULL);
    free(num);
    return 0;
}

static int parse_value(parser *p, json_value *v, int depth);

static int parse_container(parser *p, json_value *v, int depth, int object)
{
    char close = object ? '}' : ']';
    size_t cap = 0;
    p->pos++;
    skip_ws(p);
    if (peek(p) == close) {
        p->pos++;
        return 0;
    }
    for (;;) {
        char *key = NULL;
        if (object) {
            skip_ws(p);
            if (peek(p) != '"') {
                fail_at(p, "expected a member name in quotes");
                return -1;
            }
            if (!(key = parse_string(p)))
                return -1;
            skip_ws(p);
            if (peek(p) != ':') {
                free(key);
                fail_at(p, "expected ':' after a member name");
                return -1;
            }
            p->pos++;
        }
        if (v->n == cap) {
            cap = cap ? 2 * cap : 8;
            v->items = xrealloc(v->items, cap * sizeof *v->items);
            if (object)
                v->keys = xrealloc(v->keys, cap * sizeof *v->keys);
        }
        memset(&v->items[v->n], 0, sizeof v->items[v->n]);
        if (object)
            v->keys[v->n] = key;
        v->n++;
        if (parse_value(p, &v->items[v->n - 1], depth + 1) != 0)
            return -1;
        skip_ws(p);
        if (peek(p) == ',') {
            p->pos++;
            continue;
        }
        if (peek(p) == close) {
            p->pos++;
            return 0;
        }
        fail_at(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
        return -1;
    }
}

static int parse_value(parser *p, json_value *v, int depth)
{
    memset(v, 0, sizeof *v);
    skip_ws(p);
    v->start = p->pos;
    if (depth > MAX_DEPTH) {
        fail_at(p, "nested too deeply");
        return -1;
    }
    int c = peek(p), rc = 0;
    if (c == '{' || c == '[') {
        v->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
        rc = parse_container(p, v, depth, c == '{');
    } else if (c == '"') {
        v->type = JSON_STRING;
        rc = (v->string = parse_string(p)) ? 0 : -1;
    } else if (literal(p, "null")) {
        v->type = JSON_NULL;
    } else if (literal(p, "true")) {
        v->type = JSON_BOOL;
        v->boolean = 1;
    } else if (literal(p, "false")) {
        v->type = JSON_BOOL;
    } else if (c < 0) {
        fail_at(p, "unexpected end of the text");
        rc = -1;
    } else {
        v->type = JSON_NUMBER;
        rc = parse_number(p, &v->number);
    }
    v->end = p->pos;
    return rc;
}

int json_parse(const char *text, size_t len, json_value *out, char *err, size_t errsize)
{
    parser p = {text, len, 0, err, errsize, 0};
    if (errsize)
        err[0] = '\0';
    if (parse_value(&p, out, 0) == 0) {
        skip_ws(&p);
        if (p.pos == p.len)
            return 0;
        fail_at(&p, "text after the JSON value");
    }
    json_value_free(out);
    return -1;
}

void json_value_free(json_value *v)
{
    for (size_t i = 0; i < v->n; i++) {
        json_value_free(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
    memset(v, 0, sizeof *v);
}

const json_value *json_get(const json_value *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return &obj->items[i];
    return NULL;
}

const char *json_get_str(const json_value *obj, const char *key)
{
    const json_value *v = json_get(obj, key);
    return v && v->type == JSON_STRING ? v->string : NULL;
}

double json_get_num(const json_value *obj, const char *key, double dflt)
{
    const json_value *v = json_get(obj, key);
    return v && v->type == JSON_NUMBER ? v->number : dflt;
}

int json_get_bool(const json_value *obj, const char *key, int dflt)
{
    const json_value *v = json_get(obj, key);
    return v && v->type == JSON_BOOL ? v->boolean : dflt;
}

const json_value *json_get_at(const json_value *obj, const char *key, size_t i)
{
    const json_value *v = json_get(obj, key);
    return v && v->type == JSON_ARRAY && i < v->n ? &v->items[i] : NULL;
}

size_t json_get_len(const json_value *obj, const char *key)
{
    const json_value *v = json_get(obj, key);
    return v && v->type == JSON_ARRAY ? v->n : 0;
}
