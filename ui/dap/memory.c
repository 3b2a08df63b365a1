/* memoryReference and readMemory. A tile the memory model placed
 * (src/memory, exec/memcheck.c) refers to its core's space at the tile's
 * first byte, "aiv0/Vec/0x1000": reading around it shows the neighbours
 * the device has there, and the reference stays good from stop to stop.
 * Any other tensor refers to its storage from its first element, as the
 * `x` command examines it, "tensor/REF/0x40" (REF: its variablesReference,
 * valid until the program runs). Bytes outside the space (past its
 * capacity) or the storage are unreadable, reported as the spec says. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "dap_impl.h"
#include "debug/state/expr.h"

/* A readMemory response's bytes at most: a client asks for more in pieces
 * (a silent cut would read as the end of memory, so more is refused). */
#define READ_MEMORY_MAX ((int64_t)1 << 20)

static const char *const core_names[] = {"host", "aic", "aiv0", "aiv1"};

json_t *dap_memory_reference(dap_server *d, const tensor *t, int ref)
{
    char buf[96];
    view_mem_place pl;
    if (view_tensor_place(d->s, t, &pl)) {
        snprintf(buf, sizeof buf, "%s/%s/0x%" PRIx64, core_names[pl.core], pl.space_name, pl.addr);
        return json_string(buf);
    }
    size_t es = dtype_size(t->dtype);
    if (!ref || !es || !t->storage)
        return NULL;
    snprintf(buf, sizeof buf, "tensor/%d/0x%" PRIx64, ref, (uint64_t)t->offset * es);
    return json_string(buf);
}

static void base64(const unsigned char *p, size_t n, strbuf *out)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        char q[4] = {tab[v >> 18], tab[(v >> 12) & 63], tab[(v >> 6) & 63], tab[v & 63]};
        strbuf_append(out, q, 4);
    }
    if (i < n) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        char q[4] = {tab[v >> 18], tab[(v >> 12) & 63], i + 1 < n ? tab[(v >> 6) & 63] : '=', '='};
        strbuf_append(out, q, 4);
    }
}

/* "0x1f" (or decimal): 0 and *v; -1 otherwise. */
static int parse_addr(const char *s, uint64_t *v)
{
    char *end;
    if (!*s || *s == '-' || *s == '+' || *s == ' ')
        return -1;
    unsigned long long x = strtoull(s, &end, 0);
    if (*end || x > (uint64_t)INT64_MAX)
        return -1;
    *v = x;
    return 0;
}

void dap_req_read_memory(dap_server *d, json_t *req, json_t *args)
{
    view_location loc;
    if (!d->s || !view_stop_location(d->s, &loc)) {
        dap_fail(d, req, "notStopped: the program is not stopped");
        return;
    }
    const char *mref = json_string_value(json_object_get(args, "memoryReference"));
    json_t *joff = json_object_get(args, "offset"), *jcount = json_object_get(args, "count");
    if (!mref || !json_is_integer(jcount) || (joff && !json_is_integer(joff))) {
        dap_fail(d, req, "readMemory: 'memoryReference' (a string) and 'count' (an integer) are required");
        return;
    }
    json_int_t count = json_integer_value(jcount), off = joff ? json_integer_value(joff) : 0;
    if (count < 0 || count > READ_MEMORY_MAX) {
        dap_fail(d, req, "readMemory: count %lld is not within 0..%lld (ask in pieces)", (long long)count,
                 (long long)READ_MEMORY_MAX);
        return;
    }
    /* the reference: "CORE/SPACE/ADDR" or "tensor/REF/ADDR" */
    char a[32], b[32], c[32];
    uint64_t base;
    if (strlen(mref) > 90 || sscanf(mref, "%31[^/]/%31[^/]/%31s", a, b, c) != 3 || parse_addr(c, &base) != 0 ||
        snprintf(NULL, 0, "%s/%s/%s", a, b, c) != (int)strlen(mref)) {
        dap_fail(d, req, "readMemory: unknown memoryReference");
        return;
    }
    /* base <= INT64_MAX: only a positive offset can overflow */
    if (off > 0 && (uint64_t)off > (uint64_t)INT64_MAX - base) {
        dap_fail(d, req, "readMemory: offset out of range");
        return;
    }
    int64_t start = (int64_t)base + (int64_t)off;
    unsigned char *buf = xmalloc(count ? (size_t)count : 1);
    int64_t got = 0; /* readable bytes from start (a prefix) */
    tensor *t = NULL;
    if (strcmp(a, "tensor") == 0) {
        char *end;
        long ref = strtol(b, &end, 10);
        const dap_ref *r = *end ? NULL : dap_ref_get(d, ref);
        strbuf err = STRBUF_INIT, note = STRBUF_INIT;
        if (r && r->kind == REF_TENSOR) {
            char *expr = xstrdup(r->expr);
            int core = r->core, level = r->level;
            int was_core, was_level;
            int had = view_selection(d->s, &was_core, &was_level);
            if (dap_select_frame(d, core, level) == 0 && expr_eval(d->s, expr, &t, &note, &err) != PTODB_OK)
                t = NULL;
            if (had)
                dap_select_frame(d, was_core, was_level);
            free(expr);
        }
        strbuf_free(&err);
        strbuf_free(&note);
        if (!t) {
            free(buf);
            dap_fail(d, req, "readMemory: that tensor is gone (the program ran since)");
            return;
        }
        int64_t size = t->storage ? (int64_t)t->storage->nbytes : 0;
        if (start >= 0 && start < size) {
            got = size - start < count ? size - start : count;
            memcpy(buf, t->storage->data + start, (size_t)got);
        }
    } else {
        int core = -1;
        for (int k = 1; k < 4; k++)
            if (strcmp(a, core_names[k]) == 0)
                core = k;
        int space = view_memory_space(b);
        int64_t n = core < 0 || space < 0 ? -1 : start >= 0 ? view_memory_read(d->s, core, space, (uint64_t)start, buf, (uint64_t)count) : 0;
        if (n < 0) {
            free(buf);
            dap_fail(d, req, "readMemory: %s has no %s memory in this run", a, b);
            return;
        }
        got = n;
    }
    if (t)
        tensor_unref(t);
    /* the spec's shape: data from `address`, then the unreadable bytes
     * after it. Unreadable bytes first (before 0): no data, their count,
     * and the next request starts past them. */
    char addr[40];
    json_t *body;
    if (start < 0) {
        int64_t skip = -start < count ? -start : count;
        snprintf(addr, sizeof addr, "%" PRId64, start);
        body = json_pack("{s:s, s:I, s:s}", "address", addr, "unreadableBytes", (json_int_t)skip, "data", "");
    } else {
        snprintf(addr, sizeof addr, "0x%" PRIx64, (uint64_t)start);
        strbuf sb = STRBUF_INIT;
        base64(buf, (size_t)got, &sb);
        body = json_pack("{s:s, s:s}", "address", addr, "data", strbuf_str(&sb));
        if (got < count)
            json_object_set_new(body, "unreadableBytes", json_integer(count - got));
        strbuf_free(&sb);
    }
    free(buf);
    dap_respond(d, req, body);
}
