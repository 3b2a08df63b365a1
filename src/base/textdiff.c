#include "base/textdiff.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* LCS is O(n*m) in memory: beyond this many lines per side we diff only the
 * region between the common prefix and suffix, and beyond it again we
 * replace the whole region (dumps are a few thousand lines at most). */
enum { TEXTDIFF_MAX_CELLS = 64 * 1024 * 1024 };

typedef struct lines {
    const char **start;
    size_t *len;
    uint64_t *hash;
    size_t n;
} lines;

static uint64_t hash_line(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static void split_lines(const char *text, lines *l)
{
    size_t cap = 64;
    l->start = xmalloc(cap * sizeof *l->start);
    l->len = xmalloc(cap * sizeof *l->len);
    l->hash = xmalloc(cap * sizeof *l->hash);
    l->n = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (l->n == cap) {
            cap *= 2;
            l->start = xreallocarray(l->start, cap, sizeof *l->start);
            l->len = xreallocarray(l->len, cap, sizeof *l->len);
            l->hash = xreallocarray(l->hash, cap, sizeof *l->hash);
        }
        l->start[l->n] = p;
        l->len[l->n] = n;
        l->hash[l->n] = hash_line(p, n);
        l->n++;
        p += n + (nl ? 1 : 0);
    }
}

static void free_lines(lines *l)
{
    free(l->start);
    free(l->len);
    free(l->hash);
}

static int same(const lines *a, size_t i, const lines *b, size_t j)
{
    return a->hash[i] == b->hash[j] && a->len[i] == b->len[j] &&
           memcmp(a->start[i], b->start[j], a->len[i]) == 0;
}

/* op per aligned row: ' ' both, '-' only a, '+' only b. */
typedef struct edit {
    char op;
    size_t ia, ib;
} edit;

static edit *align(const lines *a, const lines *b, size_t *nedits)
{
    size_t pre = 0;
    while (pre < a->n && pre < b->n && same(a, pre, b, pre))
        pre++;
    size_t suf = 0;
    while (suf < a->n - pre && suf < b->n - pre && same(a, a->n - 1 - suf, b, b->n - 1 - suf))
        suf++;
    size_t n = a->n - pre - suf, m = b->n - pre - suf;
    edit *e = xmalloc((a->n + b->n + 1) * sizeof *e);
    size_t k = 0;
    for (size_t i = 0; i < pre; i++)
        e[k++] = (edit){' ', i, i};
    if ((n + 1) * (m + 1) <= TEXTDIFF_MAX_CELLS) {
        /* dp[i][j] = LCS length of a[pre+i..] and b[pre+j..] */
        uint32_t *dp = xcalloc((n + 1) * (m + 1), sizeof *dp);
#define DP(i, j) dp[(i) * (m + 1) + (j)]
        for (size_t i = n; i-- > 0;)
            for (size_t j = m; j-- > 0;)
                DP(i, j) = same(a, pre + i, b, pre + j) ? DP(i + 1, j + 1) + 1
                           : DP(i + 1, j) >= DP(i, j + 1) ? DP(i + 1, j) : DP(i, j + 1);
        size_t i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && same(a, pre + i, b, pre + j)) {
                e[k++] = (edit){' ', pre + i, pre + j};
                i++, j++;
            } else if (j < m && (i == n || DP(i, j + 1) > DP(i + 1, j))) {
                e[k++] = (edit){'+', pre + i, pre + j};
                j++;
            } else {
                e[k++] = (edit){'-', pre + i, pre + j};
                i++;
            }
        }
#undef DP
        free(dp);
    } else {
        for (size_t i = 0; i < n; i++)
            e[k++] = (edit){'-', pre + i, pre};
        for (size_t j = 0; j < m; j++)
            e[k++] = (edit){'+', pre + n, pre + j};
    }
    for (size_t i = 0; i < suf; i++)
        e[k++] = (edit){' ', a->n - suf + i, b->n - suf + i};
    *nedits = k;
    return e;
}

long textdiff_unified(const char *ta, const char *tb, const char *label_a, const char *label_b,
                      int context, strbuf *out)
{
    lines a, b;
    split_lines(ta, &a);
    split_lines(tb, &b);
    size_t ne;
    edit *e = align(&a, &b, &ne);
    long changed = 0;
    for (size_t i = 0; i < ne; i++)
        changed += e[i].op != ' ';
    if (changed) {
        strbuf_printf(out, "--- %s\n+++ %s\n", label_a, label_b);
        size_t i = 0;
        while (i < ne) {
            if (e[i].op == ' ') {
                i++;
                continue;
            }
            /* A hunk: from `context` lines before this change to `context`
             * after the last change that is closer than 2*context. */
            size_t lo = i > (size_t)context ? i - (size_t)context : 0;
            size_t hi = i;
            for (size_t j = i; j < ne; j++) {
                if (e[j].op != ' ')
                    hi = j;
                else if (j - hi > 2 * (size_t)context)
                    break;
            }
            hi = hi + (size_t)context + 1 < ne ? hi + (size_t)context + 1 : ne;
            size_t a0 = e[lo].ia, b0 = e[lo].ib, na = 0, nb = 0;
            for (size_t j = lo; j < hi; j++) {
                na += e[j].op != '+';
                nb += e[j].op != '-';
            }
            strbuf_printf(out, "@@ -%zu,%zu +%zu,%zu @@\n", na ? a0 + 1 : a0, na, nb ? b0 + 1 : b0, nb);
            for (size_t j = lo; j < hi; j++) {
                const lines *src = e[j].op == '+' ? &b : &a;
                size_t idx = e[j].op == '+' ? e[j].ib : e[j].ia;
                strbuf_putc(out, e[j].op);
                strbuf_append(out, src->start[idx], src->len[idx]);
                strbuf_putc(out, '\n');
            }
            i = hi;
        }
    }
    free(e);
    free_lines(&a);
    free_lines(&b);
    return changed;
}
