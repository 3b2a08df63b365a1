/* ptodb's device semantics against pto-isa's CPU simulator (issue 42): the
 * outputs of the PTO instruction each op lowers to, computed by drivers over
 * pto-isa cd4a3d3f's -D__CPU_SIM build on seeded inputs and edge cases and
 * stored in tests/data/isa/ (one file a group) by scripts/gen_isa_expected (a developer
 * step; the data are committed, so this needs neither clang nor pto-isa).
 * Every case runs the op with device semantics and compares the valid region
 * bit for bit: integers exactly, floats by their bits (-0.0 is not 0.0),
 * except that any NaN matches any NaN (the simulator's NaN payload is the
 * host's, x86's default NaN, not the device's). The ops these cover are the
 * ones src/exec/op_isa.c marks `checked`: the test holds the two together. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check_ops_util.h"
#include "exec/op_isa.h"

static exec_ctx C;

static dtype_id data_dtype(const char *s)
{
    static const char *const names[] = {"fp32", "fp16", "int32", "int16", "int8", "uint8"};
    static const dtype_id ids[] = {DTYPE_FP32, DTYPE_FP16, DTYPE_INT32, DTYPE_INT16, DTYPE_INT8, DTYPE_UINT8};
    for (int i = 0; i < 6; i++)
        if (strcmp(s, names[i]) == 0)
            return ids[i];
    ck_abort_msg("unknown dtype %s", s);
    return DTYPE_FP32;
}

/* The raw bits of element i of a contiguous tensor. */
static uint64_t elem_bits(const tensor *t, int64_t i)
{
    const unsigned char *p = (const unsigned char *)t->storage->data + (size_t)(t->offset + i) * dtype_size(t->dtype);
    uint64_t v = 0;
    memcpy(&v, p, dtype_size(t->dtype)); /* little-endian hosts */
    return v;
}

static void set_bits(tensor *t, int64_t i, uint64_t v)
{
    unsigned char *p = (unsigned char *)t->storage->data + (size_t)i * dtype_size(t->dtype);
    memcpy(p, &v, dtype_size(t->dtype));
}

typedef struct {
    dtype_id dt;
    const char *dtname;
    int64_t R, C, VR, VC;
    uint64_t *bits; /* R*C for an argument, VR*VC for a result */
} data_tile;

/* 'T dtype R C VR VC bits...': n bits follow (R*C, or VR*VC with valid_only) */
static void parse_tile(char **p, data_tile *t, int valid_only)
{
    char *k = data_tok(p);
    ck_assert_str_eq(k, "T");
    t->dtname = data_tok(p);
    t->dt = data_dtype(t->dtname);
    t->R = atoll(data_tok(p));
    t->C = atoll(data_tok(p));
    t->VR = atoll(data_tok(p));
    t->VC = atoll(data_tok(p));
    int64_t n = valid_only ? t->VR * t->VC : t->R * t->C;
    t->bits = malloc((size_t)n * sizeof *t->bits);
    for (int64_t i = 0; i < n; i++) {
        char *b = data_tok(p);
        ck_assert_ptr_nonnull(b);
        t->bits[i] = strtoull(b, NULL, 16);
    }
}

static value tile_value(const data_tile *d)
{
    int64_t shape[2] = {d->R, d->C};
    tensor *t = tensor_zeros(d->dt, 2, shape, NULL);
    ck_assert_ptr_nonnull(t);
    for (int64_t i = 0; i < d->R * d->C; i++)
        set_bits(t, i, d->bits[i]);
    if (d->VR != d->R || d->VC != d->C) {
        /* the tile's valid region, as the IR type declares it under device
         * semantics (semantics.h valid-shape) */
        t->valid_ndim = 2;
        t->valid[0] = d->VR;
        t->valid[1] = d->VC;
        t->full_ndim = 2;
        t->full[0] = d->R;
        t->full[1] = d->C;
        t->valid_declared = 1;
    }
    return value_tensor(t);
}

static value kwarg_value(const char *name, const char *v)
{
    if (strcmp(name, "target_type") == 0 || strcmp(name, "dtype") == 0)
        return value_enum(data_ir_dtype(v));
    if (strcmp(name, "pad_value") == 0) {
        char printed[64];
        snprintf(printed, sizeof printed, "pl.PadValue.%s", v);
        int e = ir_enum_lookup(printed, strlen(printed));
        ck_assert_msg(e >= 0, "unknown pad value %s", v);
        return value_enum(e);
    }
    return value_int(strtoll(v, NULL, 10));
}

static int is_nan_bits(dtype_id dt, uint64_t b)
{
    if (dt == DTYPE_FP32)
        return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu);
    if (dt == DTYPE_FP16)
        return (b & 0x7c00u) == 0x7c00u && (b & 0x3ffu);
    return 0;
}

static double bits_value(dtype_id dt, uint64_t b)
{
    unsigned char buf[8];
    memcpy(buf, &b, sizeof buf);
    return dtype_load(dt, buf, 0);
}

/* Known differences: the op's name is op, the case's arguments text holds
 * args; printed as such and not counted, each with the reason and source. */
static const struct {
    const char *op, *args, *why;
} known_diff[] = {
    /* NaN: the simulator's std::max/std::min return the first operand when
     * either is NaN; the device's vmax/vmin return NaN (pto-isa cd4a3d3f
     * docs/isa/vector/ops/binary-vector-ops/vmax.md:68, vmin.md:68), as
     * ptodb does. -0.0 vs 0.0: std::max keeps its first operand; ptodb keeps
     * torch's (the device's choice is not documented). */
    {"tile.maximum", "T f", "the simulator's std::max (NaN, +-0), not the device's vmax (vmax.md:68: NaN)"},
    {"tile.minimum", "T f", "the simulator's std::min (NaN, +-0), not the device's vmin (vmin.md:68: NaN)"},
    {"tile.maximums", "T f", "the simulator's std::max (NaN, +-0), not the device's vmax (vmax.md:68: NaN)"},
    {"tile.minimums", "T f", "the simulator's std::min (NaN, +-0), not the device's vmin (vmin.md:68: NaN)"},
    {"tile.row_expand_max", "T f", "the simulator's std::max (NaN, +-0), not the device's vmax (vmax.md:68: NaN)"},
    {"tile.row_expand_min", "T f", "the simulator's std::min (NaN, +-0), not the device's vmin (vmin.md:68: NaN)"},
    {"tile.col_expand_max", "T f", "the simulator's std::max (NaN, +-0), not the device's vmax (vmax.md:68: NaN)"},
    {"tile.col_expand_min", "T f", "the simulator's std::min (NaN, +-0), not the device's vmin (vmin.md:68: NaN)"},
    {"tile.part_max", "T f", "the simulator's std::max (NaN, +-0), not the device's vmax (vmax.md:68: NaN)"},
    {"tile.part_min", "T f", "the simulator's std::min (NaN, +-0), not the device's vmin (vmin.md:68: NaN)"},
    /* TAbs.hpp:27 is src < 0 ? -src : src, which keeps -0.0's sign; the ISA
     * defines it as abs(src[i]) (docs/isa/vector/ops/unary-vector-ops/
     * vabs.md:108), IEEE abs clears the sign */
    {"tile.abs", "T f", "the simulator's src < 0 ? -src : src keeps -0.0 (TAbs.hpp:27); vabs.md:108 says abs()"},
    /* TCmps.hpp:24-33 compares |a - b| < 1e-9 in double for EQ/NE (so
     * 1e-40 == 0 and inf != inf), a tolerance pto-isa's own TCMP
     * (TCmp.h:21-37) does not have; ptodb compares exactly, as TCMP */
    {"tile.cmps", "T fp32", "the simulator's TCMPS EQ/NE tolerance |a-b| < 1e-9 (TCmps.hpp:27-33), not TCMP's"},
    /* TFillPad.hpp:44-52 takes the pad from std::numeric_limits<DType>,
     * which libstdc++ does not specialise for _Float16 (has_infinity false,
     * max() 0): the pad is 0. The device's pad is PadValueMap's 0xfc00 /
     * 0x7c00 (include/pto/common/constants.hpp:281-420), as ptodb's */
    {"tile.fillpad", "T fp16", "the simulator's numeric_limits<_Float16> is unspecialised (pad 0); "
                               "constants.hpp PadValueMap: 0xfc00/0x7c00"},
    {"tile.fillpad_inplace", "T fp16", "the simulator's numeric_limits<_Float16> is unspecialised (pad 0); "
                                       "constants.hpp PadValueMap: 0xfc00/0x7c00"},
    {"tile.fillpad_expand", "T fp16", "the simulator's numeric_limits<_Float16> is unspecialised (pad 0); "
                                      "constants.hpp PadValueMap: 0xfc00/0x7c00"},
    /* src0 + src1 + src2 on _Float16: clang computes it in float (x86's
     * _Float16 excess precision) and rounds once; the device rounds each op
     * to FP16, as pto-isa's own CpuSimRoundElement (ElementOp.h:89-98, from
     * 439faf48 "CPU-SIM regressions") makes the simulator do for MULADDDST.
     * ptodb rounds twice (TADDC/TSUBC have no NPU implementation here). */
    {"tile.addc", "T fp16", "clang's _Float16 excess precision: one rounding of a + b + c (ElementOp.h:89-98)"},
    {"tile.subc", "T fp16", "clang's _Float16 excess precision: one rounding of a - b + c (ElementOp.h:89-98)"},
    {"tile.addsc", "T fp16", "clang's _Float16 excess precision: one rounding of a + s + b (ElementOp.h:89-98)"},
    {"tile.subsc", "T fp16", "clang's _Float16 excess precision: one rounding of a - s + b (ElementOp.h:89-98)"},
    {NULL, NULL, NULL},
};

static const char *known_reason(const char *op, const char *args)
{
    for (size_t k = 0; known_diff[k].op; k++)
        if (strcmp(op, known_diff[k].op) == 0 && strstr(args, known_diff[k].args))
            return known_diff[k].why;
    return NULL;
}

/* Cases per op and dtype, for the closing note. */
#define MAX_SEEN 512
static struct {
    char op[48], dt[8];
    int cases, bad;
} seen[MAX_SEEN];
static int nseen;

static void count(const char *op, const char *dt, int bad)
{
    int k = 0;
    while (k < nseen && !(strcmp(seen[k].op, op) == 0 && strcmp(seen[k].dt, dt) == 0))
        k++;
    if (k == nseen) {
        ck_assert_int_lt(nseen, MAX_SEEN);
        snprintf(seen[k].op, sizeof seen[k].op, "%s", op);
        snprintf(seen[k].dt, sizeof seen[k].dt, "%s", dt);
        nseen++;
    }
    seen[k].cases++;
    seen[k].bad += bad;
}

/* Replays tests/data/isa/<name>.txt; returns the mismatches not known. */
static int replay(const char *name)
{
    const char *top = getenv("top_srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/isa/%s.txt", top ? top : "..", name);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s (set top_srcdir)", path);
    op_fn table[IR_OP_COUNT];
    exec_ops_init(table);
    char *line = NULL;
    size_t cap = 0;
    int n = 0, bad = 0, cases = 0;
    while (getline(&line, &cap, f) > 0) {
        n++;
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = '\0';
        char *part[6], *s = line;
        for (int i = 0; i < 6; i++) {
            part[i] = s;
            char *bar = i < 5 ? strchr(s, '|') : NULL;
            ck_assert_msg(bar || i == 5, "%s:%d: %d fields", name, n, i + 1);
            if (bar) {
                *bar = '\0';
                s = bar + 1;
            }
        }
        const char *opname = part[0], *instr = part[1], *where = part[2];
        int op = ir_op_lookup(opname, strlen(opname));
        ck_assert_msg(op >= 0 && table[op], "%s:%d: op %s", name, n, opname);
        const char *isa_instr = NULL, *isa_status = NULL;
        ck_assert_msg(exec_op_isa(op, &isa_instr, &isa_status) && isa_status == NULL,
                      "%s:%d: %s is in the data but src/exec/op_isa.c does not mark it checked", name, n,
                      opname);
        ck_assert_msg(strcmp(isa_instr, instr) == 0, "%s:%d: %s lowers to %s, the data say %s", name, n,
                      opname, isa_instr, instr);
        char *args_text = strdup(part[3]);
        value pos[8];
        uint32_t npos = 0;
        char argdt[8] = "";
        for (char *a = part[3]; *a;) {
            char *semi = strchr(a, ';');
            if (semi)
                *semi = '\0';
            char *q = a;
            ck_assert(npos < 8);
            while (*q == ' ')
                q++;
            if (*q == 'T') {
                data_tile d;
                parse_tile(&q, &d, 0);
                pos[npos++] = tile_value(&d);
                if (!argdt[0] || strcmp(argdt, "uint8") == 0)
                    snprintf(argdt, sizeof argdt, "%s", d.dtname);
                free(d.bits);
            } else if (*q == 'B') {
                /* 'B dtype B R C bits...': a [B, R, C] tile, all valid */
                q++;
                const char *dn = data_tok(&q);
                int64_t shp[3];
                for (int d = 0; d < 3; d++)
                    shp[d] = atoll(data_tok(&q));
                tensor *t = tensor_zeros(data_dtype(dn), 3, shp, NULL);
                ck_assert_ptr_nonnull(t);
                for (int64_t i = 0; i < shp[0] * shp[1] * shp[2]; i++)
                    set_bits(t, i, strtoull(data_tok(&q), NULL, 16));
                pos[npos++] = value_tensor(t);
                if (!argdt[0])
                    snprintf(argdt, sizeof argdt, "%s", dn);
            } else if (*q == 'L') {
                /* 'L a,b,...': a tuple of ints (a shape) */
                int64_t xs[8];
                int nx = 0;
                for (char *e = q + 1; *e && nx < 8;) {
                    xs[nx++] = strtoll(e, &e, 10);
                    if (*e == ',')
                        e++;
                    else
                        break;
                }
                pos[npos++] = tup(nx, xs);
            } else if (*q == 'F') {
                q++;
                pos[npos++] = value_float(strtod(q, NULL));
            } else {
                q++;
                pos[npos++] = value_int(strtoll(q, NULL, 10));
            }
            if (!semi)
                break;
            a = semi + 1;
        }
        uint8_t ids[4];
        value kv[4];
        uint32_t nkw = 0;
        char *kp = part[4], *t;
        while ((t = data_tok(&kp)) && nkw < 4) {
            char *eq = strchr(t, '=');
            ck_assert_ptr_nonnull(eq);
            *eq = '\0';
            ids[nkw] = (uint8_t)exec_kw_lookup(t);
            kv[nkw++] = kwarg_value(t, eq + 1);
        }
        if (op == IR_OP_TILE_MAXIMUMS || op == IR_OP_TILE_MINIMUMS) {
            /* the lowering's mark (program.c): max/min with a scalar by the
             * op's definition */
            ids[nkw] = (uint8_t)EXEC_KW_BY_DEFINITION;
            kv[nkw++] = value_int(1);
        }
        char *rp = part[5];
        data_tile e;
        parse_tile(&rp, &e, 1);
        /* the result's IR type: what PyPTO declares (the packed mask's
         * [R, 32] UINT8 with its valid region, for tile.cmp/cmps) */
        exec_type rt;
        memset(&rt, 0, sizeof rt);
        rt.kind = EXEC_TYPE_TILE;
        rt.ir_dtype = data_ir_dtype(e.dtname);
        rt.dtype = e.dt;
        rt.ndim = 2;
        rt.dims[0] = e.R;
        rt.dims[1] = e.C;
        rt.layout = -1;
        rt.mem_space = -1;
        rt.mem_valid_ndim = 2;
        rt.mem_valid[0] = e.VR;
        rt.mem_valid[1] = e.VC;
        ctx_init(&C, EXEC_PROFILE_T2); /* the default profile */
        C.device = 1;
        op_args args = {op, pos, npos, ids, kv, nkw, &rt};
        value out = value_none();
        ptodb_status st = table[op](&C, &args, &out);
        int mism = 0;
        char why[700] = "";
        if (st != PTODB_OK) {
            snprintf(why, sizeof why, "ptodb failed: %s", C.msg);
            mism = 1;
        } else if (out.kind != VAL_TENSOR) {
            snprintf(why, sizeof why, "not a tensor");
            mism = 1;
        } else {
            tensor *r = tensor_clone(out.u.t);
            if (r->ndim == 3) {
                /* a batch's pages, row after row: the data's [B * R, C] */
                int64_t flat[2] = {r->shape[0] * r->shape[1], r->shape[2]};
                ptodb_status vs = PTODB_OK;
                tensor *fl = tensor_reshape(r, 2, flat, &vs);
                ck_assert_ptr_nonnull(fl);
                tensor_unref(r);
                r = fl;
            }
            if (r->dtype != e.dt) {
                snprintf(why, sizeof why, "dtype %s, pto-isa %s", dtype_name(r->dtype), e.dtname);
                mism = 1;
            } else if (r->ndim != 2 || r->shape[0] < e.VR || r->shape[1] < e.VC) {
                snprintf(why, sizeof why, "shape %dd [%lld, %lld], pto-isa's valid region %lldx%lld", r->ndim,
                         (long long)r->shape[0], (long long)(r->ndim > 1 ? r->shape[1] : 0), (long long)e.VR,
                         (long long)e.VC);
                mism = 1;
            } else {
                for (int64_t i = 0; i < e.VR && !mism; i++)
                    for (int64_t j = 0; j < e.VC && !mism; j++) {
                        uint64_t got = elem_bits(r, i * r->shape[1] + j), want = e.bits[i * e.VC + j];
                        if (got == want || (is_nan_bits(e.dt, got) && is_nan_bits(e.dt, want)))
                            continue;
                        snprintf(why, sizeof why, "[%lld,%lld] ptodb %#llx (%.9g), pto-isa %#llx (%.9g)",
                                 (long long)i, (long long)j, (unsigned long long)got, bits_value(e.dt, got),
                                 (unsigned long long)want, bits_value(e.dt, want));
                        mism = 1;
                    }
            }
            tensor_unref(r);
        }
        cases++;
        if (mism) {
            const char *known = known_reason(opname, args_text);
            printf("%s%s:%d %s (%s, %s) %s: %s%s%s\n", known ? "KNOWN DIFFERENCE " : "", name, n, opname, instr,
                   where, argdt, why, known ? " -- " : "", known ? known : "");
            if (!known)
                bad++;
        }
        count(opname, argdt, mism);
        value_clear(&out);
        clear_all(pos, (int)npos);
        for (uint32_t k = 0; k < nkw; k++)
            value_clear(&kv[k]);
        free(e.bits);
        free(args_text);
    }
    free(line);
    fclose(f);
    printf("%s: %d cases, %d unexplained mismatches\n", name, cases, bad);
    return bad;
}

#define GROUP_TEST(g)                                                    \
    START_TEST(test_##g) { ck_assert_int_eq(replay(#g), 0); }            \
    END_TEST

GROUP_TEST(binary)
GROUP_TEST(scalar)
GROUP_TEST(unary)
GROUP_TEST(cast)
GROUP_TEST(reduce)
GROUP_TEST(cmp)
GROUP_TEST(fillpad)
GROUP_TEST(matmul)
GROUP_TEST(expand)
GROUP_TEST(partreduce)
GROUP_TEST(bitwise)
GROUP_TEST(remfmod)
GROUP_TEST(fill)
GROUP_TEST(cube)
GROUP_TEST(move)
GROUP_TEST(sort)
GROUP_TEST(gm)
GROUP_TEST(mx)

/* Every op the table marks checked has cases; prints the counts by dtype. */
START_TEST(test_coverage)
{
    static const char *const groups[] = {"binary", "scalar", "unary", "cast", "reduce", "cmp", "fillpad", "matmul",
                                         "expand", "partreduce", "bitwise", "remfmod", "fill", "cube", "move", "sort", "gm", "mx"};
    nseen = 0;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        replay(groups[g]);
    int checked = 0;
    for (int op = 0; op < IR_OP_COUNT; op++) {
        const char *instr, *status;
        if (!exec_op_isa(op, &instr, &status) || status)
            continue;
        const char *name = ir_op_info_get(op)->name;
        int found = 0;
        for (int k = 0; k < nseen; k++)
            found += strcmp(seen[k].op, name) == 0;
        ck_assert_msg(found, "%s is marked checked against pto-isa but tests/data/isa has no case of it", name);
        checked++;
    }
    printf("ops checked against pto-isa: %d\n", checked);
    for (int k = 0; k < nseen; k++)
        printf("  %-18s %-6s %3d cases\n", seen[k].op, seen[k].dt, seen[k].cases);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_isa_oracle");
    TCase *tc = tcase_create("pto-isa");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_binary);
    tcase_add_test(tc, test_scalar);
    tcase_add_test(tc, test_unary);
    tcase_add_test(tc, test_cast);
    tcase_add_test(tc, test_reduce);
    tcase_add_test(tc, test_cmp);
    tcase_add_test(tc, test_fillpad);
    tcase_add_test(tc, test_matmul);
    tcase_add_test(tc, test_expand);
    tcase_add_test(tc, test_partreduce);
    tcase_add_test(tc, test_bitwise);
    tcase_add_test(tc, test_remfmod);
    tcase_add_test(tc, test_fill);
    tcase_add_test(tc, test_cube);
    tcase_add_test(tc, test_move);
    tcase_add_test(tc, test_sort);
    tcase_add_test(tc, test_gm);
    tcase_add_test(tc, test_mx);
    tcase_add_test(tc, test_coverage);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
