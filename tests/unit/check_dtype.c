/* Conversion tests for src/tensor/dtype.h. Expectations come from outside
 * ptodb: numpy's float16 (vectors and a CRC of the whole fp16 -> fp32 table,
 * generated once with /usr/bin/python3 + numpy), by-hand bf16 cases, a
 * double-arithmetic reference for bf16 rounding, GCC's soft-float _Float16
 * where the compiler has it, and the torch 1.13 measurements quoted in
 * semantics.md §1.2. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "data/zip.h"
#include "tensor/dtype.h"

/* numpy: np.float32(x).astype(np.float16) for edge cases and 200 random
 * values (about half of them exact ties) in the fp16 range. */
static const struct {
    uint32_t f32;
    uint16_t f16;
} np_f16_vectors[] = {
    {0x00000000u, 0x0000u},
    {0x80000000u, 0x8000u},
    {0x3f800000u, 0x3c00u},
    {0x477fe000u, 0x7bffu},
    {0x477feffdu, 0x7bffu},
    {0x477ff000u, 0x7c00u},
    {0x47800000u, 0x7c00u},
    {0x501502f9u, 0x7c00u},
    {0xd01502f9u, 0xfc00u},
    {0x7f800000u, 0x7c00u},
    {0xff800000u, 0xfc00u},
    {0x33800000u, 0x0001u},
    {0x33000000u, 0x0000u},
    {0x33000001u, 0x0001u},
    {0x33400000u, 0x0001u},
    {0x38800000u, 0x0400u},
    {0x387fe000u, 0x0400u},
    {0x387ff000u, 0x0400u},
    {0x3f801000u, 0x3c00u},
    {0x3f803000u, 0x3c02u},
    {0x3f801008u, 0x3c01u},
    {0x3dcccccdu, 0x2e66u},
    {0x3e4ccccdu, 0x3266u},
    {0x3e99999au, 0x34cdu},
    {0x3eaaaaabu, 0x3555u},
    {0x45001000u, 0x6800u},
    {0x45003000u, 0x6802u},
    {0x45800800u, 0x6c00u},
    {0x3380d959u, 0x0001u},
    {0x32fffae5u, 0x0000u},
    {0x3300d959u, 0x0001u},
    {0xb2d6bf95u, 0x8000u},
    {0x449a522bu, 0x64d3u},
    {0xb900f990u, 0x8808u},
    {0x36eae18bu, 0x0075u},
    {0x387fda40u, 0x03ffu},
    {0x387f6ee1u, 0x03feu},
    {0x47001000u, 0x7800u},
    {0x47003000u, 0x7802u},
    {0xc77ff000u, 0xfc00u},
    {0xc77fe000u, 0xfbffu},
    {0x34200000u, 0x0002u},
    {0x34600000u, 0x0004u},
    {0x33c00000u, 0x0002u},
    {0x34200000u, 0x0002u},
    {0xbc419000u, 0xa20cu},
    {0xb2927000u, 0x8000u},
    {0x3727f000u, 0x00a8u},
    {0x3869f228u, 0x03a8u},
    {0x40465916u, 0x4233u},
    {0xc5607000u, 0xeb04u},
    {0xc3aa34a6u, 0xdd52u},
    {0x34a6cf16u, 0x0005u},
    {0x47112847u, 0x7889u},
    {0x459a1000u, 0x6cd0u},
    {0x32600bf3u, 0x0000u},
    {0xbcbe1abcu, 0xa5f1u},
    {0xc27b1795u, 0xd3d9u},
    {0x38455000u, 0x0315u},
    {0xc194903eu, 0xcca5u},
    {0x3b420e89u, 0x1a10u},
    {0xbb4fce83u, 0x9a7eu},
    {0xb9ce7000u, 0x8e74u},
    {0xbb051000u, 0x9828u},
    {0x453acb84u, 0x69d6u},
    {0xbc521000u, 0xa290u},
    {0x36cbf000u, 0x0066u},
    {0xb9eb9000u, 0x8f5cu},
    {0xc0c17000u, 0xc60cu},
    {0xb312f000u, 0x8001u},
    {0xb3d77000u, 0x8002u},
    {0xc5189000u, 0xe8c4u},
    {0x39987d4du, 0x0cc4u},
    {0xb6ed7000u, 0x8077u},
    {0x4470325eu, 0x6382u},
    {0x3fa31000u, 0x3d18u},
    {0xc452a6fbu, 0xe295u},
    {0x3b6af000u, 0x1b58u},
    {0xbc1b9000u, 0xa0dcu},
    {0xc4e71000u, 0xe738u},
    {0x45934465u, 0x6c9au},
    {0x39f29000u, 0x0f94u},
    {0x3ecb7000u, 0x365cu},
    {0xbcd633eeu, 0xa6b2u},
    {0xc6e9d569u, 0xf74fu},
    {0x33d48686u, 0x0002u},
    {0x40e25000u, 0x4712u},
    {0x456a6736u, 0x6b53u},
    {0x42e9a995u, 0x574du},
    {0x35301000u, 0x000bu},
    {0x32d87000u, 0x0000u},
    {0x3e32b000u, 0x3196u},
    {0x3fa19000u, 0x3d0cu},
    {0xbf0d8ed3u, 0xb86cu},
    {0xc2b0b1beu, 0xd586u},
    {0x3d53b1e1u, 0x2a9eu},
    {0xc56f045bu, 0xeb78u},
    {0x33e7b711u, 0x0002u},
    {0x47459000u, 0x7a2cu},
    {0x42ff818du, 0x57fcu},
    {0x3520e108u, 0x000au},
    {0xc5a0f000u, 0xed08u},
    {0x35d95000u, 0x001bu},
    {0x34b02895u, 0x0006u},
    {0x3cd51000u, 0x26a8u},
    {0xb6cb1308u, 0x8066u},
    {0x415cf000u, 0x4ae8u},
    {0x38397000u, 0x02e6u},
    {0x350e0bc9u, 0x0009u},
    {0x3aa453c5u, 0x1523u},
    {0xc1a81000u, 0xcd40u},
    {0xb57c7000u, 0x8010u},
    {0xb5655000u, 0x800eu},
    {0xc1cc6a18u, 0xce63u},
    {0xc7d845cdu, 0xfc00u},
    {0x3e09dde1u, 0x304fu},
    {0x3e1b3e0bu, 0x30dau},
    {0xc640c6bcu, 0xf206u},
    {0xc725d000u, 0xf92eu},
    {0x43435000u, 0x5a1au},
    {0x33fb8410u, 0x0002u},
    {0xc225d000u, 0xd12eu},
    {0xc38ff000u, 0xdc80u},
    {0x41181000u, 0x48c0u},
    {0xc69daee5u, 0xf4edu},
    {0xbeb1f000u, 0xb590u},
    {0xb2501000u, 0x8000u},
    {0x3f42d000u, 0x3a16u},
    {0xb532b000u, 0x800bu},
    {0xc719c106u, 0xf8ceu},
    {0x40e11000u, 0x4708u},
    {0x45521000u, 0x6a90u},
    {0xb9b0d000u, 0x8d86u},
    {0x320223f9u, 0x0000u},
    {0x3f7c5000u, 0x3be2u},
    {0x3d5fd000u, 0x2afeu},
    {0xc19ac9b8u, 0xccd6u},
    {0x3a023000u, 0x1012u},
    {0x3bffe014u, 0x1fffu},
    {0xb76cad7du, 0x80edu},
    {0xb7673000u, 0x80e7u},
    {0xbb2e7000u, 0x9974u},
    {0x3a8363d8u, 0x141bu},
    {0x3c2f9000u, 0x217cu},
    {0x431055dfu, 0x5883u},
    {0x3547f14eu, 0x000cu},
    {0xc1655000u, 0xcb2au},
    {0xb86e3dfcu, 0x83b9u},
    {0x33cd088cu, 0x0002u},
    {0x39e43000u, 0x0f22u},
    {0xbd89b000u, 0xac4eu},
    {0xb9c51000u, 0x8e28u},
    {0xb3c3b000u, 0x8002u},
    {0x3e045000u, 0x3022u},
    {0xb9d65c38u, 0x8eb3u},
    {0xbe944b88u, 0xb4a2u},
    {0xc393d000u, 0xdc9eu},
    {0xc2127000u, 0xd094u},
    {0x47a35e39u, 0x7c00u},
    {0x3205e2e8u, 0x0000u},
    {0xc2189000u, 0xd0c4u},
    {0xb939b000u, 0x89ceu},
    {0xb87a21a1u, 0x83e9u},
    {0xb9d5f000u, 0x8eb0u},
    {0x3a783000u, 0x13c2u},
    {0x340f1000u, 0x0002u},
    {0xb50bf000u, 0x8009u},
    {0x32a15000u, 0x0000u},
    {0x42a4f000u, 0x5528u},
    {0xc3ded000u, 0xdef6u},
    {0x334da20eu, 0x0001u},
    {0xb2b6f000u, 0x8000u},
    {0x3594032au, 0x0013u},
    {0x350289ecu, 0x0008u},
    {0x361bb4c0u, 0x0027u},
    {0xb33b5000u, 0x8001u},
    {0x35289000u, 0x000bu},
    {0x3ee9d000u, 0x374eu},
    {0xb80bf000u, 0x8230u},
    {0x43e07000u, 0x5f04u},
    {0x4790eb3cu, 0x7c00u},
    {0xbc2b6abcu, 0xa15bu},
    {0x3c359000u, 0x21acu},
    {0xc5f6a18du, 0xefb5u},
    {0x478ef059u, 0x7c00u},
    {0x463bb000u, 0x71deu},
    {0xc150d000u, 0xca86u},
    {0xb4841000u, 0x8004u},
    {0xc5e4b5b0u, 0xef26u},
    {0xb2d5d000u, 0x8000u},
    {0x4514f000u, 0x68a8u},
    {0xbc08645fu, 0xa043u},
    {0xbad2b000u, 0x9696u},
    {0xb3acb000u, 0x8001u},
    {0x3b085000u, 0x1842u},
    {0xc5a3791au, 0xed1cu},
    {0x3cc75000u, 0x263au},
    {0xb9365000u, 0x89b2u},
    {0x3c7bbb97u, 0x23deu},
    {0x476b3000u, 0x7b5au},
    {0xbe315000u, 0xb18au},
    {0x3ecf66a9u, 0x367bu},
    {0xbd331000u, 0xa998u},
    {0xbc530d8au, 0xa298u},
    {0x35085bb5u, 0x0009u},
    {0x451b1000u, 0x68d8u},
    {0x40fdeb84u, 0x47efu},
    {0x382ed3f5u, 0x02bbu},
    {0x33d1ebddu, 0x0002u},
    {0x3a08c1a5u, 0x1046u},
    {0xbca2d000u, 0xa516u},
    {0x396718f0u, 0x0b39u},
    {0xb5243ef2u, 0x800au},
    {0x39df7000u, 0x0efcu},
    {0xc2673671u, 0xd33au},
    {0xc396c2feu, 0xdcb6u},
    {0x3b193000u, 0x18cau},
    {0xb5bf3b94u, 0x8018u},
    {0xb93d50f8u, 0x89ebu},
    {0xc61b48fau, 0xf0dau},
    {0xc5a39000u, 0xed1cu},
    {0x3841f000u, 0x0308u},
    {0x36965236u, 0x004bu},
    {0xc1b02a82u, 0xcd81u},
    {0x423fcd86u, 0x51feu},
    {0x3d6ab000u, 0x2b56u},
    {0xb469eea3u, 0x8004u},
    {0xb5f64514u, 0x801fu},
    {0x3b948f50u, 0x1ca4u},
    {0xb6b83f54u, 0x805cu},
    {0xc6b0c91du, 0xf586u},
    {0x469a19a3u, 0x74d1u},
    {0x47458b4bu, 0x7a2cu},
    {0xc70faeebu, 0xf87du},
    {0xb3587000u, 0x8001u},
    {0xc62dc146u, 0xf16eu},
    {0xbf67fe44u, 0xbb40u},
    {0x3b995000u, 0x1ccau},
    {0xc231637fu, 0xd18bu},
    {0x46201000u, 0x7100u},
    {0xb5bd01c5u, 0x8018u},
    {0xbeb13000u, 0xb58au},
    {0x4633f000u, 0x71a0u},
    {0x33e82dcdu, 0x0002u},
    {0x3b22f000u, 0x1918u},
};

/* numpy: zlib.crc32(np.arange(65536, dtype=np.uint16).view(np.float16)
 *                   .astype(np.float32).tobytes()) */
#define NP_F16_TABLE_CRC 0xe0c069f3u

static uint32_t bits(float f)
{
    return dtype_f32_bits(f);
}

START_TEST(test_bf16_all_patterns)
{
    for (uint32_t h = 0; h < 65536; h++) {
        float f = dtype_bf16_to_f32((uint16_t)h);
        ck_assert_uint_eq(bits(f), h << 16);
        uint16_t back = dtype_f32_to_bf16(f);
        if (isnan(f))
            ck_assert_uint_eq(back, 0xFFFFu);
        else
            ck_assert_uint_eq(back, h);
    }
}
END_TEST

/* By-hand value of an fp16 pattern: sign * 2^(e-15) * (1 + m/1024), or
 * subnormal sign * 2^-14 * m/1024. */
static double f16_by_hand(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m / 1024.0, -14);
    else
        v = ldexp(1.0 + (double)m / 1024.0, e - 15);
    return s ? -v : v;
}

START_TEST(test_f16_all_patterns)
{
    uint32_t crc = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        float f = dtype_f16_to_f32((uint16_t)h);
        double want = f16_by_hand((uint16_t)h);
        uint32_t fb = bits(f);
        crc = zip_crc32(crc, &fb, 4);
        if (isnan(want)) {
            ck_assert(isnan(f));
            ck_assert_uint_eq(dtype_f32_to_f16(f), (h & 0x8000u) | 0x7E00u);
        } else {
            ck_assert(f == want && !!signbit(f) == !!signbit(want));
            ck_assert_uint_eq(dtype_f32_to_f16(f), h);
        }
    }
    ck_assert_uint_eq(crc, NP_F16_TABLE_CRC);
}
END_TEST

START_TEST(test_f16_numpy_vectors)
{
    for (size_t i = 0; i < sizeof np_f16_vectors / sizeof np_f16_vectors[0]; i++) {
        uint16_t got = dtype_f32_to_f16(dtype_f32_from_bits(np_f16_vectors[i].f32));
        if (got != np_f16_vectors[i].f16)
            ck_abort_msg("f32 %08x -> f16 %04x, numpy says %04x", np_f16_vectors[i].f32, got,
                         np_f16_vectors[i].f16);
    }
}
END_TEST

START_TEST(test_bf16_by_hand)
{
    static const struct {
        uint32_t in;
        uint16_t out;
    } v[] = {
        {0x3F800000u, 0x3F80u}, /* 1.0 */
        {0x3F808000u, 0x3F80u}, /* 1 + 2^-8: tie, even stays */
        {0x3F818000u, 0x3F82u}, /* tie, odd rounds up */
        {0x3F808001u, 0x3F81u}, /* just above the tie */
        {0x3F807FFFu, 0x3F80u}, /* just below */
        {0xBF808001u, 0xBF81u}, /* negative */
        {0x7F7FFFFFu, 0x7F80u}, /* FLT_MAX overflows to inf */
        {0x7F7F7FFFu, 0x7F7Fu}, /* largest value that stays finite */
        {0x7F7F8000u, 0x7F80u}, /* tie at the top: to even = inf */
        {0xFF7F8000u, 0xFF80u},
        {0x7F800000u, 0x7F80u}, /* inf */
        {0xFF800000u, 0xFF80u}, /* -inf */
        {0x00000001u, 0x0000u}, /* smallest subnormal */
        {0x00008000u, 0x0000u}, /* subnormal tie to even zero */
        {0x00018000u, 0x0002u}, /* subnormal tie, odd up */
        {0x80008001u, 0x8001u}, /* negative subnormal above the tie */
        {0x007FFFFFu, 0x0080u}, /* largest subnormal rounds to the smallest normal */
        {0x80000000u, 0x8000u}, /* -0 */
        {0x7FC00000u, 0xFFFFu}, /* NaN: torch's vectorised cast writes 0xFFFF */
        {0xFFC00000u, 0xFFFFu},
        {0x7F800001u, 0xFFFFu}, /* signalling NaN must not become inf */
        {0x7FFFFFFFu, 0xFFFFu},
        {0x43808000u, 0x4380u}, /* 257 -> 256 (semantics.md §1.2) */
        {0x43818000u, 0x4382u}, /* 259 -> 260 */
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint16_t got = dtype_f32_to_bf16(dtype_f32_from_bits(v[i].in));
        if (got != v[i].out)
            ck_abort_msg("f32 %08x -> bf16 %04x, expected %04x", v[i].in, got, v[i].out);
    }
}
END_TEST

/* Reference bf16 rounding in double arithmetic: pick the nearer of the two
 * neighbouring bf16 values, ties to the even pattern. */
static uint16_t bf16_reference(uint32_t u)
{
    float f = dtype_f32_from_bits(u);
    uint16_t lo = (uint16_t)(u >> 16);
    if (isinf(f))
        return lo;
    uint16_t hi = (uint16_t)(lo + 1); /* next magnitude (may be inf) */
    double x = fabs((double)f);
    double a = fabs((double)dtype_bf16_to_f32(lo));
    double b = fabs((double)dtype_bf16_to_f32(hi));
    if (isinf(b))
        b = ldexp(1.0, 128); /* IEEE: overflow rounds as if the exponent were unbounded */
    if (x - a < b - x)
        return lo;
    if (x - a > b - x)
        return hi;
    return (lo & 1) ? hi : lo;
}

START_TEST(test_bf16_sweep)
{
    static const uint32_t lows[] = {0x0000, 0x0001, 0x3FFF, 0x7FFF, 0x8000, 0x8001, 0xC000, 0xFFFF, 0x1234, 0xA5A5};
    for (uint32_t hi = 0; hi < 65536; hi++) {
        if ((hi & 0x7F80u) == 0x7F80u && (hi & 0x7Fu))
            continue; /* NaN patterns: covered above */
        for (size_t k = 0; k < sizeof lows / sizeof lows[0]; k++) {
            uint32_t u = (hi << 16) | lows[k];
            if (isnan(dtype_f32_from_bits(u)))
                continue;
            uint16_t got = dtype_f32_to_bf16(dtype_f32_from_bits(u)), want = bf16_reference(u);
            if (got != want)
                ck_abort_msg("f32 %08x -> bf16 %04x, reference %04x", u, got, want);
        }
    }
}
END_TEST

START_TEST(test_f16_sweep_against_compiler)
{
#ifdef __FLT16_MAX__
    /* GCC's _Float16 conversion is libgcc soft-float (IEEE RNE): an oracle
     * that shares no code with ptodb. Every float whose low 9 bits are in a
     * small set, i.e. all exponents and all rounding positions. */
    static const uint32_t lows[] = {0x000, 0x001, 0x0FF, 0x100, 0x101, 0x1FF};
    for (uint32_t hi = 0; hi < (1u << 23); hi++) {
        for (size_t k = 0; k < sizeof lows / sizeof lows[0]; k++) {
            uint32_t u = (hi << 9) | lows[k];
            float f = dtype_f32_from_bits(u);
            if (isnan(f))
                continue;
            _Float16 h = (_Float16)f;
            uint16_t want;
            memcpy(&want, &h, 2);
            uint16_t got = dtype_f32_to_f16(f);
            if (got != want)
                ck_abort_msg("f32 %08x -> f16 %04x, _Float16 gives %04x", u, got, want);
        }
    }
#endif
}
END_TEST

START_TEST(test_f16_nan)
{
    ck_assert_uint_eq(dtype_f32_to_f16(NAN), 0x7E00u);
    ck_assert_uint_eq(dtype_f32_to_f16(dtype_f32_from_bits(0x7F800001u)), 0x7E00u); /* sNaN stays NaN */
    ck_assert_uint_eq(dtype_f32_to_f16(dtype_f32_from_bits(0xFFC00000u)), 0xFE00u);
}
END_TEST

START_TEST(test_float_to_int_torch)
{
    /* torch 1.13 measurements, semantics.md §1.2 */
    unsigned char buf[8];
    dtype_store(DTYPE_INT8, buf, 0, 300.7);
    ck_assert_int_eq((int8_t)buf[0], 44);
    dtype_store(DTYPE_INT8, buf, 0, -300.7);
    ck_assert_int_eq((int8_t)buf[0], -44);
    dtype_store(DTYPE_INT8, buf, 0, 1e10);
    ck_assert_int_eq((int8_t)buf[0], 0);
    dtype_store(DTYPE_INT8, buf, 0, NAN);
    ck_assert_int_eq((int8_t)buf[0], 0);
    dtype_store(DTYPE_UINT8, buf, 0, -1.5);
    ck_assert_int_eq(buf[0], 255);
    dtype_store(DTYPE_UINT8, buf, 0, -0.5);
    ck_assert_int_eq(buf[0], 0);
    dtype_store(DTYPE_INT16, buf, 0, 70000.5);
    ck_assert_int_eq((int)dtype_load(DTYPE_INT16, buf, 0), 4464);
    dtype_store(DTYPE_INT32, buf, 0, 3e9);
    ck_assert_int_eq((int64_t)dtype_load(DTYPE_INT32, buf, 0), INT32_MIN);
    dtype_store(DTYPE_INT64, buf, 0, NAN);
    ck_assert(dtype_load_i64(DTYPE_INT64, buf, 0) == INT64_MIN);
    dtype_store(DTYPE_INT64, buf, 0, -INFINITY);
    ck_assert(dtype_load_i64(DTYPE_INT64, buf, 0) == INT64_MIN);
    dtype_store(DTYPE_INT64, buf, 0, -7.9);
    ck_assert(dtype_load_i64(DTYPE_INT64, buf, 0) == -7);
    dtype_store(DTYPE_BOOL, buf, 0, NAN);
    ck_assert_int_eq(buf[0], 1);
    dtype_store(DTYPE_BOOL, buf, 0, -0.0);
    ck_assert_int_eq(buf[0], 0);
    /* int -> narrower int wraps; int -> bf16 via f32 */
    dtype_store_i64(DTYPE_INT8, buf, 0, 300);
    ck_assert_int_eq((int8_t)buf[0], 44);
    dtype_store_i64(DTYPE_BF16, buf, 0, 257);
    ck_assert_double_eq(dtype_load(DTYPE_BF16, buf, 0), 256.0);
    dtype_store_i64(DTYPE_BF16, buf, 0, 259);
    ck_assert_double_eq(dtype_load(DTYPE_BF16, buf, 0), 260.0);
    dtype_store_i64(DTYPE_FP32, buf, 0, (1 << 24) + 1);
    ck_assert_double_eq(dtype_load(DTYPE_FP32, buf, 0), 16777216.0);
}
END_TEST

START_TEST(test_double_rounding_via_f32)
{
    /* f64 -> bf16 goes through f32 (semantics.md §1.2): 1 + 2^-8 + 2^-30
     * becomes the f32 tie 1 + 2^-8, which rounds to even 1.0; a direct
     * rounding would give 1 + 2^-7. */
    unsigned char buf[2];
    dtype_store(DTYPE_BF16, buf, 0, 1.0 + ldexp(1, -8) + ldexp(1, -30));
    ck_assert_double_eq(dtype_load(DTYPE_BF16, buf, 0), 1.0);
    /* fp16: 65519.99999 rounds in f32 to 65520 -> inf */
    dtype_store(DTYPE_FP16, buf, 0, 65519.9999999);
    ck_assert(isinf(dtype_load(DTYPE_FP16, buf, 0)));
}
END_TEST

START_TEST(test_names_and_sizes)
{
    ck_assert_str_eq(dtype_pl_name(DTYPE_BF16), "pl.BF16");
    ck_assert_str_eq(dtype_pl_name(DTYPE_INDEX), "pl.INDEX");
    ck_assert_str_eq(dtype_ir_name(DTYPE_BF16), "bfloat16");
    ck_assert_str_eq(dtype_torch_name(DTYPE_FP16), "torch.float16");
    ck_assert_str_eq(dtype_torch_name(DTYPE_INDEX), "torch.int64");
    ck_assert_uint_eq(dtype_size(DTYPE_INDEX), 8);
    ck_assert_uint_eq(dtype_size(DTYPE_BOOL), 1);
    ck_assert_uint_eq(dtype_size(DTYPE_BF16), 2);
    ck_assert_uint_eq(dtype_size((dtype_id)99), 0);
    ck_assert_str_eq(dtype_name((dtype_id)-1), "?");
    static const struct {
        const char *s;
        dtype_id dt;
    } p[] = {{"pl.BF16", DTYPE_BF16},   {"BF16", DTYPE_BF16},       {"bfloat16", DTYPE_BF16},
             {"torch.bfloat16", DTYPE_BF16}, {"fp32", DTYPE_FP32},  {"float32", DTYPE_FP32},
             {"pl.FP32", DTYPE_FP32},   {"torch.float", DTYPE_FP32}, {"half", DTYPE_FP16},
             {"pl.INDEX", DTYPE_INDEX}, {"index", DTYPE_INDEX},     {"int64", DTYPE_INT64},
             {"torch.int64", DTYPE_INT64}, {"bool", DTYPE_BOOL},    {"UINT8", DTYPE_UINT8}};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        dtype_id dt;
        ck_assert_msg(dtype_parse(p[i].s, &dt) == 0, "parse %s", p[i].s);
        ck_assert_int_eq(dt, p[i].dt);
    }
    dtype_id dt;
    ck_assert_int_eq(dtype_parse("float8", &dt), -1);
    ck_assert_int_eq(dtype_parse(NULL, &dt), -1);
    ck_assert_int_eq(dtype_torch_storage(DTYPE_UINT16), DTYPE_INT32);
}
END_TEST

START_TEST(test_bulk_convert)
{
    float src[5] = {1.0f, -2.5f, NAN, INFINITY, 1.00390625f};
    uint16_t bf[5];
    float back[5];
    dtype_convert(DTYPE_BF16, bf, DTYPE_FP32, src, 5);
    ck_assert_uint_eq(bf[0], 0x3F80u);
    ck_assert_uint_eq(bf[1], 0xC020u);
    ck_assert_uint_eq(bf[2], 0xFFFFu);
    ck_assert_uint_eq(bf[3], 0x7F80u);
    ck_assert_uint_eq(bf[4], 0x3F80u); /* tie to even */
    dtype_convert(DTYPE_FP32, back, DTYPE_BF16, bf, 5);
    ck_assert(back[1] == -2.5f && isnan(back[2]) && isinf(back[3]));
    int32_t ints[3] = {300, -1, 70000};
    int8_t i8[3];
    dtype_convert(DTYPE_INT8, i8, DTYPE_INT32, ints, 3);
    ck_assert_int_eq(i8[0], 44);
    ck_assert_int_eq(i8[1], -1);
    ck_assert_int_eq(i8[2], 112);
    /* an integer to float32: the element path's value (int64, then float),
     * rounding included (2^24 + 1 and its neighbours, int32's extremes) */
    static const dtype_id ints_dt[] = {DTYPE_INT32, DTYPE_INT16, DTYPE_INT8, DTYPE_UINT8};
    static const int64_t vals[] = {0, 1, -1, 127, -128, 255, 32767, -32768, 16777217, -16777217, 16777219,
                                   2147483647, -2147483647 - 1, 123456789, -987654321};
    enum { NV = sizeof vals / sizeof vals[0] };
    for (size_t d = 0; d < sizeof ints_dt / sizeof ints_dt[0]; d++) {
        unsigned char raw[NV * 4];
        float got[NV], want[NV];
        for (int i = 0; i < NV; i++)
            dtype_store_i64(ints_dt[d], raw, (size_t)i, vals[i]); /* wrapped into the dtype */
        dtype_convert(DTYPE_FP32, got, ints_dt[d], raw, NV);
        for (int i = 0; i < NV; i++)
            dtype_store_i64(DTYPE_FP32, want, (size_t)i, dtype_load_i64(ints_dt[d], raw, (size_t)i));
        ck_assert_msg(memcmp(got, want, sizeof got) == 0, "%s to fp32", dtype_name(ints_dt[d]));
    }
}
END_TEST

/* ---- FP8 ------------------------------------------------------------------ */

/* The value of an 8-bit float pattern from its definition, independently of
 * dtype.h: sign, exponent bits, mantissa bits, bias; NaN/Inf per format. */
static double fp8_reference_value(dtype_id dt, unsigned b)
{
    if (dt == DTYPE_FP8E8M0)
        return b == 0xFF ? NAN : ldexp(1.0, (int)b - 127);
    int man_bits = dt == DTYPE_FP8E4M3FN ? 3 : 2, bias = dt == DTYPE_FP8E4M3FN ? 7 : 15;
    int exp_max = dt == DTYPE_FP8E4M3FN ? 15 : 31;
    int sign = (b >> 7) & 1, e = (int)((b & 0x7F) >> man_bits), m = (int)(b & ((1u << man_bits) - 1));
    double v;
    if (dt == DTYPE_FP8E4M3FN && e == exp_max && m == 7)
        return NAN;
    if (dt == DTYPE_FP8E5M2 && e == exp_max)
        v = m == 0 ? INFINITY : NAN;
    else if (e == 0)
        v = ldexp((double)m, 1 - bias - man_bits);
    else
        v = ldexp(1.0 + (double)m / (1 << man_bits), e - bias);
    return sign ? -v : v;
}

START_TEST(test_fp8_all_patterns_decode)
{
    static const dtype_id dts[] = {DTYPE_FP8E4M3FN, DTYPE_FP8E5M2, DTYPE_FP8E8M0};
    for (size_t k = 0; k < 3; k++) {
        for (unsigned b = 0; b < 256; b++) {
            uint8_t byte = (uint8_t)b;
            double got = dtype_load(dts[k], &byte, 0), want = fp8_reference_value(dts[k], b);
            if (isnan(want)) {
                ck_assert_msg(isnan(got), "%s 0x%02X: want NaN, got %g", dtype_name(dts[k]), b, got);
                continue;
            }
            ck_assert_msg(got == want && signbit(got) == signbit(want), "%s 0x%02X: want %a, got %a",
                          dtype_name(dts[k]), b, want, got);
        }
    }
    /* -0.0 keeps its sign; the E8M0 code 0 is 2^-127, not zero */
    uint8_t b = 0x80;
    ck_assert(signbit(dtype_load(DTYPE_FP8E4M3FN, &b, 0)) && dtype_load(DTYPE_FP8E4M3FN, &b, 0) == 0.0);
    b = 0;
    ck_assert(dtype_load(DTYPE_FP8E8M0, &b, 0) == 0x1p-127);
}
END_TEST

/* Every pattern that is a number converts back to itself; NaN patterns go to
 * torch's canonical NaN of the sign. */
START_TEST(test_fp8_all_patterns_roundtrip)
{
    static const dtype_id dts[] = {DTYPE_FP8E4M3FN, DTYPE_FP8E5M2, DTYPE_FP8E8M0};
    for (size_t k = 0; k < 3; k++) {
        for (unsigned b = 0; b < 256; b++) {
            uint8_t in = (uint8_t)b, out = 0;
            double v = dtype_load(dts[k], &in, 0);
            dtype_store(dts[k], &out, 0, v);
            uint8_t want = in;
            if (isnan(v))
                want = dts[k] == DTYPE_FP8E8M0 ? 0xFF : (uint8_t)((in & 0x80) | 0x7F);
            ck_assert_msg(out == want, "%s 0x%02X -> %g -> 0x%02X", dtype_name(dts[k]), b, v, out);
        }
    }
}
END_TEST

/* Nearest representable pattern by brute force over all 256 codes, ties to
 * the even code, with torch's overflow: e4m3fn treats 480 as the value of
 * 0x7F (so |x| > 464 lands on NaN) and anything from 480 up is NaN; e5m2
 * rounds to Inf as IEEE does. */
static uint8_t fp8_reference_encode(dtype_id dt, float f)
{
    double x = f;
    int neg = signbit(x) != 0;
    if (isnan(x))
        return (uint8_t)((neg ? 0x80 : 0) | 0x7F);
    double a = fabs(x);
    if (dt == DTYPE_FP8E4M3FN && a >= 480.0)
        return (uint8_t)((neg ? 0x80 : 0) | 0x7F);
    if (dt == DTYPE_FP8E5M2 && a >= 65536.0)
        return (uint8_t)((neg ? 0x80 : 0) | 0x7C);
    unsigned best = 0;
    double best_d = INFINITY;
    for (unsigned c = 0; c < 0x80; c++) {
        double v = dt == DTYPE_FP8E4M3FN && c == 0x7F ? 480.0
                   : dt == DTYPE_FP8E5M2 && c == 0x7C ? 65536.0 /* Inf, as the next binade's start */
                                                      : fp8_reference_value(dt, c);
        if (isnan(v))
            continue;
        double d = fabs(v - a);
        if (d < best_d || (d == best_d && (c & 1) == 0)) {
            best_d = d;
            best = c;
        }
    }
    return (uint8_t)((neg ? 0x80 : 0) | best);
}

START_TEST(test_fp8_rounding_sweep)
{
    static const dtype_id dts[] = {DTYPE_FP8E4M3FN, DTYPE_FP8E5M2};
    for (size_t k = 0; k < 2; k++) {
        for (uint64_t u = 0; u <= 0xFFFFFFFFu; u += 40961) {
            float f = dtype_f32_from_bits((uint32_t)u);
            uint8_t out;
            dtype_store(dts[k], &out, 0, f);
            uint8_t want = fp8_reference_encode(dts[k], f);
            ck_assert_msg(out == want, "%s %a: want 0x%02X, got 0x%02X", dtype_name(dts[k]), (double)f, want, out);
        }
    }
}
END_TEST

START_TEST(test_fp8_rounding_vectors)
{
    static const struct {
        dtype_id dt;
        double in;
        uint8_t want;
    } v[] = {
        /* e4m3fn: 1 = 0x38; ties to even between 1 and 1.125 */
        {DTYPE_FP8E4M3FN, 1.0, 0x38},        {DTYPE_FP8E4M3FN, 1.0625, 0x38},
        {DTYPE_FP8E4M3FN, 1.1875, 0x3A},     {DTYPE_FP8E4M3FN, -1.0625, 0xB8},
        {DTYPE_FP8E4M3FN, 448.0, 0x7E},      {DTYPE_FP8E4M3FN, 464.0, 0x7E},
        {DTYPE_FP8E4M3FN, 464.5, 0x7F},      {DTYPE_FP8E4M3FN, 480.0, 0x7F},
        {DTYPE_FP8E4M3FN, 1e9, 0x7F},        {DTYPE_FP8E4M3FN, INFINITY, 0x7F},
        {DTYPE_FP8E4M3FN, -INFINITY, 0xFF},  {DTYPE_FP8E4M3FN, NAN, 0x7F},
        {DTYPE_FP8E4M3FN, -0.0, 0x80},       {DTYPE_FP8E4M3FN, 0x1p-9, 0x01},
        {DTYPE_FP8E4M3FN, 0x1p-10, 0x00},    {DTYPE_FP8E4M3FN, 0x1.8p-10, 0x01},
        {DTYPE_FP8E4M3FN, 0x1.8p-9, 0x02},   {DTYPE_FP8E4M3FN, 0x1.ep-7, 0x08},
        {DTYPE_FP8E4M3FN, 1e-30, 0x00},      {DTYPE_FP8E4M3FN, -1e-30, 0x80},
        /* e5m2: 1 = 0x3C; 57344 max finite, 61440 ties to Inf (even) */
        {DTYPE_FP8E5M2, 1.0, 0x3C},          {DTYPE_FP8E5M2, 1.125, 0x3C},
        {DTYPE_FP8E5M2, 1.375, 0x3E},        {DTYPE_FP8E5M2, 57344.0, 0x7B},
        {DTYPE_FP8E5M2, 61439.0, 0x7B},      {DTYPE_FP8E5M2, 61440.0, 0x7C},
        {DTYPE_FP8E5M2, 1e9, 0x7C},          {DTYPE_FP8E5M2, -INFINITY, 0xFC},
        {DTYPE_FP8E5M2, NAN, 0x7F},          {DTYPE_FP8E5M2, 0x1p-16, 0x01},
        {DTYPE_FP8E5M2, 0x1p-17, 0x00},      {DTYPE_FP8E5M2, 0x1.8p-17, 0x01},
        /* e8m0: the exponent, rounded up from a mantissa of 1.5 (normal);
         * the sign is dropped; 0 is code 0 (2^-127); NaN/Inf are 0xFF */
        {DTYPE_FP8E8M0, 1.0, 0x7F},          {DTYPE_FP8E8M0, 1.4999, 0x7F},
        {DTYPE_FP8E8M0, 1.5, 0x80},          {DTYPE_FP8E8M0, 3.0, 0x81},
        {DTYPE_FP8E8M0, -2.0, 0x80},         {DTYPE_FP8E8M0, 0.0, 0x00},
        {DTYPE_FP8E8M0, 0x1p-127, 0x00},     {DTYPE_FP8E8M0, 0x1.8p-127, 0x01},
        {DTYPE_FP8E8M0, 0x1p127, 0xFE},      {DTYPE_FP8E8M0, 0x1.8p127, 0xFF},
        {DTYPE_FP8E8M0, INFINITY, 0xFF},     {DTYPE_FP8E8M0, NAN, 0xFF},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint8_t out = 0x55;
        dtype_store(v[i].dt, &out, 0, v[i].in);
        ck_assert_msg(out == v[i].want, "%s %a: want 0x%02X, got 0x%02X", dtype_name(v[i].dt), v[i].in,
                      v[i].want, out);
    }
    /* names, sizes and REF's float32 storage */
    dtype_id dt;
    ck_assert_int_eq(dtype_parse("torch.float8_e4m3fn", &dt), 0);
    ck_assert_int_eq(dt, DTYPE_FP8E4M3FN);
    ck_assert_int_eq(dtype_parse("pl.FP8E8M0", &dt), 0);
    ck_assert_int_eq(dt, DTYPE_FP8E8M0);
    ck_assert_int_eq(dtype_parse("float8_e8m0fnu", &dt), 0);
    ck_assert_int_eq(dtype_parse("fp8e5m2", &dt), 0);
    ck_assert_int_eq(dt, DTYPE_FP8E5M2);
    ck_assert_uint_eq(dtype_size(DTYPE_FP8E5M2), 1);
    ck_assert_int_eq(dtype_torch_storage(DTYPE_FP8E4M3FN), DTYPE_FP32);
    ck_assert(dtype_is_float(DTYPE_FP8E8M0));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dtype");
    TCase *tc = tcase_create("conversions");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_bf16_all_patterns);
    tcase_add_test(tc, test_f16_all_patterns);
    tcase_add_test(tc, test_f16_numpy_vectors);
    tcase_add_test(tc, test_bf16_by_hand);
    tcase_add_test(tc, test_bf16_sweep);
    tcase_add_test(tc, test_f16_sweep_against_compiler);
    tcase_add_test(tc, test_f16_nan);
    tcase_add_test(tc, test_float_to_int_torch);
    tcase_add_test(tc, test_double_rounding_via_f32);
    tcase_add_test(tc, test_names_and_sizes);
    tcase_add_test(tc, test_bulk_convert);
    tcase_add_test(tc, test_fp8_all_patterns_decode);
    tcase_add_test(tc, test_fp8_all_patterns_roundtrip);
    tcase_add_test(tc, test_fp8_rounding_sweep);
    tcase_add_test(tc, test_fp8_rounding_vectors);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
