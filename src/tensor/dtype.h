/* Element types and bit-exact scalar conversions.
 *
 * One X-macro table lists every dtype ptodb stores. The conversions follow
 * PyTorch's CPU results as measured in docs semantics.md §1.2 (torch 1.13,
 * same in 2.x unless noted): round to nearest even everywhere, bf16/fp16
 * widen exactly, float -> small int goes through a truncating 32-bit
 * conversion. They are static inline because the interpreter calls them
 * once per element.
 *
 * PyPTO dtypes that REF stores as float32 (FP4, HF4, HF8, INT4, UINT4,
 * TASK_ID) have no entry here: map them to DTYPE_FP32 as REF's _DTYPE_MAP
 * does. REF stores UINT16 as int32 and UINT32 as int64 too; the uint entries
 * below exist for data files (.npy '<u2', manifests), and the interpreter
 * decides which dtype a tile gets. The three FP8 entries exist for data
 * files too (torch's float8_e4m3fn, float8_e5m2 and float8_e8m0fnu tensors
 * in a .pt); REF's _DTYPE_MAP holds FP8 tiles as float32, so
 * dtype_torch_storage maps them to DTYPE_FP32, which holds every FP8 value
 * exactly. */
#ifndef PTODB_TENSOR_DTYPE_H
#define PTODB_TENSOR_DTYPE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum { DTYPE_KIND_BOOL, DTYPE_KIND_SINT, DTYPE_KIND_UINT, DTYPE_KIND_FLOAT } dtype_kind;

/* X(ID, PyPTO DSL name, str(DataType) as in dumps/compiled_meta.json, torch name,
 *   element size in bytes, kind, short name used by ptodb's own output) */
#define PTODB_DTYPE_LIST(X)                                                               \
    X(BOOL, "pl.BOOL", "bool", "torch.bool", 1, DTYPE_KIND_BOOL, "bool")                  \
    X(INT8, "pl.INT8", "int8", "torch.int8", 1, DTYPE_KIND_SINT, "int8")                  \
    X(INT16, "pl.INT16", "int16", "torch.int16", 2, DTYPE_KIND_SINT, "int16")             \
    X(INT32, "pl.INT32", "int32", "torch.int32", 4, DTYPE_KIND_SINT, "int32")             \
    X(INT64, "pl.INT64", "int64", "torch.int64", 8, DTYPE_KIND_SINT, "int64")             \
    X(UINT8, "pl.UINT8", "uint8", "torch.uint8", 1, DTYPE_KIND_UINT, "uint8")             \
    X(UINT16, "pl.UINT16", "uint16", "torch.uint16", 2, DTYPE_KIND_UINT, "uint16")        \
    X(UINT32, "pl.UINT32", "uint32", "torch.uint32", 4, DTYPE_KIND_UINT, "uint32")        \
    X(UINT64, "pl.UINT64", "uint64", "torch.uint64", 8, DTYPE_KIND_UINT, "uint64")        \
    X(INDEX, "pl.INDEX", "index", "torch.int64", 8, DTYPE_KIND_SINT, "index")             \
    X(FP16, "pl.FP16", "fp16", "torch.float16", 2, DTYPE_KIND_FLOAT, "fp16")              \
    X(BF16, "pl.BF16", "bfloat16", "torch.bfloat16", 2, DTYPE_KIND_FLOAT, "bf16")         \
    X(FP32, "pl.FP32", "fp32", "torch.float32", 4, DTYPE_KIND_FLOAT, "fp32")              \
    X(FP64, "pl.FP64", "fp64", "torch.float64", 8, DTYPE_KIND_FLOAT, "fp64")              \
    X(FP8E4M3FN, "pl.FP8E4M3FN", "fp8e4m3fn", "torch.float8_e4m3fn", 1, DTYPE_KIND_FLOAT, "fp8e4m3fn") \
    X(FP8E5M2, "pl.FP8E5M2", "fp8e5m2", "torch.float8_e5m2", 1, DTYPE_KIND_FLOAT, "fp8e5m2")           \
    X(FP8E8M0, "pl.FP8E8M0", "fp8e8m0", "torch.float8_e8m0fnu", 1, DTYPE_KIND_FLOAT, "fp8e8m0")

typedef enum {
#define PTODB_DTYPE_ENUM(id, pl, ir, torch, size, kind, short_name) DTYPE_##id,
    PTODB_DTYPE_LIST(PTODB_DTYPE_ENUM)
#undef PTODB_DTYPE_ENUM
    DTYPE_COUNT
} dtype_id;

/* Names; every function returns "?" (size 0) for an out-of-range id. */
const char *dtype_pl_name(dtype_id dt);    /* "pl.BF16" */
const char *dtype_ir_name(dtype_id dt);    /* "bfloat16" (PyPTO str(DataType)) */
const char *dtype_torch_name(dtype_id dt); /* "torch.bfloat16" */
const char *dtype_name(dtype_id dt);       /* "bf16": ptodb's short name */
size_t dtype_size(dtype_id dt);
dtype_kind dtype_kind_of(dtype_id dt);
int dtype_is_float(dtype_id dt);
int dtype_is_int(dtype_id dt); /* signed or unsigned integer, INDEX included; not bool */

/* Parses any of the spellings above, case-insensitively for the short and
 * IR names, plus common aliases: "BF16", "pl.bf16", "bfloat16", "float32",
 * "float", "half", "f4"-style numpy kinds are NOT accepted here (see npy.h).
 * Returns 0 and sets *out, or -1 when the name is unknown. */
int dtype_parse(const char *name, dtype_id *out);

/* The dtype torch stores an IR dtype in (semantics.md §1.1): INDEX -> INT64,
 * UINT16 -> INT32, UINT32 -> INT64, UINT64 -> INT64, the FP8 dtypes -> FP32
 * (REF's _DTYPE_MAP), others unchanged. */
dtype_id dtype_torch_storage(dtype_id dt);

/* ---- bit helpers -------------------------------------------------------- */

static inline uint32_t dtype_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float dtype_f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* ---- bfloat16 ----------------------------------------------------------- */

/* Exact: a bf16 is the top half of a float32 (NaN payloads kept). */
static inline float dtype_bf16_to_f32(uint16_t h)
{
    return dtype_f32_from_bits((uint32_t)h << 16);
}

/* Round to nearest, ties to even; overflow gives +-inf; subnormals round like
 * any other value. NaN (either sign, any payload) gives 0xFFFF: that is what
 * torch's vectorised CPU cast writes (measured on torch 1.13, semantics.md
 * §1.2; c10's scalar routine would give 0x7FC0). Compare NaN as NaN, never
 * by payload. */
static inline uint16_t dtype_f32_to_bf16(float f)
{
    uint32_t u = dtype_f32_bits(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u)
        return 0xFFFFu;
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

/* f32 -> bf16 -> f32: the value a bf16 result holds, as a float. */
static inline float dtype_round_bf16(float f)
{
    return dtype_bf16_to_f32(dtype_f32_to_bf16(f));
}

/* ---- IEEE binary16 ------------------------------------------------------ */

/* Exact, subnormals included; NaN payloads kept (shifted into the float). */
static inline float dtype_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    if (exp == 0x1F)
        return dtype_f32_from_bits(sign | 0x7F800000u | (man << 13));
    if (exp != 0)
        return dtype_f32_from_bits(sign | ((exp + 112u) << 23) | (man << 13));
    if (man == 0)
        return dtype_f32_from_bits(sign);
    /* subnormal: man * 2^-24, exactly representable as a float */
    float v = (float)man * 0x1p-24f;
    return sign ? -v : v;
}

/* IEEE round to nearest even with subnormals; magnitudes that round to 65520
 * or more become +-inf. NaN gives sign|0x7E00 (c10's fp16_ieee_from_fp32_value;
 * torch 1.13 measured 0x7E00 for the default +NaN). */
static inline uint16_t dtype_f32_to_f16(float f)
{
    uint32_t u = dtype_f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u)
        return sign | 0x7E00u;
    if (a >= 0x477FF000u) /* 65520 and up (inf included): ties to even go up */
        return sign | 0x7C00u;
    if (a >= 0x38800000u) { /* result is a normal half (>= 2^-14) */
        a += 0xFFFu + ((a >> 13) & 1u);
        return (uint16_t)(sign | ((a - 0x38000000u) >> 13));
    }
    if (a <= 0x33000000u) /* <= 2^-25: the tie at 2^-25 goes to even zero */
        return sign;
    /* subnormal half: count units of 2^-24 with an explicit RNE */
    uint32_t e = a >> 23;
    uint32_t m = (a & 0x7FFFFFu) | 0x800000u;
    uint32_t shift = 126u - e; /* 14 .. 24 */
    uint32_t r = m >> shift;
    uint32_t rem = m & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (r & 1u)))
        r++;
    return (uint16_t)(sign | r);
}

static inline float dtype_round_f16(float f)
{
    return dtype_f16_to_f32(dtype_f32_to_f16(f));
}

/* ---- 8-bit floats (torch's c10 Float8_e4m3fn / Float8_e5m2 / Float8_e8m0fnu) --
 *
 * Widening is exact. Narrowing follows c10's fp8*_from_fp32_value bit for
 * bit (what torch's .to(torch.float8_*) computes on CPU): round to nearest,
 * ties to even, subnormals included, and no saturation:
 *   e4m3fn (bias 7, no Inf, NaN = S.1111.111): |x| >= 480 (Inf included)
 *          and NaN give 0x7F with the sign; 464 < |x| < 480 rounds to it too;
 *          the largest finite value is 448 (0x7E).
 *   e5m2   (bias 15, IEEE-like): |x| >= 65536 gives Inf (0x7C), NaN 0x7F,
 *          both with the sign; 61440 <= |x| rounds to Inf.
 *   e8m0   (OCP MX scale: 8 exponent bits, bias 127, no sign, no zero, 0xFF
 *          = NaN): the value 2^(code - 127), code 0 = 2^-127. From a float
 *          the sign is dropped, NaN/Inf give 0xFF, and the exponent rounds
 *          up when the mantissa is above 1.5 or exactly 1.5 with a normal
 *          input (c10's guard/round/sticky rule); 0.0 gives 0x00. */

static inline float dtype_fp8e4m3fn_to_f32(uint8_t b)
{
    uint32_t sign = (uint32_t)(b & 0x80u) << 24;
    uint32_t exp = (b >> 3) & 0xFu, man = b & 7u;
    if (exp == 0xF && man == 7)
        return dtype_f32_from_bits(sign | 0x7FC00000u);
    if (exp != 0)
        return dtype_f32_from_bits(sign | ((exp + 120u) << 23) | (man << 20));
    float v = (float)man * 0x1p-9f; /* subnormal: man * 2^-9, exact */
    return sign ? -v : v;
}

static inline float dtype_fp8e5m2_to_f32(uint8_t b)
{
    return dtype_f16_to_f32((uint16_t)((uint16_t)b << 8));
}

static inline float dtype_fp8e8m0_to_f32(uint8_t b)
{
    if (b == 0xFF)
        return dtype_f32_from_bits(0x7FC00000u);
    if (b == 0)
        return dtype_f32_from_bits(0x00400000u); /* 2^-127, a float32 subnormal */
    return dtype_f32_from_bits((uint32_t)b << 23);
}

/* The shared narrowing of e4m3fn and e5m2: man_bits 3 or 2, bias 7 or 15. */
static inline uint8_t dtype_f32_to_fp8_ieee(float f, uint32_t man_bits, uint32_t bias, uint32_t limit_bits,
                                            uint8_t overflow)
{
    uint32_t u = dtype_f32_bits(f);
    uint8_t sign = (uint8_t)((u >> 24) & 0x80u);
    uint32_t a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u)
        return (uint8_t)(sign | 0x7Fu);
    if (a >= limit_bits)
        return (uint8_t)(sign | overflow);
    uint32_t shift = 23u - man_bits;
    if (a < ((128u - bias) << 23)) {
        /* below the smallest normal: adding 2^(shift + 1 + 127 - bias - 127)
         * lets the FPU round the subnormal units to nearest even */
        uint32_t magic = (127u - bias + shift + 1u) << 23;
        float sum = dtype_f32_from_bits(a) + dtype_f32_from_bits(magic);
        return (uint8_t)(sign | (uint8_t)(dtype_f32_bits(sum) - magic));
    }
    uint32_t odd = (a >> shift) & 1u;
    a += (uint32_t)(((int32_t)bias - 127) * (1 << 23)) + ((1u << (shift - 1u)) - 1u) + odd;
    return (uint8_t)(sign | (uint8_t)(a >> shift));
}

static inline uint8_t dtype_f32_to_fp8e4m3fn(float f)
{
    return dtype_f32_to_fp8_ieee(f, 3, 7, 0x43F00000u /* 480 */, 0x7F);
}

static inline uint8_t dtype_f32_to_fp8e5m2(float f)
{
    return dtype_f32_to_fp8_ieee(f, 2, 15, 0x47800000u /* 65536 */, 0x7C);
}

static inline uint8_t dtype_f32_to_fp8e8m0(float f)
{
    uint32_t u = dtype_f32_bits(f);
    uint32_t exp = (u >> 23) & 0xFFu;
    if (exp == 0xFF)
        return 0xFF;
    int guard = (u & 0x400000u) != 0, rest = (u & 0x3FFFFFu) != 0, lsb = exp > 0;
    if (guard && (rest || lsb))
        exp++;
    return (uint8_t)exp;
}

/* f32 -> FP8 -> f32 for one of the three FP8 dtypes: the value an FP8
 * result holds, as a float (f unchanged for any other dtype). */
static inline float dtype_round_fp8(dtype_id dt, float f)
{
    switch (dt) {
    case DTYPE_FP8E4M3FN: return dtype_fp8e4m3fn_to_f32(dtype_f32_to_fp8e4m3fn(f));
    case DTYPE_FP8E5M2: return dtype_fp8e5m2_to_f32(dtype_f32_to_fp8e5m2(f));
    case DTYPE_FP8E8M0: return dtype_fp8e8m0_to_f32(dtype_f32_to_fp8e8m0(f));
    default: return f;
    }
}

/* ---- float -> integer (semantics.md §1.2) -------------------------------- */

/* x86 cvttss2si/cvttsd2si: truncation when the result fits int32, else
 * INT32_MIN (NaN, +-inf, out of range). int8/int16/uint8/uint16/int32 keep
 * the low bits of this. */
static inline int32_t dtype_trunc_i32(double x)
{
    if (x > -2147483649.0 && x < 2147483648.0)
        return (int32_t)x;
    return INT32_MIN;
}

/* Truncation; NaN, +-inf and out-of-range give INT64_MIN (torch 1.13). */
static inline int64_t dtype_trunc_i64(double x)
{
    if (x >= -9223372036854775808.0 && x < 9223372036854775808.0)
        return (int64_t)x;
    return INT64_MIN;
}

/* ---- element access ------------------------------------------------------ */

/* Element i of a buffer of dtype dt, widened to double (exact for every
 * dtype except 64-bit integers beyond 2^53). */
static inline double dtype_load(dtype_id dt, const void *base, size_t i)
{
    const unsigned char *p = (const unsigned char *)base;
    switch (dt) {
    case DTYPE_BOOL: return p[i] != 0;
    case DTYPE_INT8: return (double)((const int8_t *)base)[i];
    case DTYPE_INT16: { int16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case DTYPE_INT32: { int32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case DTYPE_INDEX:
    case DTYPE_INT64: { int64_t v; memcpy(&v, p + 8 * i, 8); return (double)v; }
    case DTYPE_UINT8: return p[i];
    case DTYPE_UINT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case DTYPE_UINT32: { uint32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case DTYPE_UINT64: { uint64_t v; memcpy(&v, p + 8 * i, 8); return (double)v; }
    case DTYPE_FP16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return dtype_f16_to_f32(v); }
    case DTYPE_BF16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return dtype_bf16_to_f32(v); }
    case DTYPE_FP32: { float v; memcpy(&v, p + 4 * i, 4); return v; }
    case DTYPE_FP64: { double v; memcpy(&v, p + 8 * i, 8); return v; }
    case DTYPE_FP8E4M3FN: return dtype_fp8e4m3fn_to_f32(p[i]);
    case DTYPE_FP8E5M2: return dtype_fp8e5m2_to_f32(p[i]);
    case DTYPE_FP8E8M0: return dtype_fp8e8m0_to_f32(p[i]);
    default: return 0.0;
    }
}

/* dtype_load for a loop over many elements: float32, the common case,
 * read before the switch (which the compiler keeps out of line where it
 * will: a call per element). Not in dtype_load itself: inlined where dt is
 * a constant narrower dtype, the float32 read trips -Warray-bounds on a
 * one-byte buffer. */
static inline double dtype_load_fp32_first(dtype_id dt, const void *base, size_t i)
{
    if (dt == DTYPE_FP32) {
        float v;
        memcpy(&v, (const unsigned char *)base + 4 * i, 4);
        return v;
    }
    return dtype_load(dt, base, i);
}

/* Element i as a 64-bit integer, exact for integer dtypes; floats truncate
 * per dtype_trunc_i64. */
static inline int64_t dtype_load_i64(dtype_id dt, const void *base, size_t i)
{
    const unsigned char *p = (const unsigned char *)base;
    switch (dt) {
    case DTYPE_INDEX:
    case DTYPE_INT64: { int64_t v; memcpy(&v, p + 8 * i, 8); return v; }
    case DTYPE_UINT64: { uint64_t v; memcpy(&v, p + 8 * i, 8); return (int64_t)v; }
    case DTYPE_FP16:
    case DTYPE_BF16:
    case DTYPE_FP32:
    case DTYPE_FP64:
    case DTYPE_FP8E4M3FN:
    case DTYPE_FP8E5M2:
    case DTYPE_FP8E8M0: return dtype_trunc_i64(dtype_load(dt, base, i));
    default: return (int64_t)dtype_load(dt, base, i);
    }
}

/* Stores v into element i with torch's conversion from a float64 tensor
 * element (semantics.md §1.2): double -> float -> bf16/fp16 (double
 * rounding, as torch does), double -> int via the 32-bit truncation for
 * types up to 32 bits (uint32 goes through int64), bool = (v != 0). */
static inline void dtype_store(dtype_id dt, void *base, size_t i, double v)
{
    unsigned char *p = (unsigned char *)base;
    switch (dt) {
    case DTYPE_BOOL: p[i] = (v != 0.0) || isnan(v); break;
    case DTYPE_INT8: p[i] = (unsigned char)(uint32_t)dtype_trunc_i32(v); break;
    case DTYPE_UINT8: p[i] = (unsigned char)(uint32_t)dtype_trunc_i32(v); break;
    case DTYPE_INT16:
    case DTYPE_UINT16: { uint16_t w = (uint16_t)(uint32_t)dtype_trunc_i32(v); memcpy(p + 2 * i, &w, 2); break; }
    case DTYPE_INT32: { int32_t w = dtype_trunc_i32(v); memcpy(p + 4 * i, &w, 4); break; }
    case DTYPE_UINT32: { uint32_t w = (uint32_t)(uint64_t)dtype_trunc_i64(v); memcpy(p + 4 * i, &w, 4); break; }
    case DTYPE_INDEX:
    case DTYPE_INT64:
    case DTYPE_UINT64: { int64_t w = dtype_trunc_i64(v); memcpy(p + 8 * i, &w, 8); break; }
    case DTYPE_FP16: { uint16_t w = dtype_f32_to_f16((float)v); memcpy(p + 2 * i, &w, 2); break; }
    case DTYPE_BF16: { uint16_t w = dtype_f32_to_bf16((float)v); memcpy(p + 2 * i, &w, 2); break; }
    case DTYPE_FP32: { float w = (float)v; memcpy(p + 4 * i, &w, 4); break; }
    case DTYPE_FP64: memcpy(p + 8 * i, &v, 8); break;
    case DTYPE_FP8E4M3FN: p[i] = dtype_f32_to_fp8e4m3fn((float)v); break;
    case DTYPE_FP8E5M2: p[i] = dtype_f32_to_fp8e5m2((float)v); break;
    case DTYPE_FP8E8M0: p[i] = dtype_f32_to_fp8e8m0((float)v); break;
    default: break;
    }
}

/* Stores an integer exactly into integer dtypes (two's-complement wrap to
 * the width, as torch's int -> narrower int); int -> float goes through
 * float32 RNE first for bf16/fp16 (257 -> bf16 256). */
static inline void dtype_store_i64(dtype_id dt, void *base, size_t i, int64_t v)
{
    unsigned char *p = (unsigned char *)base;
    switch (dt) {
    case DTYPE_BOOL: p[i] = v != 0; break;
    case DTYPE_INT8:
    case DTYPE_UINT8: p[i] = (unsigned char)(uint64_t)v; break;
    case DTYPE_INT16:
    case DTYPE_UINT16: { uint16_t w = (uint16_t)(uint64_t)v; memcpy(p + 2 * i, &w, 2); break; }
    case DTYPE_INT32:
    case DTYPE_UINT32: { uint32_t w = (uint32_t)(uint64_t)v; memcpy(p + 4 * i, &w, 4); break; }
    case DTYPE_INDEX:
    case DTYPE_INT64:
    case DTYPE_UINT64: memcpy(p + 8 * i, &v, 8); break;
    case DTYPE_FP16: { uint16_t w = dtype_f32_to_f16((float)v); memcpy(p + 2 * i, &w, 2); break; }
    case DTYPE_BF16: { uint16_t w = dtype_f32_to_bf16((float)v); memcpy(p + 2 * i, &w, 2); break; }
    case DTYPE_FP32: { float w = (float)v; memcpy(p + 4 * i, &w, 4); break; }
    case DTYPE_FP64: { double w = (double)v; memcpy(p + 8 * i, &w, 8); break; }
    case DTYPE_FP8E4M3FN: p[i] = dtype_f32_to_fp8e4m3fn((float)v); break;
    case DTYPE_FP8E5M2: p[i] = dtype_f32_to_fp8e5m2((float)v); break;
    case DTYPE_FP8E8M0: p[i] = dtype_f32_to_fp8e8m0((float)v); break;
    default: break;
    }
}

/* Converts n elements from one buffer to another with the rules above
 * (a float source goes through dtype_store, an integer source through
 * dtype_store_i64). src and dst must not overlap unless equal dtypes. */
void dtype_convert(dtype_id dst_dt, void *dst, dtype_id src_dt, const void *src, size_t n);

#endif
