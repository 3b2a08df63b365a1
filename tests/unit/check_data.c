/* Unit tests for src/data: ZIP container, pickle subset, .pt and .npy
 * readers and writers, on files built in memory or in a temp dir. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/mem.h"
#include "data/case.h"
#include "data/mapfile.h"
#include "data/npy.h"
#include "data/pickle.h"
#include "data/pt.h"
#include "data/zip.h"

static char tmpdir[64];

static void setup(void)
{
    strcpy(tmpdir, "/tmp/ptodb-check-data-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

static char *tmp_path(const char *name)
{
    static char buf[4][256]; /* test-local scratch */
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

/* Builds an archive "a/..." with a data.pkl and storages into memory. */
static unsigned char *build_pt(const void *pkl, size_t pkl_len, const char *const *keys,
                               const void *const *datas, const size_t *sizes, size_t nstorage,
                               size_t *out_len)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    zip_writer w;
    zip_writer_init(&w, f);
    zip_writer_add(&w, "a/data.pkl", pkl, pkl_len);
    for (size_t i = 0; i < nstorage; i++) {
        char name[64];
        snprintf(name, sizeof name, "a/data/%s", keys[i]);
        zip_writer_add(&w, name, datas[i], sizes[i]);
    }
    zip_writer_add(&w, "a/version", "3\n", 2);
    ck_assert_int_eq(zip_writer_finish(&w), 0);
    fclose(f);
    *out_len = len;
    return (unsigned char *)buf;
}

START_TEST(test_pt_roundtrip_dtypes)
{
    static const dtype_id dts[] = {DTYPE_FP32, DTYPE_BF16,  DTYPE_FP16,      DTYPE_FP64,    DTYPE_INT64,
                                   DTYPE_INT32, DTYPE_INT16, DTYPE_INT8,      DTYPE_UINT8,   DTYPE_BOOL,
                                   DTYPE_FP8E4M3FN, DTYPE_FP8E5M2, DTYPE_FP8E8M0};
    static const int64_t shapes[][5] = {{2, 3}, {70000}, {2, 1, 3, 2, 2}, {0, 4}};
    static const int nds[] = {2, 1, 5, 2};
    diag_sink sink;
    diag_sink_init(&sink, 0);
    for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
        for (size_t s = 0; s < 4; s++) {
            tensor *t = tensor_zeros(dts[k], nds[s], shapes[s], NULL);
            for (int64_t i = 0; i < tensor_numel(t); i++)
                dtype_store(dts[k], t->storage->data, (size_t)i, (double)(i % 97) - 40.0);
            char *p = tmp_path("rt.pt");
            ck_assert_int_eq(pt_save(p, t, &sink), PTODB_OK);
            tensor *r;
            ck_assert_int_eq(pt_load_tensor(p, &r, &sink), PTODB_OK);
            ck_assert_int_eq(r->dtype, dts[k]);
            ck_assert_int_eq(r->ndim, nds[s]);
            for (int d = 0; d < nds[s]; d++)
                ck_assert_int_eq(r->shape[d], shapes[s][d]);
            ck_assert_int_eq(memcmp(tensor_data(r), tensor_data(t), t->storage->nbytes), 0);
            tensor_unref(r);
            tensor_unref(t);
        }
    }
    /* 0-d and a non-contiguous source */
    tensor *sc = tensor_scalar(DTYPE_INT64, -123456789012345.0);
    ck_assert_int_eq(pt_save(tmp_path("s.pt"), sc, &sink), PTODB_OK);
    tensor *r;
    ck_assert_int_eq(pt_load_tensor(tmp_path("s.pt"), &r, &sink), PTODB_OK);
    ck_assert_int_eq(r->ndim, 0);
    ck_assert(tensor_get_i64(r, NULL) == -123456789012345LL);
    tensor_unref(r);
    tensor_unref(sc);
    tensor *u16 = tensor_zeros(DTYPE_UINT16, 1, (int64_t[]){2}, NULL);
    ck_assert_int_eq(pt_save(tmp_path("u.pt"), u16, &sink), PTODB_ERR_UNSUPPORTED);
    tensor_unref(u16);
    diag_sink_free(&sink);
}
END_TEST

START_TEST(test_pt_layout_matches_torch)
{
    /* The pickle ptodb writes for a 64x64 float tensor is byte for byte the
     * one torch 1.13 wrote for fixtures' softmax a.pt (semantics.md §9.2). */
    static const unsigned char torch_pkl[] =
        "\x80\x02\x63torch._utils\n_rebuild_tensor_v2\nq\x00((X\x07\x00\x00\x00storageq\x01"
        "ctorch\nFloatStorage\nq\x02X\x01\x00\x00\x00" "0q\x03X\x03\x00\x00\x00" "cpuq\x04M\x00\x10"
        "tq\x05QK\x00K@K@\x86q\x06K@K\x01\x86q\x07\x89" "ccollections\nOrderedDict\nq\x08)Rq\x09tq\x0aRq\x0b.";
    diag_sink sink;
    diag_sink_init(&sink, 0);
    tensor *t = tensor_zeros(DTYPE_FP32, 2, (int64_t[]){64, 64}, NULL);
    char *p = tmp_path("a.pt");
    ck_assert_int_eq(pt_save(p, t, &sink), PTODB_OK);
    FILE *f = fopen(p, "rb");
    unsigned char buf[40000];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    zip_archive z;
    ck_assert_int_eq(zip_open(&z, buf, n, p, &sink), PTODB_OK);
    const zip_entry *e = zip_find(&z, "a/data.pkl");
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->size, sizeof torch_pkl - 1);
    ck_assert_int_eq(memcmp(buf + e->data_off, torch_pkl, sizeof torch_pkl - 1), 0);
    ck_assert_uint_eq(e->data_off % 64, 0);
    e = zip_find(&z, "a/data/0");
    ck_assert_uint_eq(e->data_off % 64, 0);
    ck_assert_uint_eq(e->size, 16384);
    zip_close(&z);
    tensor_unref(t);
    diag_sink_free(&sink);
}
END_TEST

/* torch.save writes float8 tensors as _rebuild_tensor_v3 over an
 * UntypedStorage of bytes plus the dtype (torch/storage.py _new_dtypes).
 * The pickle here is that form, built by hand, for a [2, 3] float8_e4m3fn
 * tensor with a storage offset of 1 and column-major strides; its 7 bytes
 * hold 1.0, -2.0, 448, NaN, 2^-9, -0.0 and one byte before the view. */
START_TEST(test_pt_float8_v3)
{
    static const unsigned char pkl[] =
        "\x80\x02\x63torch._utils\n_rebuild_tensor_v3\nq\x00((X\x07\x00\x00\x00storageq\x01"
        "ctorch.storage\nUntypedStorage\nq\x02X\x01\x00\x00\x00" "0q\x03X\x03\x00\x00\x00" "cpuq\x04K\x07"
        "tq\x05QK\x01K\x02K\x03\x86q\x06K\x01K\x02\x86q\x07\x89" "ccollections\nOrderedDict\nq\x08)Rq\x09"
        "ctorch\nfloat8_e4m3fn\nq\x0atq\x0bRq\x0c.";
    static const unsigned char bytes[7] = {0x11, 0x38, 0xC0, 0x7E, 0x7F, 0x01, 0x80};
    diag_sink sink;
    diag_sink_init(&sink, 0);
    const char *keys[] = {"0"};
    const void *datas[] = {bytes};
    size_t sizes[] = {sizeof bytes}, len;
    unsigned char *zip = build_pt(pkl, sizeof pkl - 1, keys, datas, sizes, 1, &len);
    pt_file pf;
    ck_assert_int_eq(pt_load_mem(zip, len, "f.pt", &pf, &sink), PTODB_OK);
    ck_assert_uint_eq(pf.count, 1);
    tensor *t = pf.items[0].t;
    ck_assert_int_eq(t->dtype, DTYPE_FP8E4M3FN);
    /* element [r][c] is storage byte 1 + r + 2c */
    ck_assert(tensor_get(t, (int64_t[]){0, 0}) == 1.0);
    ck_assert(tensor_get(t, (int64_t[]){1, 0}) == -2.0);
    ck_assert(tensor_get(t, (int64_t[]){0, 1}) == 448.0);
    ck_assert(isnan(tensor_get(t, (int64_t[]){1, 1})));
    ck_assert(tensor_get(t, (int64_t[]){0, 2}) == 0x1p-9);
    double z = tensor_get(t, (int64_t[]){1, 2});
    ck_assert(z == 0.0 && signbit(z));
    pt_file_free(&pf);
    free(zip);
    /* ptodb writes the same form, and reads back what it wrote */
    tensor *w = tensor_zeros(DTYPE_FP8E8M0, 1, (int64_t[]){3}, NULL);
    w->storage->data[0] = 0x7F;
    w->storage->data[1] = 0xFF;
    char *p = tmp_path("e8m0.pt");
    ck_assert_int_eq(pt_save(p, w, &sink), PTODB_OK);
    FILE *f = fopen(p, "rb");
    unsigned char file[4096];
    size_t flen = fread(file, 1, sizeof file, f);
    fclose(f);
    ck_assert_ptr_nonnull(memmem(file, flen, "_rebuild_tensor_v3", 18));
    ck_assert_ptr_nonnull(memmem(file, flen, "ctorch\nfloat8_e8m0fnu\n", 22));
    tensor *r;
    ck_assert_int_eq(pt_load_tensor(p, &r, &sink), PTODB_OK);
    ck_assert_int_eq(r->dtype, DTYPE_FP8E8M0);
    ck_assert(tensor_get(r, (int64_t[]){0}) == 1.0);
    ck_assert(isnan(tensor_get(r, (int64_t[]){1})));
    ck_assert(tensor_get(r, (int64_t[]){2}) == 0x1p-127);
    tensor_unref(r);
    tensor_unref(w);
    diag_sink_free(&sink);
}
END_TEST

/* torch's float4_e2m1fn_x2 (two E2M1 codes a byte, low nibble first, in a
 * physical shape of half the last dim, as PyPTO's tests pack FP4) loads as
 * float32 of the logical shape. Bytes 0x10, 0x32, 0x98, 0xF7 hold the codes
 * 0..3, 8 (-0.0), 9, 7 and 15: 0 0.5 1 1.5 / -0 -0.5 6 -6. */
START_TEST(test_pt_float4)
{
    static const unsigned char pkl[] =
        "\x80\x02\x63torch._utils\n_rebuild_tensor_v3\nq\x00((X\x07\x00\x00\x00storageq\x01"
        "ctorch.storage\nUntypedStorage\nq\x02X\x01\x00\x00\x00" "0q\x03X\x03\x00\x00\x00" "cpuq\x04K\x04"
        "tq\x05QK\x00K\x02K\x02\x86q\x06K\x02K\x01\x86q\x07\x89" "ccollections\nOrderedDict\nq\x08)Rq\x09"
        "ctorch\nfloat4_e2m1fn_x2\nq\x0atq\x0bRq\x0c.";
    static const unsigned char bytes[4] = {0x10, 0x32, 0x98, 0xF7};
    const char *keys[] = {"0"};
    const void *datas[] = {bytes};
    size_t sizes[] = {sizeof bytes}, len;
    unsigned char *zip = build_pt(pkl, sizeof pkl - 1, keys, datas, sizes, 1, &len);
    diag_sink sink;
    diag_sink_init(&sink, 0);
    pt_file pf;
    ck_assert_int_eq(pt_load_mem(zip, len, "f4.pt", &pf, &sink), PTODB_OK);
    tensor *t = pf.items[0].t;
    ck_assert_int_eq(t->dtype, DTYPE_FP32);
    ck_assert_int_eq(t->ndim, 2);
    ck_assert_int_eq(t->shape[0], 2);
    ck_assert_int_eq(t->shape[1], 4);
    static const double want[8] = {0, 0.5, 1, 1.5, -0.0, -0.5, 6, -6};
    for (int k = 0; k < 8; k++) {
        double v = tensor_get_flat(t, k);
        ck_assert_msg(v == want[k] && signbit(v) == signbit(want[k]), "element %d: %g", k, v);
    }
    pt_file_free(&pf);
    free(zip);
    diag_sink_free(&sink);
}
END_TEST

/* float8 in .npy: np.save writes ml_dtypes' float8 arrays as '|V1', which
 * does not say which float8 it is; a manifest's dtype (the hint) does. */
START_TEST(test_npy_float8)
{
    diag_sink sink;
    diag_sink_init(&sink, 0);
    tensor *t = tensor_zeros(DTYPE_FP8E5M2, 2, (int64_t[]){2, 2}, NULL);
    static const unsigned char codes[4] = {0x3C, 0xFC, 0x7F, 0x01}; /* 1, -inf, NaN, 2^-16 */
    memcpy(t->storage->data, codes, 4);
    char *p = tmp_path("f8.npy");
    ck_assert_int_eq(npy_save(p, t, &sink), PTODB_OK);
    tensor *r;
    ck_assert_int_eq(npy_load(p, DTYPE_COUNT, &r, &sink), PTODB_ERR_FORMAT);
    ck_assert_int_eq(npy_load(p, DTYPE_FP8E5M2, &r, &sink), PTODB_OK);
    ck_assert_int_eq(r->dtype, DTYPE_FP8E5M2);
    ck_assert(tensor_get(r, (int64_t[]){0, 0}) == 1.0);
    ck_assert(isinf(tensor_get(r, (int64_t[]){0, 1})) && tensor_get(r, (int64_t[]){0, 1}) < 0);
    ck_assert(isnan(tensor_get(r, (int64_t[]){1, 0})));
    ck_assert(tensor_get(r, (int64_t[]){1, 1}) == 0x1p-16);
    tensor_unref(r);
    tensor_unref(t);
    /* uint8 codes read as E8M0 scales */
    tensor *u = tensor_zeros(DTYPE_UINT8, 1, (int64_t[]){3}, NULL);
    u->storage->data[0] = 127;
    u->storage->data[1] = 130;
    u->storage->data[2] = 255;
    ck_assert_int_eq(npy_save(tmp_path("u8.npy"), u, &sink), PTODB_OK);
    ck_assert_int_eq(npy_load(tmp_path("u8.npy"), DTYPE_FP8E8M0, &r, &sink), PTODB_OK);
    ck_assert(tensor_get(r, (int64_t[]){0}) == 1.0 && tensor_get(r, (int64_t[]){1}) == 8.0);
    ck_assert(isnan(tensor_get(r, (int64_t[]){2})));
    tensor_unref(r);
    tensor_unref(u);
    char *text = diag_sink_error_text(&sink);
    ck_assert_ptr_nonnull(strstr(text, "names no dtype"));
    free(text);
    diag_sink_free(&sink);
}
END_TEST

/* A pickle for {'x': T(storage '0', offset 2, [2,2], [1,2]), 'y': T(storage
 * '0', offset 0, [3], [1])} with a shared FloatStorage of 6 elements. */
static const unsigned char shared_pkl[] =
    "\x80\x02}q\x00(X\x01\x00\x00\x00xq\x01"
    "ctorch._utils\n_rebuild_tensor_v2\nq\x02((X\x07\x00\x00\x00storageq\x03"
    "ctorch\nFloatStorage\nq\x04X\x01\x00\x00\x00" "0q\x05X\x03\x00\x00\x00" "cpuq\x06K\x06tq\x07Q"
    "K\x02K\x02K\x02\x86K\x01K\x02\x86\x89" "ccollections\nOrderedDict\nq\x08)Rtq\x09Rq\x0a"
    "X\x01\x00\x00\x00yq\x0bh\x02(h\x07QK\x00K\x03\x85K\x01\x85\x89h\x08)Rtq\x0cRq\x0du.";

START_TEST(test_pt_dict_shared_storage)
{
    float data[6] = {0, 1, 2, 3, 4, 5};
    const char *keys[] = {"0"};
    const void *datas[] = {data};
    size_t sizes[] = {sizeof data};
    size_t len;
    unsigned char *buf = build_pt(shared_pkl, sizeof shared_pkl - 1, keys, datas, sizes, 1, &len);
    diag_sink sink;
    diag_sink_init(&sink, 0);
    pt_file f;
    ck_assert_int_eq(pt_load_mem(buf, len, "mem.pt", &f, &sink), PTODB_OK);
    ck_assert_int_eq(f.kind, PT_DICT);
    ck_assert_uint_eq(f.count, 2);
    ck_assert_str_eq(f.items[0].name, "x");
    ck_assert_str_eq(f.items[1].name, "y");
    tensor *x = f.items[0].t, *y = f.items[1].t;
    ck_assert_ptr_eq(x->storage, y->storage); /* shared, as in torch */
    ck_assert_double_eq(tensor_get(x, (int64_t[]){1, 1}), 5.0); /* 2 + 1*1 + 1*2 */
    ck_assert_double_eq(tensor_get(x, (int64_t[]){1, 0}), 3.0);
    tensor_set(y, (int64_t[]){2}, 42.0);
    ck_assert_double_eq(tensor_get(x, (int64_t[]){0, 0}), 42.0);
    pt_file_free(&f);
    free(buf);
    diag_sink_free(&sink);
}
END_TEST

START_TEST(test_pt_v3_untyped)
{
    /* torch 2.x form for dtypes without a legacy storage class
     * (semantics.md §9.2): _rebuild_tensor_v3 with an UntypedStorage whose
     * count is in bytes and a dtype global. */
    static const char pkl[] =
        "\x80\x02" "ctorch._utils\n_rebuild_tensor_v3\nq\x00((X\x07\x00\x00\x00storageq\x01"
        "ctorch\nUntypedStorage\nq\x02X\x01\x00\x00\x00" "0q\x03X\x03\x00\x00\x00" "cpuq\x04K\x0ctq\x05Q"
        "K\x00K\x02K\x03\x86K\x03K\x01\x86\x89" "ccollections\nOrderedDict\n)R" "ctorch\nuint16\ntR.";
    uint16_t data[6] = {1, 2, 3, 65535, 5, 6};
    const char *keys[] = {"0"};
    const void *datas[] = {data};
    size_t sizes[] = {sizeof data};
    size_t len;
    unsigned char *buf = build_pt(pkl, sizeof pkl - 1, keys, datas, sizes, 1, &len);
    diag_sink sink;
    diag_sink_init(&sink, 0);
    pt_file f;
    ck_assert_int_eq(pt_load_mem(buf, len, "v3.pt", &f, &sink), PTODB_OK);
    ck_assert_int_eq(f.items[0].t->dtype, DTYPE_UINT16);
    ck_assert_int_eq(f.items[0].t->shape[1], 3);
    ck_assert_double_eq(tensor_get(f.items[0].t, (int64_t[]){1, 0}), 65535.0);
    pt_file_free(&f);
    free(buf);
    /* the byte count must match: 10 bytes for 6 uint16 is refused */
    sizes[0] = 10;
    buf = build_pt(pkl, sizeof pkl - 1, keys, datas, sizes, 1, &len);
    ck_assert_int_eq(pt_load_mem(buf, len, "v3.pt", &f, &sink), PTODB_ERR_FORMAT);
    free(buf);
    diag_sink_free(&sink);
}
END_TEST

static ptodb_status load_pickle_status(const char *pkl, size_t len, char *msg, size_t msgsize)
{
    float data[6] = {0};
    const char *keys[] = {"0"};
    const void *datas[] = {data};
    size_t sizes[] = {sizeof data};
    size_t blen;
    unsigned char *buf = build_pt(pkl, len, keys, datas, sizes, 1, &blen);
    diag_sink sink;
    diag_sink_init(&sink, 0);
    pt_file f;
    ptodb_status st = pt_load_mem(buf, blen, "mem.pt", &f, &sink);
    if (st == PTODB_OK)
        pt_file_free(&f);
    msg[0] = '\0';
    if (sink.count) {
        char *m = diag_format(&sink.items[0]);
        snprintf(msg, msgsize, "%s", m);
        free(m);
    }
    ck_assert_uint_le(sink.errors, 1); /* one clear error, not a cascade */
    diag_sink_free(&sink);
    free(buf);
    return st;
}

START_TEST(test_pickle_refuses_code)
{
    char msg[512];
    static const char evil[] = "\x80\x02" "cos\nsystem\nq\x00X\x04\x00\x00\x00trueq\x01\x85R.";
    ck_assert_int_eq(load_pickle_status(evil, sizeof evil - 1, msg, sizeof msg), PTODB_ERR_FORMAT);
    ck_assert_msg(strstr(msg, "forbidden global 'os.system'") != NULL, "%s", msg);
    static const char evil2[] = "\x80\x04\x8c\x08" "builtins\x8c\x04" "eval\x93.";
    ck_assert_int_eq(load_pickle_status(evil2, sizeof evil2 - 1, msg, sizeof msg), PTODB_ERR_FORMAT);
    ck_assert_msg(strstr(msg, "forbidden global 'builtins.eval'") != NULL, "%s", msg);
    /* a list that contains itself */
    static const char cyc[] = "\x80\x02]q\x00h\x00" "a.";
    ck_assert_int_eq(load_pickle_status(cyc, sizeof cyc - 1, msg, sizeof msg), PTODB_ERR_FORMAT);
    /* deep nesting */
    char deep[2100];
    size_t n = 0;
    deep[n++] = '\x80';
    deep[n++] = 2;
    deep[n++] = ')';
    for (int i = 0; i < 1000; i++)
        deep[n++] = '\x85';
    deep[n++] = '.';
    ck_assert_int_eq(load_pickle_status(deep, n, msg, sizeof msg), PTODB_ERR_FORMAT);
    ck_assert_msg(strstr(msg, "nested too deeply") != NULL, "%s", msg);
    /* opcodes outside the subset */
    static const char inst[] = "\x80\x02i__builtin__\nobject\n.";
    ck_assert_int_eq(load_pickle_status(inst, sizeof inst - 1, msg, sizeof msg), PTODB_ERR_FORMAT);
    ck_assert_msg(strstr(msg, "unsupported pickle opcode 0x69") != NULL, "%s", msg);
}
END_TEST

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* Writes an .npy with the given version, header dict and payload. */
static void write_npy(const char *path, int version, const char *dict, const void *data, size_t len)
{
    unsigned char buf[512];
    size_t hl = strlen(dict), pre = version == 1 ? 10 : 12, n = 0;
    size_t total = pre + hl + 1;
    size_t pad = (64 - total % 64) % 64;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)version;
    buf[7] = 0;
    size_t hlen = hl + pad + 1;
    buf[8] = (unsigned char)hlen;
    buf[9] = (unsigned char)(hlen >> 8);
    if (version != 1)
        buf[10] = buf[11] = 0;
    n = pre;
    memcpy(buf + n, dict, hl);
    n += hl;
    memset(buf + n, ' ', pad);
    n += pad;
    buf[n++] = '\n';
    memcpy(buf + n, data, len);
    write_file(path, buf, n + len);
}

START_TEST(test_npy_variants)
{
    diag_sink sink;
    diag_sink_init(&sink, 0);
    tensor *t;
    float f[6] = {0, 1, 2, 3, 4, 5};
    write_npy(tmp_path("c.npy"), 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f, sizeof f);
    ck_assert_int_eq(npy_load(tmp_path("c.npy"), DTYPE_COUNT, &t, &sink), PTODB_OK);
    ck_assert_double_eq(tensor_get(t, (int64_t[]){1, 0}), 3.0);
    tensor_unref(t);
    /* Fortran order: column-major, no copy */
    write_npy(tmp_path("f.npy"), 2, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", f, sizeof f);
    ck_assert_int_eq(npy_load(tmp_path("f.npy"), DTYPE_COUNT, &t, &sink), PTODB_OK);
    ck_assert_double_eq(tensor_get(t, (int64_t[]){1, 0}), 1.0);
    ck_assert_double_eq(tensor_get(t, (int64_t[]){0, 2}), 4.0);
    tensor_unref(t);
    /* big-endian int32, version 3 */
    unsigned char be[8] = {0, 0, 1, 2, 0xFF, 0xFF, 0xFF, 0xFE};
    write_npy(tmp_path("b.npy"), 3, "{\"descr\": \">i4\", \"fortran_order\": False, \"shape\": (2,)}", be, 8);
    ck_assert_int_eq(npy_load(tmp_path("b.npy"), DTYPE_COUNT, &t, &sink), PTODB_OK);
    ck_assert_int_eq(t->dtype, DTYPE_INT32);
    ck_assert_double_eq(tensor_get_flat(t, 0), 258.0);
    ck_assert_double_eq(tensor_get_flat(t, 1), -2.0);
    tensor_unref(t);
    /* bf16: '<V2', 'bfloat16', or '<u2' with a hint */
    uint16_t h[2] = {0x3F80, 0xC020};
    write_npy(tmp_path("v.npy"), 1, "{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }", h, 4);
    ck_assert_int_eq(npy_load(tmp_path("v.npy"), DTYPE_COUNT, &t, &sink), PTODB_OK);
    ck_assert_int_eq(t->dtype, DTYPE_BF16);
    ck_assert_double_eq(tensor_get_flat(t, 1), -2.5);
    tensor_unref(t);
    write_npy(tmp_path("u.npy"), 1, "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }", h, 4);
    ck_assert_int_eq(npy_load(tmp_path("u.npy"), DTYPE_COUNT, &t, &sink), PTODB_OK);
    ck_assert_int_eq(t->dtype, DTYPE_UINT16);
    tensor_unref(t);
    ck_assert_int_eq(npy_load(tmp_path("u.npy"), DTYPE_BF16, &t, &sink), PTODB_OK);
    ck_assert_int_eq(t->dtype, DTYPE_BF16);
    ck_assert_double_eq(tensor_get_flat(t, 0), 1.0);
    tensor_unref(t);
    ck_assert_int_eq(sink.errors, 0);
    ck_assert_int_eq(npy_load(tmp_path("c.npy"), DTYPE_BF16, &t, &sink), PTODB_ERR_FORMAT);
    /* 0-d */
    write_npy(tmp_path("z.npy"), 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }",
              (double[]){2.5}, 8);
    ck_assert_int_eq(npy_load(tmp_path("z.npy"), DTYPE_COUNT, &t, &sink), PTODB_OK);
    ck_assert_int_eq(t->ndim, 0);
    ck_assert_double_eq(tensor_get(t, NULL), 2.5);
    tensor_unref(t);
    diag_sink_free(&sink);
}
END_TEST

START_TEST(test_npy_roundtrip_and_raw)
{
    diag_sink sink;
    diag_sink_init(&sink, 0);
    int64_t shape[3] = {3, 4, 5};
    tensor *t = tensor_zeros(DTYPE_BF16, 3, shape, NULL);
    for (int64_t i = 0; i < 60; i++)
        dtype_store(DTYPE_BF16, t->storage->data, (size_t)i, (double)i / 3.0);
    tensor *tt = tensor_transpose(t, 0, 2, NULL); /* saved as a contiguous copy */
    ck_assert_int_eq(npy_save(tmp_path("r.npy"), tt, &sink), PTODB_OK);
    tensor *r;
    ck_assert_int_eq(npy_load(tmp_path("r.npy"), DTYPE_COUNT, &r, &sink), PTODB_OK);
    ck_assert_int_eq(r->dtype, DTYPE_BF16);
    ck_assert_int_eq(r->shape[0], 5);
    for (int64_t k = 0; k < 60; k++)
        ck_assert_double_eq(tensor_get_flat(r, k), tensor_get_flat(tt, k));
    tensor_unref(r);
    /* raw: the same bytes with an offset */
    unsigned char raw[16 + 120];
    memset(raw, 0xAB, 16);
    memcpy(raw + 16, t->storage->data, 120);
    write_file(tmp_path("w.bin"), raw, sizeof raw);
    ck_assert_int_eq(raw_load(tmp_path("w.bin"), DTYPE_BF16, 3, shape, 16, &r, &sink), PTODB_OK);
    ck_assert_double_eq(tensor_get_flat(r, 59), tensor_get_flat(t, 59));
    tensor_unref(r);
    ck_assert_int_eq(raw_load(tmp_path("w.bin"), DTYPE_BF16, 3, shape, 0, &r, &sink), PTODB_ERR_FORMAT);
    tensor_unref(tt);
    tensor_unref(t);
    diag_sink_free(&sink);
}
END_TEST

/* Bit-at-a-time CRC-32: the textbook definition, shares nothing with the
 * table and carry-less-multiply versions in zip.c. */
static uint32_t crc_bitwise(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

START_TEST(test_crc_fast_paths)
{
    size_t cap = 70000;
    unsigned char *buf = xmalloc(cap + 16);
    uint32_t x = 12345;
    for (size_t i = 0; i < cap + 16; i++) {
        x = x * 1103515245u + 12345u;
        buf[i] = (unsigned char)(x >> 16);
    }
    for (size_t len = 0; len < 1100; len++)
        for (size_t off = 0; off < 3; off++)
            ck_assert_uint_eq(zip_crc32(0, buf + off, len), crc_bitwise(buf + off, len));
    ck_assert_uint_eq(zip_crc32(0, buf + 5, cap), crc_bitwise(buf + 5, cap));
    /* chaining: crc(a || b) from crc(a) */
    ck_assert_uint_eq(zip_crc32(zip_crc32(0, buf, 333), buf + 333, cap - 333), crc_bitwise(buf, cap));
    free(buf);
}
END_TEST

/* Deterministic mutation fuzzing: random byte flips, truncations and
 * 32-bit field overwrites of a valid archive must each load or give an
 * error, never crash (the sanitizer build runs this too). CRCs catch most
 * flips inside records, so half the runs also fix up the CRC fields to let
 * mutations reach the pickle and the tensor checks. */
static void fix_crcs(unsigned char *buf, size_t len)
{
    for (size_t p = 0; p + 46 <= len; p++) {
        if (memcmp(buf + p, "PK\x01\x02", 4) != 0)
            continue;
        uint32_t off = (uint32_t)buf[p + 42] | ((uint32_t)buf[p + 43] << 8) | ((uint32_t)buf[p + 44] << 16) |
                       ((uint32_t)buf[p + 45] << 24);
        uint32_t size = (uint32_t)buf[p + 24] | ((uint32_t)buf[p + 25] << 8) | ((uint32_t)buf[p + 26] << 16) |
                        ((uint32_t)buf[p + 27] << 24);
        if ((size_t)off + 30 > len)
            continue;
        size_t data = (size_t)off + 30 + (buf[off + 26] | (buf[off + 27] << 8)) + (buf[off + 28] | (buf[off + 29] << 8));
        if (data > len || size > len - data)
            continue;
        uint32_t crc = zip_crc32(0, buf + data, size);
        for (int k = 0; k < 4; k++)
            buf[p + 16 + k] = (unsigned char)(crc >> (8 * k));
    }
}

START_TEST(test_pt_mutations)
{
    float data[6] = {0, 1, 2, 3, 4, 5};
    const char *keys[] = {"0"};
    const void *datas[] = {data};
    size_t sizes[] = {sizeof data};
    size_t len;
    unsigned char *good = build_pt(shared_pkl, sizeof shared_pkl - 1, keys, datas, sizes, 1, &len);
    unsigned char *buf = xmalloc(len);
    uint32_t x = 2463534242u;
    int loaded = 0;
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(buf, good, len);
        size_t n = len;
        int edits = 1 + iter % 4;
        for (int e = 0; e < edits; e++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            size_t pos = x % len;
            switch ((x >> 20) % 4) {
            case 0: buf[pos] ^= (unsigned char)(1u << ((x >> 8) % 8)); break;
            case 1: buf[pos] = (unsigned char)(x >> 12); break;
            case 2:
                if (pos + 4 <= len) {
                    uint32_t v = (x >> 24) & 1 ? 0xFFFFFFFFu : x;
                    memcpy(buf + pos, &v, 4);
                }
                break;
            default: n = pos; break;
            }
        }
        if (iter % 2)
            fix_crcs(buf, n);
        diag_sink sink;
        diag_sink_init(&sink, 0);
        pt_file f;
        if (pt_load_mem(buf, n, "fuzz.pt", &f, &sink) == PTODB_OK) {
            loaded++;
            for (size_t i = 0; i < f.count; i++) {
                tensor_stats st;
                tensor_compute_stats(f.items[i].t, &st); /* touches every element */
            }
            pt_file_free(&f);
        } else {
            ck_assert_uint_ge(sink.errors, 1);
        }
        diag_sink_free(&sink);
    }
    ck_assert_int_gt(loaded, 0);
    free(buf);
    free(good);
}
END_TEST

START_TEST(test_zip_crc_and_limits)
{
    ck_assert_uint_eq(zip_crc32(0, "123456789", 9), 0xCBF43926u); /* the standard check value */
    ck_assert_uint_eq(zip_crc32(0, "", 0), 0);
    diag_sink sink;
    diag_sink_init(&sink, 0);
    zip_archive z;
    ck_assert_int_eq(zip_open(&z, (const unsigned char *)"hello", 5, "x", &sink), PTODB_ERR_FORMAT);
    diag_sink_free(&sink);
}
END_TEST

START_TEST(test_strip_ssa)
{
    char buf[64];
    ck_assert_str_eq(case_strip_ssa("out__ssa_v3", buf, sizeof buf), "out");
    ck_assert_str_eq(case_strip_ssa("out__ssa_v12", buf, sizeof buf), "out");
    ck_assert_str_eq(case_strip_ssa("a__ssa_v1__ssa_v2", buf, sizeof buf), "a__ssa_v1"); /* once */
    ck_assert_str_eq(case_strip_ssa("out__ssa_v", buf, sizeof buf), "out__ssa_v");
    ck_assert_str_eq(case_strip_ssa("out__ssa_vx1", buf, sizeof buf), "out__ssa_vx1");
    ck_assert_str_eq(case_strip_ssa("x__ssa_v0_y", buf, sizeof buf), "x__ssa_v0_y");
    ck_assert_str_eq(case_strip_ssa("plain", buf, sizeof buf), "plain");
}
END_TEST

START_TEST(test_bind_rules)
{
    /* A case with input a, golden out (pure output) and inout c. */
    diag_sink sink;
    diag_sink_init(&sink, 0);
    case_info c = {0};
    case_tensor ins[2] = {{.name = "a", .t = tensor_zeros(DTYPE_FP32, 1, (int64_t[]){4}, NULL)},
                          {.name = "c", .t = tensor_zeros(DTYPE_BF16, 1, (int64_t[]){2}, NULL)}};
    case_tensor outs[2] = {{.name = "out", .t = tensor_zeros(DTYPE_FP32, 2, (int64_t[]){2, 3}, NULL)},
                           {.name = "c", .t = tensor_zeros(DTYPE_BF16, 1, (int64_t[]){2}, NULL)}};
    c.inputs = ins;
    c.ninputs = 2;
    c.outputs = outs;
    c.noutputs = 2;
    case_param ps[5] = {
        {.name = "a__ssa_v0", .is_tensor = 1, .dtype = DTYPE_FP32, .ndim = 1, .shape = {4}, .dir = CASE_PARAM_IN},
        {.name = "out__ssa_v2", .is_tensor = 1, .dtype = DTYPE_FP32, .ndim = -1, .dir = CASE_PARAM_OUT},
        {.name = "c", .is_tensor = 1, .dtype = DTYPE_FP16, .ndim = 1, .shape = {2}, .dir = CASE_PARAM_INOUT},
        {.name = "tmp", .is_tensor = 1, .dtype = DTYPE_INT32, .ndim = 2, .shape = {2, 2}, .dir = CASE_PARAM_OUT},
        {.name = "n", .is_tensor = 0, .dtype = DTYPE_INT64, .ndim = -1, .dir = CASE_PARAM_IN},
    };
    case_binding b[5];
    ck_assert_int_eq(case_bind(&c, ps, 5, b, &sink), PTODB_ERR_RESOLVE);
    ck_assert_str_eq(b[0].key, "a");
    ck_assert_ptr_ne(b[0].t->storage, ins[0].t->storage); /* a fresh clone per run */
    ck_assert(!b[0].zeros);
    ck_assert(b[1].zeros);
    ck_assert_ptr_eq(b[1].golden, &outs[0]);
    ck_assert_int_eq(b[1].t->ndim, 2);
    ck_assert_int_eq(b[1].t->shape[1], 3);
    ck_assert(!b[2].zeros);
    ck_assert_ptr_eq(b[2].golden, &outs[1]);
    ck_assert(b[3].zeros);
    ck_assert_int_eq(b[3].t->dtype, DTYPE_INT32);
    ck_assert_ptr_null(b[4].t);
    ck_assert_uint_eq(sink.errors, 1);
    ck_assert_uint_eq(sink.warnings, 1); /* c: fp16 parameter, bf16 data */
    char *m = diag_format(&sink.items[sink.count - 1]);
    ck_assert_msg(strstr(m, "Cannot resolve tensor for parameter 'n'. Available keys: ['a', 'c']") != NULL, "%s", m);
    free(m);
    case_bindings_free(b, 5);
    for (int i = 0; i < 2; i++) {
        tensor_unref(ins[i].t);
        tensor_unref(outs[i].t);
    }
    diag_sink_free(&sink);
}
END_TEST

/* A pass's copy-on-write input, written, released and taken again: the
 * next pass sees the file's bytes wherever the last one wrote (also in a
 * forked worker, whose page map is its own), and the mapping is reused so
 * its clean pages stay mapped. Two passes alive at once get two mappings. */
static int cow_round(tensor_storage *s, const unsigned char *want, unsigned char **first)
{
    tensor_storage *c = mapfile_storage_cow(s);
    if (!c || c->nbytes != s->nbytes || memcmp(c->data, want, c->nbytes) != 0)
        return 1;
    if (*first && c->data != *first && access("/proc/self/pagemap", R_OK) == 0)
        return 2; /* not reused */
    *first = c->data;
    /* the first byte, one in a middle page, a run across pages, the last */
    c->data[0] ^= 0xff;
    memset(c->data + c->nbytes / 2, 0x5a, 3 * 4096 + 17);
    c->data[c->nbytes - 1] ^= 0xff;
    tensor_storage_unref(c);
    return 0;
}

START_TEST(test_cow_reset_between_passes)
{
    size_t size = (size_t)3 << 20, off = 64, n = size - off - 100;
    unsigned char *bytes = xmalloc(size);
    for (size_t i = 0; i < size; i++)
        bytes[i] = (unsigned char)(i * 2654435761u >> 13);
    FILE *f = fopen(tmp_path("raw.bin"), "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, size, f), size);
    fclose(f);
    diag_sink sink;
    diag_sink_init(&sink, 0);
    mapfile *m;
    ck_assert_int_eq(mapfile_open(tmp_path("raw.bin"), &m, &sink), PTODB_OK);
    tensor_storage *s = mapfile_storage(m, off, n);
    ck_assert_ptr_nonnull(s);
    unsigned char *first = NULL;
    for (int pass = 0; pass < 3; pass++)
        ck_assert_int_eq(cow_round(s, bytes + off, &first), 0);
    /* two at once: separate bytes */
    tensor_storage *a = mapfile_storage_cow(s), *b = mapfile_storage_cow(s);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_ne(a->data, b->data);
    a->data[5] ^= 0xff;
    ck_assert_int_eq(b->data[5], bytes[off + 5]);
    tensor_storage_unref(a);
    tensor_storage_unref(b);
    first = NULL; /* either may be the one reused next */
    /* a forked worker resets through its own page map */
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        unsigned char *mine = NULL;
        int rc = 0;
        for (int pass = 0; pass < 3 && rc == 0; pass++)
            rc = cow_round(s, bytes + off, &mine);
        _exit(rc);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
    for (int pass = 0; pass < 2; pass++)
        ck_assert_int_eq(cow_round(s, bytes + off, &first), 0);
    ck_assert_int_eq(memcmp(s->data, bytes + off, n), 0); /* the case's own bytes untouched */
    tensor_storage_unref(s);
    mapfile_unref(m);
    diag_sink_free(&sink);
    free(bytes);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("data");
    TCase *tc = tcase_create("files");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_pt_roundtrip_dtypes);
    tcase_add_test(tc, test_pt_layout_matches_torch);
    tcase_add_test(tc, test_pt_float8_v3);
    tcase_add_test(tc, test_npy_float8);
    tcase_add_test(tc, test_pt_float4);
    tcase_add_test(tc, test_pt_dict_shared_storage);
    tcase_add_test(tc, test_pickle_refuses_code);
    tcase_add_test(tc, test_npy_variants);
    tcase_add_test(tc, test_npy_roundtrip_and_raw);
    tcase_add_test(tc, test_zip_crc_and_limits);
    tcase_add_test(tc, test_crc_fast_paths);
    tcase_add_test(tc, test_pt_mutations);
    tcase_add_test(tc, test_pt_v3_untyped);
    tcase_add_test(tc, test_strip_ssa);
    tcase_add_test(tc, test_bind_rules);
    tcase_add_test(tc, test_cow_reset_between_passes);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
