/* Content versions of written storages (write_log.h): open addressing on
 * the storage's address. */
#include "exec/write_log.h"

#include <stdlib.h>

#include "base/mem.h"

struct exec_write_log {
    struct wl_entry { const void *key; uint64_t version; } *e;
    size_t n, cap;
    uint64_t counter;
};

exec_write_log *exec_write_log_new(void)
{
    return xcalloc(1, sizeof(exec_write_log));
}

void exec_write_log_free(exec_write_log *w)
{
    if (!w)
        return;
    free(w->e);
    free(w);
}

static size_t slot_of(const void *key, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)key;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

static struct wl_entry *find(const exec_write_log *w, const void *key)
{
    if (!w->cap)
        return NULL;
    size_t j = slot_of(key, w->cap);
    while (w->e[j].key && w->e[j].key != key)
        j = (j + 1) & (w->cap - 1);
    return w->e[j].key ? &w->e[j] : NULL;
}

static struct wl_entry *put(exec_write_log *w, const void *key)
{
    struct wl_entry *f = find(w, key);
    if (f)
        return f;
    if ((w->n + 1) * 2 > w->cap) {
        size_t oc = w->cap;
        struct wl_entry *old = w->e;
        w->cap = oc ? oc * 2 : 256;
        w->e = xcalloc(w->cap, sizeof *w->e);
        for (size_t i = 0; i < oc; i++)
            if (old[i].key) {
                size_t j = slot_of(old[i].key, w->cap);
                while (w->e[j].key)
                    j = (j + 1) & (w->cap - 1);
                w->e[j] = old[i];
            }
        free(old);
    }
    size_t j = slot_of(key, w->cap);
    while (w->e[j].key)
        j = (j + 1) & (w->cap - 1);
    w->e[j].key = key;
    w->e[j].version = 0;
    w->n++;
    return &w->e[j];
}

void exec_write_log_note(exec_write_log *w, const void *key)
{
    put(w, key)->version = ++w->counter;
}

uint64_t exec_write_log_version(const exec_write_log *w, const void *key)
{
    const struct wl_entry *f = find(w, key);
    return f ? f->version : 0;
}

void exec_write_log_set(exec_write_log *w, const void *key, uint64_t version)
{
    if (!version && !find(w, key))
        return;
    put(w, key)->version = version;
}

size_t exec_write_log_bytes(const exec_write_log *w)
{
    return sizeof *w + w->cap * sizeof *w->e;
}
