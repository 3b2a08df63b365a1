/* torch .pt reader and writer. */
#include "base/atomic_file.h"
#include "config.h"

#include "data/pt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "data/mapfile.h"
#include "data/pickle.h"
#include "data/zip.h"

/* The only globals a .pt file may name. */
static const char *const pt_allowed_globals[] = {
    "torch._utils._rebuild_tensor_v2",
    "torch._utils._rebuild_tensor_v3",
    "collections.OrderedDict",
    "torch.DoubleStorage", "torch.FloatStorage", "torch.HalfStorage", "torch.BFloat16Storage",
    "torch.LongStorage", "torch.IntStorage", "torch.ShortStorage", "torch.CharStorage",
    "torch.ByteStorage", "torch.BoolStorage", "torch.ComplexFloatStorage",
    "torch.ComplexDoubleStorage", "torch.UntypedStorage", "torch.storage.UntypedStorage",
    "torch.float64", "torch.float32", "torch.float16", "torch.bfloat16", "torch.int64",
    "torch.int32", "torch.int16", "torch.int8", "torch.uint8", "torch.uint16", "torch.uint32",
    "torch.uint64", "torch.bool", "torch.float8_e4m3fn", "torch.float8_e5m2",
    "torch.float8_e8m0fnu", "torch.float4_e2m1fn_x2", "torch.Float8_e4m3fnStorage",
    "torch.Float8_e5m2Storage",
    NULL,
};

static const struct {
    const char *cls;
    dtype_id dt;
} pt_storage_classes[] = {
    {"torch.DoubleStorage", DTYPE_FP64},  {"torch.FloatStorage", DTYPE_FP32},
    {"torch.HalfStorage", DTYPE_FP16},    {"torch.BFloat16Storage", DTYPE_BF16},
    {"torch.LongStorage", DTYPE_INT64},   {"torch.IntStorage", DTYPE_INT32},
    {"torch.ShortStorage", DTYPE_INT16},  {"torch.CharStorage", DTYPE_INT8},
    {"torch.ByteStorage", DTYPE_UINT8},   {"torch.BoolStorage", DTYPE_BOOL},
    /* torch.save writes float8 as an UntypedStorage plus a dtype
     * (_rebuild_tensor_v3, torch/storage.py _new_dtypes); these legacy names
     * are accepted for writers that spell the typed storage out */
    {"torch.Float8_e4m3fnStorage", DTYPE_FP8E4M3FN}, {"torch.Float8_e5m2Storage", DTYPE_FP8E5M2},
};

static const struct {
    const char *name;
    dtype_id dt;
} pt_torch_dtypes[] = {
    {"torch.float64", DTYPE_FP64}, {"torch.float32", DTYPE_FP32}, {"torch.float16", DTYPE_FP16},
    {"torch.bfloat16", DTYPE_BF16}, {"torch.int64", DTYPE_INT64}, {"torch.int32", DTYPE_INT32},
    {"torch.int16", DTYPE_INT16},  {"torch.int8", DTYPE_INT8},     {"torch.uint8", DTYPE_UINT8},
    {"torch.uint16", DTYPE_UINT16}, {"torch.uint32", DTYPE_UINT32}, {"torch.uint64", DTYPE_UINT64},
    {"torch.bool", DTYPE_BOOL},    {"torch.float8_e4m3fn", DTYPE_FP8E4M3FN},
    {"torch.float8_e5m2", DTYPE_FP8E5M2}, {"torch.float8_e8m0fnu", DTYPE_FP8E8M0},
};

/* One storage record, shared by every tensor that names its key. */
typedef struct pt_storage_ref {
    char *key;
    tensor_storage *s;
    dtype_id dt; /* dtype of the typed storage; DTYPE_COUNT for untyped */
} pt_storage_ref;

typedef struct pt_ctx {
    const char *path;
    diag_sink *sink;
    zip_archive zip;
    mapfile *map; /* NULL when loading from caller memory */
    char *prefix; /* "archive/" */
    pt_storage_ref *storages;
    size_t nstorages;
} pt_ctx;

#define PT_ERR(ctx, ...)                                                                     \
    do {                                                                                     \
        diag_report((ctx)->sink, DIAG_ERROR, (diag_loc){(ctx)->path, 0, 0}, NULL, __VA_ARGS__); \
        return PTODB_ERR_FORMAT;                                                             \
    } while (0)

static int pt_is_int(const pk_value *v)
{
    return v && v->kind == PK_INT;
}

static ptodb_status pt_int_tuple(pt_ctx *ctx, const pk_value *v, const char *what, int64_t *out,
                                 int *n)
{
    if (!v || v->kind != PK_TUPLE)
        PT_ERR(ctx, "tensor %s is a %s, not a tuple", what, v ? pk_kind_name(v->kind) : "nothing");
    if (v->count > TENSOR_MAX_DIMS)
        PT_ERR(ctx, "tensor has %zu dimensions; ptodb supports at most %d", v->count, TENSOR_MAX_DIMS);
    for (size_t i = 0; i < v->count; i++) {
        if (!pt_is_int(v->items[i]) || v->items[i]->i < 0)
            PT_ERR(ctx, "tensor %s[%zu] is not a non-negative integer", what, i);
        out[i] = v->items[i]->i;
    }
    *n = (int)v->count;
    return PTODB_OK;
}

/* The storage for a persistent id ('storage', cls, key, location, numel). */
static ptodb_status pt_get_storage(pt_ctx *ctx, const pk_value *pid, dtype_id *dt_io,
                                   tensor_storage **out)
{
    const pk_value *t = pid->kind == PK_PERSID ? pid->items[0] : NULL;
    if (!t || t->kind != PK_TUPLE || t->count != 5 || t->items[0]->kind != PK_STR ||
        strcmp(t->items[0]->str, "storage") != 0 || t->items[1]->kind != PK_GLOBAL ||
        t->items[2]->kind != PK_STR || !pt_is_int(t->items[4]) || t->items[4]->i < 0)
        PT_ERR(ctx, "tensor storage is not a ('storage', class, key, location, numel) persistent id");
    const char *cls = t->items[1]->str, *key = t->items[2]->str;
    dtype_id dt = DTYPE_COUNT;
    int untyped = strcmp(cls, "torch.UntypedStorage") == 0 || strcmp(cls, "torch.storage.UntypedStorage") == 0;
    for (size_t i = 0; i < sizeof pt_storage_classes / sizeof pt_storage_classes[0]; i++)
        if (strcmp(cls, pt_storage_classes[i].cls) == 0)
            dt = pt_storage_classes[i].dt;
    if (dt == DTYPE_COUNT && !untyped)
        PT_ERR(ctx, "unsupported storage type %s", cls);
    if (untyped) {
        if (*dt_io == DTYPE_COUNT)
            PT_ERR(ctx, "untyped storage '%s' without a dtype (expected _rebuild_tensor_v3)", key);
        dt = *dt_io;
    }
    *dt_io = dt;
    uint64_t numel = (uint64_t)t->items[4]->i;
    uint64_t esize = untyped ? 1 : dtype_size(dt);
    for (size_t i = 0; i < ctx->nstorages; i++) {
        if (strcmp(ctx->storages[i].key, key) == 0) {
            if (!untyped && ctx->storages[i].dt != dt)
                PT_ERR(ctx, "storage '%s' is used as both %s and %s", key,
                       dtype_name(ctx->storages[i].dt), dtype_name(dt));
            *out = ctx->storages[i].s;
            return PTODB_OK;
        }
    }
    if (strlen(key) > 200 || strchr(key, '/'))
        PT_ERR(ctx, "bad storage key '%.40s'", key);
    char name[256];
    snprintf(name, sizeof name, "%sdata/%s", ctx->prefix, key);
    zip_entry *e = (zip_entry *)zip_find(&ctx->zip, name);
    if (!e)
        PT_ERR(ctx, "storage record '%s' is missing from the archive", name);
    if (numel > tensor_max_bytes() / esize)
        PT_ERR(ctx, "storage '%s' claims %llu elements: too large", key, (unsigned long long)numel);
    if (e->size != numel * esize) {
        if (untyped)
            PT_ERR(ctx, "storage '%s' holds %llu bytes but its persistent id says %llu", key,
                   (unsigned long long)e->size, (unsigned long long)numel);
        PT_ERR(ctx, "storage '%s' holds %llu bytes but %llu %s elements need %llu", key,
               (unsigned long long)e->size, (unsigned long long)numel, dtype_name(dt),
               (unsigned long long)(numel * esize));
    }
    ptodb_status st = zip_entry_verify(&ctx->zip, e, ctx->sink);
    if (st != PTODB_OK)
        return st;
    tensor_storage *s;
    if (ctx->map) {
        s = mapfile_storage(ctx->map, (size_t)e->data_off, (size_t)e->size);
    } else {
        s = tensor_storage_new((size_t)e->size, NULL);
        if (s && e->size)
            memcpy(s->data, ctx->zip.data + e->data_off, (size_t)e->size);
    }
    if (!s)
        PT_ERR(ctx, "storage '%s' is too large", key);
    ctx->storages = xreallocarray(ctx->storages, ctx->nstorages + 1, sizeof *ctx->storages);
    ctx->storages[ctx->nstorages++] = (pt_storage_ref){xstrdup(key), s, untyped ? DTYPE_COUNT : dt};
    *out = s;
    return PTODB_OK;
}

/* E2M1 (OCP MX FP4: sign, 2 exponent bits, 1 mantissa bit, bias 1, no Inf
 * or NaN): 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives. */
static float pt_fp4_e2m1_value(unsigned code)
{
    static const float mag[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
    float v = mag[code & 7u];
    return code & 8u ? -v : v;
}

/* torch's float4_e2m1fn_x2 carries two FP4 codes a byte in a physical shape
 * whose last dim is half the logical one (low nibble = even element, as
 * PyPTO's tests pack it). ptodb has no 4-bit storage: the tensor becomes
 * float32 of the logical shape (PyPTO's: last dim doubled), which holds
 * every FP4 value exactly and is what REF's _DTYPE_MAP gives FP4. */
static ptodb_status pt_unpack_fp4(pt_ctx *ctx, tensor **io)
{
    tensor *packed = *io;
    *io = NULL;
    if (packed->ndim < 1) {
        tensor_unref(packed);
        PT_ERR(ctx, "a float4_e2m1fn_x2 tensor needs at least one dimension");
    }
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, packed->shape, sizeof shape);
    int last = packed->ndim - 1;
    if (shape[last] > INT64_MAX / 2) {
        tensor_unref(packed);
        PT_ERR(ctx, "float4 tensor shape overflows");
    }
    shape[last] *= 2;
    char why[400];
    if (tensor_check_limit(DTYPE_FP32, packed->ndim, shape, why, sizeof why) != 0) {
        tensor_unref(packed);
        PT_ERR(ctx, "float4 tensor unpacked to float32: %s", why);
    }
    tensor *t = tensor_zeros(DTYPE_FP32, packed->ndim, shape, NULL);
    if (!t) {
        tensor_unref(packed);
        PT_ERR(ctx, "no memory to unpack a float4 tensor");
    }
    float *dst = (float *)tensor_data(t);
    int64_t n = tensor_numel(packed);
    for (int64_t k = 0; k < n; k++) {
        unsigned byte = (unsigned)tensor_get_flat(packed, k);
        dst[2 * k] = pt_fp4_e2m1_value(byte & 0xFu);
        dst[2 * k + 1] = pt_fp4_e2m1_value(byte >> 4);
    }
    tensor_unref(packed);
    *io = t;
    return PTODB_OK;
}

/* Turns a _rebuild_tensor_v2/v3 call into a tensor. */
static ptodb_status pt_build_tensor(pt_ctx *ctx, const pk_value *call, tensor **out)
{
    const char *fn = call->items[0]->str;
    const pk_value *args = call->items[1];
    int v3 = strcmp(fn, "torch._utils._rebuild_tensor_v3") == 0;
    if (!v3 && strcmp(fn, "torch._utils._rebuild_tensor_v2") != 0)
        PT_ERR(ctx, "%s(...) does not build a tensor", fn);
    size_t want = v3 ? 7 : 6;
    if (args->count != want && args->count != want + 1)
        PT_ERR(ctx, "%s takes %zu or %zu arguments, got %zu", fn, want, want + 1, args->count);
    dtype_id dt = DTYPE_COUNT;
    int fp4 = 0; /* float4_e2m1fn_x2: bytes of two codes, unpacked below */
    if (v3) {
        const pk_value *d = args->items[6];
        if (d->kind != PK_GLOBAL)
            PT_ERR(ctx, "_rebuild_tensor_v3 dtype is a %s, not a torch dtype", pk_kind_name(d->kind));
        for (size_t i = 0; i < sizeof pt_torch_dtypes / sizeof pt_torch_dtypes[0]; i++)
            if (strcmp(d->str, pt_torch_dtypes[i].name) == 0)
                dt = pt_torch_dtypes[i].dt;
        if (strcmp(d->str, "torch.float4_e2m1fn_x2") == 0) {
            dt = DTYPE_UINT8;
            fp4 = 1;
        }
        if (dt == DTYPE_COUNT)
            PT_ERR(ctx, "unsupported tensor dtype %s", d->str);
    }
    tensor_storage *s;
    ptodb_status st = pt_get_storage(ctx, args->items[0], &dt, &s);
    if (st != PTODB_OK)
        return st;
    if (!pt_is_int(args->items[1]) || args->items[1]->i < 0)
        PT_ERR(ctx, "tensor storage offset is not a non-negative integer");
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    int nd, ns;
    if ((st = pt_int_tuple(ctx, args->items[2], "size", shape, &nd)) != PTODB_OK ||
        (st = pt_int_tuple(ctx, args->items[3], "stride", strides, &ns)) != PTODB_OK)
        return st;
    if (nd != ns)
        PT_ERR(ctx, "tensor size has %d entries but stride has %d", nd, ns);
    if (tensor_shape_numel(nd, shape) < 0)
        PT_ERR(ctx, "tensor shape overflows");
    /* A view may claim far more elements than its storage holds (stride 0):
     * what it costs to copy or scan is its shape, not its storage. */
    char why[400];
    if (tensor_check_limit(dt, nd, shape, why, sizeof why) != 0)
        PT_ERR(ctx, "tensor %s", why);
    ptodb_status vst;
    *out = tensor_from_storage(s, dt, nd, shape, strides, args->items[1]->i, &vst);
    if (!*out) {
        char sh[160];
        tensor_format_shape(nd, shape, sh, sizeof sh);
        PT_ERR(ctx, "tensor of shape %s (offset %lld) reaches past its storage of %zu %s elements", sh,
               (long long)args->items[1]->i, s->nbytes / dtype_size(dt), dtype_name(dt));
    }
    return fp4 ? pt_unpack_fp4(ctx, out) : PTODB_OK;
}

static void pt_add_item(pt_file *f, const char *name, tensor *t)
{
    f->items = xreallocarray(f->items, f->count + 1, sizeof *f->items);
    f->items[f->count].name = name ? xstrdup(name) : NULL;
    f->items[f->count].t = t;
    f->count++;
}

static ptodb_status pt_collect(pt_ctx *ctx, const pk_value *root, pt_file *f)
{
    ptodb_status st;
    tensor *t;
    if (root->kind == PK_CALL) {
        f->kind = PT_SINGLE;
        if ((st = pt_build_tensor(ctx, root, &t)) != PTODB_OK)
            return st;
        pt_add_item(f, NULL, t);
        return PTODB_OK;
    }
    if (root->kind == PK_DICT) {
        f->kind = PT_DICT;
        for (size_t i = 0; i + 1 < root->count; i += 2) {
            const pk_value *k = root->items[i], *v = root->items[i + 1];
            if (k->kind != PK_STR)
                PT_ERR(ctx, "dict key %zu is a %s, not a string", i / 2, pk_kind_name(k->kind));
            if (v->kind != PK_CALL)
                PT_ERR(ctx, "dict entry '%s' is a %s, not a tensor", k->str, pk_kind_name(v->kind));
            if ((st = pt_build_tensor(ctx, v, &t)) != PTODB_OK)
                return st;
            pt_add_item(f, k->str, t);
        }
        return PTODB_OK;
    }
    if (root->kind == PK_LIST || root->kind == PK_TUPLE) {
        f->kind = PT_LIST;
        for (size_t i = 0; i < root->count; i++) {
            char name[32];
            snprintf(name, sizeof name, "%zu", i);
            if (root->items[i]->kind != PK_CALL)
                PT_ERR(ctx, "list item %zu is a %s, not a tensor", i, pk_kind_name(root->items[i]->kind));
            if ((st = pt_build_tensor(ctx, root->items[i], &t)) != PTODB_OK)
                return st;
            pt_add_item(f, name, t);
        }
        return PTODB_OK;
    }
    PT_ERR(ctx, "the pickle holds a %s, not a tensor, dict or list of tensors", pk_kind_name(root->kind));
}

static ptodb_status pt_run(pt_ctx *ctx, pt_file *out)
{
    ptodb_status st = zip_open(&ctx->zip, ctx->map ? ctx->map->data : ctx->zip.data,
                               ctx->map ? ctx->map->size : ctx->zip.size, ctx->path, ctx->sink);
    if (st != PTODB_OK)
        return st;
    zip_entry *pkl = (zip_entry *)zip_find_suffix(&ctx->zip, "data.pkl");
    if (!pkl)
        PT_ERR(ctx, "no data.pkl record: not a torch.save file");
    size_t nl = strlen(pkl->name);
    ctx->prefix = xstrndup(pkl->name, nl - strlen("data.pkl"));
    char name[300];
    snprintf(name, sizeof name, "%sbyteorder", ctx->prefix);
    const zip_entry *bo = zip_find(&ctx->zip, name);
    if (bo && !(bo->size == 6 && memcmp(ctx->zip.data + bo->data_off, "little", 6) == 0))
        PT_ERR(ctx, "byteorder record is not 'little': big-endian .pt files are not supported");
    if ((st = zip_entry_verify(&ctx->zip, pkl, ctx->sink)) != PTODB_OK)
        return st;
    pk_value *root;
    st = pk_load(ctx->zip.data + pkl->data_off, (size_t)pkl->size, pt_allowed_globals, ctx->path,
                 pkl->name, &root, ctx->sink);
    if (st != PTODB_OK)
        return st;
    st = pt_collect(ctx, root, out);
    pk_unref(root);
    return st;
}

void pt_file_free(pt_file *f)
{
    for (size_t i = 0; i < f->count; i++) {
        free(f->items[i].name);
        tensor_unref(f->items[i].t);
    }
    free(f->items);
    memset(f, 0, sizeof *f);
}

static ptodb_status pt_finish(pt_ctx *ctx, pt_file *out, ptodb_status st)
{
    zip_close(&ctx->zip);
    for (size_t i = 0; i < ctx->nstorages; i++) {
        free(ctx->storages[i].key);
        tensor_storage_unref(ctx->storages[i].s); /* tensors hold their own refs */
    }
    free(ctx->storages);
    free(ctx->prefix);
    mapfile_unref(ctx->map);
    if (st != PTODB_OK)
        pt_file_free(out);
    return st;
}

static ptodb_status pt_load_file(const char *path, pt_file *out, diag_sink *sink)
{
    memset(out, 0, sizeof *out);
    pt_ctx ctx = {.path = path, .sink = sink};
    ptodb_status st = mapfile_open(path, &ctx.map, sink);
    if (st != PTODB_OK)
        return st;
    return pt_finish(&ctx, out, pt_run(&ctx, out));
}

ptodb_status pt_load(const char *path, pt_file *out, diag_sink *sink)
{
    int where = mem_where_push("loading", path);
    ptodb_status result = pt_load_file(path, out, sink);
    mem_where_pop(where);
    return result;
}

ptodb_status pt_load_mem(const unsigned char *data, size_t size, const char *path, pt_file *out,
                         diag_sink *sink)
{
    memset(out, 0, sizeof *out);
    pt_ctx ctx = {.path = path, .sink = sink};
    ctx.zip.data = data;
    ctx.zip.size = size;
    return pt_finish(&ctx, out, pt_run(&ctx, out));
}

ptodb_status pt_load_tensor(const char *path, tensor **out, diag_sink *sink)
{
    pt_file f;
    *out = NULL;
    ptodb_status st = pt_load(path, &f, sink);
    if (st != PTODB_OK)
        return st;
    if (f.count != 1) {
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL,
                    "expected one tensor, the file holds %zu", f.count);
        pt_file_free(&f);
        return PTODB_ERR_FORMAT;
    }
    *out = tensor_ref(f.items[0].t);
    pt_file_free(&f);
    return PTODB_OK;
}

/* ---- writer ------------------------------------------------------------- */

static void pkl_int(strbuf *sb, int64_t v)
{
    unsigned char b[10];
    if (v >= 0 && v < 256) {
        b[0] = 'K';
        b[1] = (unsigned char)v;
        strbuf_append(sb, (char *)b, 2);
    } else if (v >= 0 && v < 65536) {
        b[0] = 'M';
        b[1] = (unsigned char)v;
        b[2] = (unsigned char)(v >> 8);
        strbuf_append(sb, (char *)b, 3);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
        uint32_t u = (uint32_t)(int32_t)v;
        b[0] = 'J';
        for (int i = 0; i < 4; i++)
            b[1 + i] = (unsigned char)(u >> (8 * i));
        strbuf_append(sb, (char *)b, 5);
    } else {
        /* LONG1 with the minimal two's-complement length, as pickle does */
        uint64_t u = (uint64_t)v;
        int n = 8;
        while (n > 1) {
            unsigned char top = (unsigned char)(u >> (8 * (n - 1)));
            unsigned char next = (unsigned char)(u >> (8 * (n - 2)));
            if ((top == 0 && !(next & 0x80)) || (top == 0xFF && (next & 0x80)))
                n--;
            else
                break;
        }
        b[0] = 0x8a;
        b[1] = (unsigned char)n;
        for (int i = 0; i < n; i++)
            b[2 + i] = (unsigned char)(u >> (8 * i));
        strbuf_append(sb, (char *)b, (size_t)(2 + n));
    }
}

static void pkl_str(strbuf *sb, const char *s)
{
    uint32_t n = (uint32_t)strlen(s);
    unsigned char b[5] = {'X', (unsigned char)n, (unsigned char)(n >> 8), (unsigned char)(n >> 16),
                          (unsigned char)(n >> 24)};
    strbuf_append(sb, (char *)b, 5);
    strbuf_append(sb, s, n);
}

static void pkl_put(strbuf *sb, int idx)
{
    char b[2] = {'q', (char)idx};
    strbuf_append(sb, b, 2);
}

static void pkl_tuple(strbuf *sb, int n, const int64_t *v)
{
    if (n == 0) {
        strbuf_putc(sb, ')');
        return;
    }
    if (n > 3)
        strbuf_putc(sb, '(');
    for (int i = 0; i < n; i++)
        pkl_int(sb, v[i]);
    if (n <= 3)
        strbuf_putc(sb, (char)(0x84 + n));
    else
        strbuf_putc(sb, 't');
}

static const char *pt_storage_class_of(dtype_id dt)
{
    switch (dt) {
    case DTYPE_FP64: return "DoubleStorage";
    case DTYPE_FP32: return "FloatStorage";
    case DTYPE_FP16: return "HalfStorage";
    case DTYPE_BF16: return "BFloat16Storage";
    case DTYPE_INDEX:
    case DTYPE_INT64: return "LongStorage";
    case DTYPE_INT32: return "IntStorage";
    case DTYPE_INT16: return "ShortStorage";
    case DTYPE_INT8: return "CharStorage";
    case DTYPE_UINT8: return "ByteStorage";
    case DTYPE_BOOL: return "BoolStorage";
    default: return NULL;
    }
}

ptodb_status pt_save(const char *path, const tensor *t, diag_sink *sink)
{
    diag_loc loc = {path, 0, 0};
    const char *cls = pt_storage_class_of(t->dtype);
    /* dtypes without a legacy storage class go as torch.save writes them:
     * an UntypedStorage of bytes plus the dtype (_rebuild_tensor_v3) */
    int v3 = t->dtype == DTYPE_FP8E4M3FN || t->dtype == DTYPE_FP8E5M2 || t->dtype == DTYPE_FP8E8M0;
    if (v3)
        cls = "UntypedStorage"; /* class torch.storage.UntypedStorage */
    if (!cls) {
        diag_report(sink, DIAG_ERROR, loc, NULL, "cannot write %s as .pt: torch has no storage class for it",
                    dtype_name(t->dtype));
        return PTODB_ERR_UNSUPPORTED;
    }
    tensor *c = tensor_clone(t);
    if (!c) {
        diag_report(sink, DIAG_ERROR, loc, NULL, "tensor too large to write");
        return PTODB_ERR_FORMAT;
    }
    /* Archive prefix: the file stem, as torch.save names it. */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    char *stem = xstrndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));

    strbuf pk = STRBUF_INIT;
    strbuf_append(&pk, "\x80\x02", 2);
    strbuf_puts(&pk, v3 ? "ctorch._utils\n_rebuild_tensor_v3\n" : "ctorch._utils\n_rebuild_tensor_v2\n");
    pkl_put(&pk, 0);
    strbuf_puts(&pk, "((");
    pkl_str(&pk, "storage");
    pkl_put(&pk, 1);
    strbuf_printf(&pk, "ctorch%s\n%s\n", v3 ? ".storage" : "", cls);
    pkl_put(&pk, 2);
    pkl_str(&pk, "0");
    pkl_put(&pk, 3);
    pkl_str(&pk, "cpu");
    pkl_put(&pk, 4);
    pkl_int(&pk, tensor_numel(c) * (v3 ? (int64_t)dtype_size(c->dtype) : 1)); /* untyped: bytes */
    strbuf_putc(&pk, 't');
    pkl_put(&pk, 5);
    strbuf_putc(&pk, 'Q');
    pkl_int(&pk, 0);
    pkl_tuple(&pk, c->ndim, c->shape);
    pkl_put(&pk, 6);
    pkl_tuple(&pk, c->ndim, c->strides);
    pkl_put(&pk, 7);
    strbuf_putc(&pk, (char)0x89);
    strbuf_puts(&pk, "ccollections\nOrderedDict\n");
    pkl_put(&pk, 8);
    strbuf_puts(&pk, ")R");
    pkl_put(&pk, 9);
    int memo = 10;
    if (v3) {
        strbuf_printf(&pk, "ctorch\n%s\n", dtype_torch_name(c->dtype) + 6);
        pkl_put(&pk, memo++);
    }
    strbuf_putc(&pk, 't');
    pkl_put(&pk, memo++);
    strbuf_putc(&pk, 'R');
    pkl_put(&pk, memo);
    strbuf_putc(&pk, '.');

    ptodb_status st = PTODB_OK;
    atomic_file af;
    if (atomic_file_open(&af, path) != 0) {
        diag_report(sink, DIAG_ERROR, loc, NULL, "cannot create: %s", strerror(errno));
        st = PTODB_ERR_IO;
    } else {
        FILE *out = af.f;
        zip_writer w;
        zip_writer_init(&w, out);
        char name[512];
        snprintf(name, sizeof name, "%s/data.pkl", stem);
        zip_writer_add(&w, name, pk.data, pk.len);
        snprintf(name, sizeof name, "%s/byteorder", stem);
        zip_writer_add(&w, name, "little", 6);
        snprintf(name, sizeof name, "%s/data/0", stem);
        zip_writer_add(&w, name, c->storage->data, c->storage->nbytes);
        snprintf(name, sizeof name, "%s/version", stem);
        zip_writer_add(&w, name, "3\n", 2);
        int bad = zip_writer_finish(&w);
        if (bad) {
            atomic_file_abort(&af);
            errno = errno ? errno : EIO;
        }
        if (bad || atomic_file_commit(&af) != 0) {
            diag_report(sink, DIAG_ERROR, loc, NULL, "write failed: %s", strerror(errno));
            st = PTODB_ERR_IO;
        }
    }
    strbuf_free(&pk);
    free(stem);
    tensor_unref(c);
    return st;
}
