/* The DAP server's variablesReference table: one id per (kind, frame,
 * expression), the same thing asked twice getting the same id, all of them
 * dropped when the program runs (variables.c makes them, memory.c reads
 * the tensor ones back). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "dap_impl.h"

void dap_refs_clear(dap_server *d)
{
    for (size_t i = 0; i < d->nrefs; i++)
        free(d->refs[i].expr);
    d->nrefs = 0;
    if (d->ref_index)
        memset(d->ref_index, 0, d->ref_index_cap * sizeof *d->ref_index);
}

static uint32_t ref_hash(dap_ref_kind kind, int core, int level, const char *expr)
{
    uint32_t h = 2166136261u ^ ((uint32_t)kind * 131u + (uint32_t)core * 17u + (uint32_t)level);
    for (const char *p = expr ? expr : ""; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    return h * 2654435761u;
}

static int ref_equal(const dap_ref *r, dap_ref_kind kind, int core, int level, const char *expr)
{
    return r->kind == kind && r->core == core && r->level == level &&
           ((!expr && !r->expr) || (expr && r->expr && strcmp(expr, r->expr) == 0));
}

/* The slot of the index where (kind, core, level, expr) is or would go. */
static size_t ref_slot(const dap_server *d, dap_ref_kind kind, int core, int level, const char *expr)
{
    size_t mask = d->ref_index_cap - 1;
    size_t i = ref_hash(kind, core, level, expr) & mask;
    while (d->ref_index[i] && !ref_equal(&d->refs[d->ref_index[i] - 1], kind, core, level, expr))
        i = (i + 1) & mask;
    return i;
}

int dap_ref_new(dap_server *d, dap_ref_kind kind, int core, int level, const char *expr)
{
    /* the same thing asked twice gets the same reference (VS Code asks
     * again for what it shows); a hash index keeps that O(1) when a page
     * of a huge tensor makes a hundred children */
    if (d->ref_index_cap == 0 || (d->nrefs + 1) * 2 > d->ref_index_cap) {
        size_t cap = d->ref_index_cap ? d->ref_index_cap * 2 : 1024;
        free(d->ref_index);
        d->ref_index = xcalloc(cap, sizeof *d->ref_index);
        d->ref_index_cap = cap;
        for (size_t i = 0; i < d->nrefs; i++) {
            const dap_ref *r = &d->refs[i];
            d->ref_index[ref_slot(d, r->kind, r->core, r->level, r->expr)] = (uint32_t)i + 1;
        }
    }
    size_t slot = ref_slot(d, kind, core, level, expr);
    if (d->ref_index[slot])
        return (int)d->ref_index[slot];
    if (d->nrefs >= 1000000)
        return 0;
    if (d->nrefs == d->caprefs) {
        d->caprefs = d->caprefs ? d->caprefs * 2 : 256;
        d->refs = xreallocarray(d->refs, d->caprefs, sizeof *d->refs);
    }
    d->refs[d->nrefs] = (dap_ref){kind, core, level, expr ? xstrdup(expr) : NULL};
    d->ref_index[slot] = (uint32_t)++d->nrefs;
    return (int)d->nrefs;
}

const dap_ref *dap_ref_get(dap_server *d, long id)
{
    return id >= 1 && (size_t)id <= d->nrefs ? &d->refs[id - 1] : NULL;
}
