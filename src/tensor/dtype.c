/* Dtype names and bulk conversion; the per-element routines are inline in
 * dtype.h. */
#include "config.h"

#include "tensor/dtype.h"

#include <strings.h>

static const struct {
    const char *pl, *ir, *torch, *short_name;
    size_t size;
    dtype_kind kind;
} dtype_table[DTYPE_COUNT] = {
#define PTODB_DTYPE_ROW(id, pl, ir, torch, size, kind, short_name) {pl, ir, torch, short_name, size, kind},
    PTODB_DTYPE_LIST(PTODB_DTYPE_ROW)
#undef PTODB_DTYPE_ROW
};

static int dtype_valid(dtype_id dt)
{
    return (int)dt >= 0 && dt < DTYPE_COUNT;
}

const char *dtype_pl_name(dtype_id dt)
{
    return dtype_valid(dt) ? dtype_table[dt].pl : "?";
}

const char *dtype_ir_name(dtype_id dt)
{
    return dtype_valid(dt) ? dtype_table[dt].ir : "?";
}

const char *dtype_torch_name(dtype_id dt)
{
    return dtype_valid(dt) ? dtype_table[dt].torch : "?";
}

const char *dtype_name(dtype_id dt)
{
    return dtype_valid(dt) ? dtype_table[dt].short_name : "?";
}

size_t dtype_size(dtype_id dt)
{
    return dtype_valid(dt) ? dtype_table[dt].size : 0;
}

dtype_kind dtype_kind_of(dtype_id dt)
{
    return dtype_valid(dt) ? dtype_table[dt].kind : DTYPE_KIND_FLOAT;
}

int dtype_is_float(dtype_id dt)
{
    return dtype_valid(dt) && dtype_table[dt].kind == DTYPE_KIND_FLOAT;
}

int dtype_is_int(dtype_id dt)
{
    return dtype_valid(dt) &&
           (dtype_table[dt].kind == DTYPE_KIND_SINT || dtype_table[dt].kind == DTYPE_KIND_UINT);
}

/* Aliases beyond the table's own spellings (torch short names, numpy names). */
static const struct {
    const char *name;
    dtype_id dt;
} dtype_aliases[] = {
    {"float", DTYPE_FP32},    {"float32", DTYPE_FP32}, {"f32", DTYPE_FP32},
    {"half", DTYPE_FP16},     {"float16", DTYPE_FP16}, {"f16", DTYPE_FP16},
    {"double", DTYPE_FP64},   {"float64", DTYPE_FP64}, {"f64", DTYPE_FP64},
    {"bfloat16", DTYPE_BF16}, {"bf16", DTYPE_BF16},    {"long", DTYPE_INT64},
    {"int", DTYPE_INT32},     {"short", DTYPE_INT16},  {"char", DTYPE_INT8},
    {"byte", DTYPE_UINT8},    {"i8", DTYPE_INT8},      {"i16", DTYPE_INT16},
    {"i32", DTYPE_INT32},     {"i64", DTYPE_INT64},    {"u8", DTYPE_UINT8},
    {"u16", DTYPE_UINT16},    {"u32", DTYPE_UINT32},   {"u64", DTYPE_UINT64},
};

int dtype_parse(const char *name, dtype_id *out)
{
    if (!name)
        return -1;
    const char *bare = name;
    if (strncmp(bare, "pl.", 3) == 0)
        bare += 3;
    else if (strncmp(bare, "torch.", 6) == 0)
        bare += 6;
    for (int i = 0; i < DTYPE_COUNT; i++) {
        if (strcasecmp(bare, dtype_table[i].pl + 3) == 0 || strcasecmp(bare, dtype_table[i].ir) == 0 ||
            strcasecmp(bare, dtype_table[i].short_name) == 0 ||
            strcasecmp(bare, dtype_table[i].torch + 6) == 0) {
            *out = (dtype_id)i;
            return 0;
        }
    }
    for (size_t i = 0; i < sizeof dtype_aliases / sizeof dtype_aliases[0]; i++) {
        if (strcasecmp(bare, dtype_aliases[i].name) == 0) {
            *out = dtype_aliases[i].dt;
            return 0;
        }
    }
    return -1;
}

dtype_id dtype_torch_storage(dtype_id dt)
{
    switch (dt) {
    case DTYPE_INDEX: return DTYPE_INT64;
    case DTYPE_UINT16: return DTYPE_INT32;
    case DTYPE_UINT32: return DTYPE_INT64;
    case DTYPE_UINT64: return DTYPE_INT64;
    case DTYPE_FP8E4M3FN:
    case DTYPE_FP8E5M2:
    case DTYPE_FP8E8M0: return DTYPE_FP32;
    default: return dt;
    }
}

/* Fast paths for the conversions the loader and interpreter do in bulk. */
static int dtype_convert_fast(dtype_id dd, void *dst, dtype_id sd, const void *src, size_t n)
{
    if (sd == DTYPE_BF16 && dd == DTYPE_FP32) {
        const uint16_t *s = src;
        float *d = dst;
        for (size_t i = 0; i < n; i++)
            d[i] = dtype_bf16_to_f32(s[i]);
        return 1;
    }
    if (sd == DTYPE_FP32 && dd == DTYPE_BF16) {
        const float *s = src;
        uint16_t *d = dst;
        for (size_t i = 0; i < n; i++)
            d[i] = dtype_f32_to_bf16(s[i]);
        return 1;
    }
    if (sd == DTYPE_FP16 && dd == DTYPE_FP32) {
        const uint16_t *s = src;
        float *d = dst;
        for (size_t i = 0; i < n; i++)
            d[i] = dtype_f16_to_f32(s[i]);
        return 1;
    }
    /* an integer to float32 (a dequantisation's cast): the generic path's
     * int64 of the value, then (float), is this one rounding of it */
#define INT_TO_F32(ID, T)                                                          \
    if (sd == ID && dd == DTYPE_FP32) {                                            \
        const unsigned char *s = src;                                              \
        float *d = dst;                                                            \
        for (size_t i = 0; i < n; i++) {                                           \
            T v;                                                                   \
            memcpy(&v, s + i * sizeof v, sizeof v);                                \
            d[i] = (float)v;                                                       \
        }                                                                          \
        return 1;                                                                  \
    }
    INT_TO_F32(DTYPE_INT32, int32_t)
    INT_TO_F32(DTYPE_INT16, int16_t)
    INT_TO_F32(DTYPE_INT8, int8_t)
    INT_TO_F32(DTYPE_UINT8, uint8_t)
#undef INT_TO_F32
    if (sd == DTYPE_FP32 && dd == DTYPE_FP16) {
        const float *s = src;
        uint16_t *d = dst;
        for (size_t i = 0; i < n; i++)
            d[i] = dtype_f32_to_f16(s[i]);
        return 1;
    }
    return 0;
}

void dtype_convert(dtype_id dst_dt, void *dst, dtype_id src_dt, const void *src, size_t n)
{
    if (dst_dt == src_dt || (dtype_size(dst_dt) == 8 && dtype_is_int(dst_dt) &&
                             dtype_size(src_dt) == 8 && dtype_is_int(src_dt))) {
        if (dst != src)
            memmove(dst, src, n * dtype_size(dst_dt));
        return;
    }
    if (dtype_convert_fast(dst_dt, dst, src_dt, src, n))
        return;
    if (dtype_is_float(src_dt)) {
        for (size_t i = 0; i < n; i++)
            dtype_store(dst_dt, dst, i, dtype_load(src_dt, src, i));
    } else {
        for (size_t i = 0; i < n; i++)
            dtype_store_i64(dst_dt, dst, i, dtype_load_i64(src_dt, src, i));
    }
}
