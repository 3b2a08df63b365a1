/* .npy reader/writer and raw binary loading. */
#include "base/atomic_file.h"
#include "config.h"

#include "data/npy.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "data/mapfile.h"

#define NPY_MAX_HEADER 65536u

typedef struct npy_header {
    char descr[32];
    int fortran;
    int ndim;
    int64_t shape[TENSOR_MAX_DIMS];
} npy_header;

#define NPY_ERR(...)                                                                  \
    do {                                                                              \
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, __VA_ARGS__);     \
        return PTODB_ERR_FORMAT;                                                      \
    } while (0)

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* Parses the header dict {'descr': ..., 'fortran_order': ..., 'shape': (...)}. */
static ptodb_status parse_header(const char *h, npy_header *out, const char *path, diag_sink *sink)
{
    int seen_descr = 0, seen_fortran = 0, seen_shape = 0;
    const char *p = skip_ws(h);
    if (*p++ != '{')
        NPY_ERR("bad .npy header: expected a dict");
    for (;;) {
        p = skip_ws(p);
        if (*p == '}')
            break;
        char q = *p;
        if (q != '\'' && q != '"')
            NPY_ERR("bad .npy header: expected a quoted key");
        const char *k = ++p;
        while (*p && *p != q)
            p++;
        if (!*p)
            NPY_ERR("bad .npy header: unterminated key");
        size_t kl = (size_t)(p - k);
        p = skip_ws(p + 1);
        if (*p++ != ':')
            NPY_ERR("bad .npy header: expected ':'");
        p = skip_ws(p);
        if (kl == 5 && strncmp(k, "descr", 5) == 0) {
            char vq = *p;
            if (vq != '\'' && vq != '"')
                NPY_ERR("unsupported .npy descr: structured dtypes are not tensors");
            const char *v = ++p;
            while (*p && *p != vq)
                p++;
            if (!*p || (size_t)(p - v) >= sizeof out->descr)
                NPY_ERR("bad .npy header: bad descr");
            memcpy(out->descr, v, (size_t)(p - v));
            out->descr[p - v] = '\0';
            p++;
            seen_descr = 1;
        } else if (kl == 13 && strncmp(k, "fortran_order", 13) == 0) {
            if (strncmp(p, "True", 4) == 0) {
                out->fortran = 1;
                p += 4;
            } else if (strncmp(p, "False", 5) == 0) {
                out->fortran = 0;
                p += 5;
            } else {
                NPY_ERR("bad .npy header: fortran_order is not True or False");
            }
            seen_fortran = 1;
        } else if (kl == 5 && strncmp(k, "shape", 5) == 0) {
            if (*p++ != '(')
                NPY_ERR("bad .npy header: shape is not a tuple");
            out->ndim = 0;
            for (;;) {
                p = skip_ws(p);
                if (*p == ')') {
                    p++;
                    break;
                }
                if (!isdigit((unsigned char)*p))
                    NPY_ERR("bad .npy header: shape entries must be non-negative integers");
                if (out->ndim >= TENSOR_MAX_DIMS)
                    NPY_ERR("array has more than %d dimensions", TENSOR_MAX_DIMS);
                errno = 0;
                char *e;
                long long v = strtoll(p, &e, 10);
                if (errno)
                    NPY_ERR("bad .npy header: shape entry out of range");
                out->shape[out->ndim++] = v;
                p = skip_ws(e);
                if (*p == ',')
                    p++;
                else if (*p != ')')
                    NPY_ERR("bad .npy header: expected ',' or ')' in shape");
            }
            seen_shape = 1;
        } else {
            NPY_ERR("bad .npy header: unknown key '%.*s'", (int)(kl > 40 ? 40 : kl), k);
        }
        p = skip_ws(p);
        if (*p == ',')
            p++;
        else if (*p != '}')
            NPY_ERR("bad .npy header: expected ',' or '}'");
    }
    if (!seen_descr || !seen_fortran || !seen_shape)
        NPY_ERR("bad .npy header: needs descr, fortran_order and shape");
    return PTODB_OK;
}

/* descr -> dtype and byte order ('<', '>' or '|'). */
static int descr_dtype(const char *d, dtype_id *dt, char *order)
{
    if (strcmp(d, "bfloat16") == 0) {
        *dt = DTYPE_BF16;
        *order = '<';
        return 0;
    }
    if (strlen(d) < 3)
        return -1;
    *order = d[0] == '=' ? '<' : d[0];
    if (*order != '<' && *order != '>' && *order != '|')
        return -1;
    static const struct {
        const char *code;
        dtype_id dt;
    } map[] = {
        {"f2", DTYPE_FP16}, {"f4", DTYPE_FP32},  {"f8", DTYPE_FP64},  {"i1", DTYPE_INT8},
        {"i2", DTYPE_INT16}, {"i4", DTYPE_INT32}, {"i8", DTYPE_INT64}, {"u1", DTYPE_UINT8},
        {"u2", DTYPE_UINT16}, {"u4", DTYPE_UINT32}, {"u8", DTYPE_UINT64}, {"b1", DTYPE_BOOL},
        {"V2", DTYPE_BF16},
        {"V1", DTYPE_COUNT}, /* 1-byte, unnamed: ml_dtypes' float8 types; needs a hint */
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        if (strcmp(d + 1, map[i].code) == 0) {
            *dt = map[i].dt;
            return 0;
        }
    }
    return -1;
}

static ptodb_status apply_hint(dtype_id *dt, dtype_id hint, const char *descr, const char *path,
                               diag_sink *sink)
{
    int fp8_hint = hint == DTYPE_FP8E4M3FN || hint == DTYPE_FP8E5M2 || hint == DTYPE_FP8E8M0;
    if (*dt == DTYPE_COUNT && !fp8_hint)
        NPY_ERR("descr '%s' names no dtype (np.save writes it for ml_dtypes' float8 arrays): give the "
                "tensor's dtype (fp8e4m3fn, fp8e5m2 or fp8e8m0) in the manifest", descr);
    if (fp8_hint && (*dt == DTYPE_COUNT || *dt == DTYPE_UINT8 || *dt == DTYPE_INT8)) {
        *dt = hint; /* the bytes are the float8 codes */
        return PTODB_OK;
    }
    if (hint == DTYPE_COUNT || hint == *dt)
        return PTODB_OK;
    int two = dtype_size(*dt) == 2 && dtype_size(hint) == 2 &&
              (*dt == DTYPE_UINT16 || *dt == DTYPE_INT16 || *dt == DTYPE_BF16) &&
              (hint == DTYPE_BF16 || hint == DTYPE_FP16);
    if (two || (hint == DTYPE_INDEX && *dt == DTYPE_INT64)) {
        *dt = hint;
        return PTODB_OK;
    }
    NPY_ERR("the file holds %s data (descr '%s') but %s was expected", dtype_name(*dt), descr,
            dtype_name(hint));
}

static void swap_bytes(unsigned char *p, size_t n, size_t es)
{
    for (size_t i = 0; i < n; i++, p += es)
        for (size_t a = 0, b = es - 1; a < b; a++, b--) {
            unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

static ptodb_status npy_load_file(const char *path, dtype_id hint, tensor **out, diag_sink *sink)
{
    *out = NULL;
    mapfile *m;
    ptodb_status st = mapfile_open(path, &m, sink);
    if (st != PTODB_OK)
        return st;
    const unsigned char *d = m->data;
    size_t size = m->size, hlen, hoff;
    npy_header h = {0};
    dtype_id dt;
    char order;
    if (size < 10 || memcmp(d, "\x93NUMPY", 6) != 0) {
        st = PTODB_ERR_FORMAT;
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "not a .npy file (bad magic)");
        goto done;
    }
    if (d[6] == 1) {
        hlen = (size_t)d[8] | ((size_t)d[9] << 8);
        hoff = 10;
    } else if (d[6] == 2 || d[6] == 3) {
        if (size < 12) {
            st = PTODB_ERR_FORMAT;
            diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "truncated .npy header");
            goto done;
        }
        hlen = (size_t)d[8] | ((size_t)d[9] << 8) | ((size_t)d[10] << 16) | ((size_t)d[11] << 24);
        hoff = 12;
    } else {
        st = PTODB_ERR_FORMAT;
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "unsupported .npy version %u.%u",
                    d[6], d[7]);
        goto done;
    }
    if (hlen > NPY_MAX_HEADER || hlen > size - hoff) {
        st = PTODB_ERR_FORMAT;
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL,
                    "truncated .npy header (%zu bytes announced, %zu in the file)", hlen, size - hoff);
        goto done;
    }
    {
        char *text = xstrndup((const char *)d + hoff, hlen);
        if (strlen(text) != hlen) {
            st = PTODB_ERR_FORMAT;
            diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "bad .npy header: NUL byte");
        } else {
            st = parse_header(text, &h, path, sink);
        }
        free(text);
        if (st != PTODB_OK)
            goto done;
    }
    if (descr_dtype(h.descr, &dt, &order) != 0) {
        st = PTODB_ERR_FORMAT;
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "unsupported .npy dtype '%s'", h.descr);
        goto done;
    }
    if ((st = apply_hint(&dt, hint, h.descr, path, sink)) != PTODB_OK)
        goto done;
    {
        size_t es = dtype_size(dt), doff = hoff + hlen;
        int64_t n = tensor_shape_numel(h.ndim, h.shape);
        char why[400];
        if (n < 0 || tensor_check_limit(dt, h.ndim, h.shape, why, sizeof why) != 0) {
            st = PTODB_ERR_FORMAT;
            diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "array shape is too large%s%s",
                        n < 0 ? "" : ": ", n < 0 ? "" : why);
            goto done;
        }
        size_t need = (size_t)n * es;
        if (size - doff != need) {
            st = PTODB_ERR_FORMAT;
            char sh[160];
            tensor_format_shape(h.ndim, h.shape, sh, sizeof sh);
            diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL,
                        "holds %zu bytes of data but shape %s of %s needs %zu", size - doff, sh,
                        dtype_name(dt), need);
            goto done;
        }
        tensor_storage *s;
        if (order == '>' && es > 1) {
            s = tensor_storage_new(need, NULL);
            memcpy(s->data, d + doff, need);
            swap_bytes(s->data, (size_t)n, es);
        } else {
            s = mapfile_storage(m, doff, need);
        }
        int64_t strides[TENSOR_MAX_DIMS];
        const int64_t *sp = NULL;
        if (h.fortran && n > 0) { /* an empty array's order does not matter */
            int64_t acc = 1;
            for (int k = 0; k < h.ndim; k++) {
                strides[k] = acc;
                acc *= h.shape[k] ? h.shape[k] : 1;
            }
            sp = strides;
        }
        *out = tensor_from_storage(s, dt, h.ndim, h.shape, sp, 0, &st);
        tensor_storage_unref(s);
        if (!*out)
            diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "array does not fit its data");
    }
done:
    mapfile_unref(m);
    return st;
}

ptodb_status npy_load(const char *path, dtype_id hint, tensor **out, diag_sink *sink)
{
    int where = mem_where_push("loading", path);
    ptodb_status result = npy_load_file(path, hint, out, sink);
    mem_where_pop(where);
    return result;
}

static const char *npy_descr(dtype_id dt)
{
    switch (dt) {
    case DTYPE_BOOL: return "|b1";
    case DTYPE_INT8: return "|i1";
    case DTYPE_INT16: return "<i2";
    case DTYPE_INT32: return "<i4";
    case DTYPE_INDEX:
    case DTYPE_INT64: return "<i8";
    case DTYPE_UINT8: return "|u1";
    case DTYPE_UINT16: return "<u2";
    case DTYPE_UINT32: return "<u4";
    case DTYPE_UINT64: return "<u8";
    case DTYPE_FP16: return "<f2";
    case DTYPE_BF16: return "<V2";
    case DTYPE_FP8E4M3FN:
    case DTYPE_FP8E5M2:
    case DTYPE_FP8E8M0: return "|V1"; /* as np.save writes ml_dtypes' float8 */
    case DTYPE_FP32: return "<f4";
    case DTYPE_FP64: return "<f8";
    default: return NULL;
    }
}

ptodb_status npy_save(const char *path, const tensor *t, diag_sink *sink)
{
    diag_loc loc = {path, 0, 0};
    const char *descr = npy_descr(t->dtype);
    tensor *c = descr ? tensor_clone(t) : NULL;
    if (!c) {
        diag_report(sink, DIAG_ERROR, loc, NULL, "cannot write this tensor as .npy");
        return PTODB_ERR_UNSUPPORTED;
    }
    strbuf h = STRBUF_INIT;
    strbuf_printf(&h, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int k = 0; k < c->ndim; k++)
        strbuf_printf(&h, "%lld,%s", (long long)c->shape[k], k + 1 < c->ndim ? " " : "");
    strbuf_puts(&h, "), }");
    /* Pad with spaces so that the data starts on a 64-byte boundary. */
    while ((10 + h.len + 1) % 64)
        strbuf_putc(&h, ' ');
    strbuf_putc(&h, '\n');
    ptodb_status st = PTODB_OK;
    atomic_file af;
    if (atomic_file_open(&af, path) != 0) {
        diag_report(sink, DIAG_ERROR, loc, NULL, "cannot create: %s", strerror(errno));
        st = PTODB_ERR_IO;
    } else {
        FILE *f = af.f;
        unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)h.len,
                                 (unsigned char)(h.len >> 8)};
        size_t nb = c->storage->nbytes;
        fwrite(pre, 1, 10, f);
        fwrite(h.data, 1, h.len, f);
        if (nb)
            fwrite(c->storage->data, 1, nb, f);
        if (atomic_file_commit(&af) != 0) {
            diag_report(sink, DIAG_ERROR, loc, NULL, "write failed: %s", strerror(errno));
            st = PTODB_ERR_IO;
        }
    }
    strbuf_free(&h);
    tensor_unref(c);
    return st;
}

ptodb_status raw_load(const char *path, dtype_id dt, int ndim, const int64_t *shape, uint64_t offset,
                      tensor **out, diag_sink *sink)
{
    *out = NULL;
    size_t es = dtype_size(dt);
    int64_t n = tensor_shape_numel(ndim, shape);
    char why[400];
    if (n < 0 || es == 0)
        NPY_ERR("bad shape for raw data");
    if (tensor_check_limit(dt, ndim, shape, why, sizeof why) != 0)
        NPY_ERR("raw data %s", why);
    mapfile *m;
    ptodb_status st = mapfile_open(path, &m, sink);
    if (st != PTODB_OK)
        return st;
    uint64_t need = (uint64_t)n * es;
    if (offset > m->size || m->size - offset != need) {
        char sh[160];
        tensor_format_shape(ndim, shape, sh, sizeof sh);
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL,
                    "holds %llu bytes after offset %llu but shape %s of %s needs %llu",
                    (unsigned long long)(offset > m->size ? 0 : m->size - offset),
                    (unsigned long long)offset, sh, dtype_name(dt), (unsigned long long)need);
        mapfile_unref(m);
        return PTODB_ERR_FORMAT;
    }
    tensor_storage *s = mapfile_storage(m, (size_t)offset, (size_t)need);
    *out = tensor_from_storage(s, dt, ndim, shape, NULL, 0, &st);
    tensor_storage_unref(s);
    mapfile_unref(m);
    return st;
}
