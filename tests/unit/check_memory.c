/* Unit tests for src/memory: the SoC tables (the numbers of PyPTO's
 * src/backend/common/soc.cpp:124-183) and each sanitizer check on hand-made
 * tiles, with the expected byte positions worked out in the comments. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "memory/memmap.h"
#include "memory/soc.h"

static tensor *filled(int rows, int cols, float v)
{
    int64_t shape[2] = {rows, cols};
    tensor *t = tensor_zeros(DTYPE_FP32, 2, shape, NULL);
    float *d = tensor_data(t);
    for (int i = 0; i < rows * cols; i++)
        d[i] = v + (float)i;
    return t;
}

static const int key_a = 0, key_b = 0, key_c = 0;

START_TEST(test_soc_tables)
{
    mem_space_limits l;
    ck_assert_int_eq(mem_space_limits_of(MEM_TARGET_910B, MEM_SPACE_VEC, &l), 0);
    ck_assert_uint_eq(l.capacity, 184 * 1024); /* soc.cpp:139 */
    ck_assert_uint_eq(l.soc_align, 128);
    ck_assert_uint_eq(l.align, 32); /* the allocator's, memory_allocator_policy.h:87 */
    ck_assert_int_eq(mem_space_limits_of(MEM_TARGET_910B, MEM_SPACE_LEFT_SCALE, &l), -1);
    ck_assert_int_eq(mem_space_limits_of(MEM_TARGET_950, MEM_SPACE_ACC, &l), 0);
    ck_assert_uint_eq(l.capacity, 256 * 1024); /* soc.cpp:169 */
    ck_assert_int_eq(mem_space_limits_of(MEM_TARGET_950, MEM_SPACE_RIGHT_SCALE, &l), 0);
    ck_assert_uint_eq(l.capacity, 4 * 1024);
    mem_target t;
    ck_assert_int_eq(mem_target_from_text("backend: Ascend950; 50 dump files", &t), 0);
    ck_assert_int_eq(t, MEM_TARGET_950);
    ck_assert_int_eq(mem_target_from_text("/x/softmax_910b", &t), 0);
    ck_assert_int_eq(t, MEM_TARGET_910B);
    ck_assert_int_eq(mem_target_from_text("nothing here", &t), -1);
    ck_assert_int_eq(mem_space_from_name("Acc"), MEM_SPACE_ACC);
    ck_assert_int_eq(mem_space_from_name("DDR"), -1);
}
END_TEST

/* a = [16, 128] fp32 at 0 (8192 bytes), b the same at 8192: no overlap, no
 * fault; then b moved onto a's bytes (what a wrong MemoryReuse does) and a
 * read: a's element 0 now holds b's element 0 (1000.0 vs 0.0): clobber. */
START_TEST(test_clobber)
{
    mem_core mc;
    mem_core_init(&mc, MEM_TARGET_910B, 1);
    mem_fault f;
    uint32_t a = mem_tile_declare(&mc, &key_a, NULL, "a", "mem_vec_3", MEM_SPACE_VEC, 0, 8192, 10, 9, &f);
    ck_assert_int_eq(f.kind, MEM_FAULT_NONE);
    uint32_t b = mem_tile_declare(&mc, &key_b, NULL, "b", "mem_vec_4", MEM_SPACE_VEC, 8192, 8192, 11, 9, &f);
    tensor *ta = filled(16, 128, 0), *tb = filled(16, 128, 1000);
    uint32_t ga = mem_tile_write(&mc, a, ta, &f);
    mem_tile_write(&mc, b, tb, &f);
    ck_assert_int_eq(mem_tile_read(&mc, a, ga, ta, &f), 0);
    uint32_t c = mem_tile_declare(&mc, &key_c, NULL, "c", "mem_vec_4", MEM_SPACE_VEC, 0, 8192, 12, 9, &f);
    mem_tile_write(&mc, c, tb, &f);
    ck_assert_int_eq(mem_tile_read(&mc, a, ga, ta, &f), 1);
    ck_assert_int_eq(f.kind, MEM_FAULT_CLOBBER);
    ck_assert_uint_eq(f.tile, a);
    ck_assert_uint_eq(f.other, c);
    ck_assert_uint_eq(f.at, 2); /* 0.0f = 00 00 00 00, 1000.0f = 00 00 7a 44 (little endian) */
    strbuf sb = STRBUF_INIT;
    mem_fault_format(&mc, &f, &sb);
    ck_assert_ptr_nonnull(strstr(strbuf_str(&sb), "a (MemRef mem_vec_3, Vec [0, 8192))"));
    ck_assert_ptr_nonnull(strstr(strbuf_str(&sb), "c (MemRef mem_vec_4, Vec [0, 8192))"));
    strbuf_free(&sb);
    /* what the device reads for a now: b's elements (1000 + i) */
    tensor *dev = filled(16, 128, -1);
    mem_tile_device_value(&mc, a, ta, dev);
    ck_assert(((float *)tensor_data(dev))[0] == 1000.0f);
    ck_assert(((float *)tensor_data(dev))[2047] == 3047.0f);
    tensor_unref(dev);
    /* writing the same values over a changes nothing: no fault */
    mem_core_begin_call(&mc);
    ga = mem_tile_write(&mc, a, ta, &f);
    mem_tile_write(&mc, c, ta, &f);
    ck_assert_int_eq(mem_tile_read(&mc, a, ga, ta, &f), 0);
    tensor_unref(ta);
    tensor_unref(tb);
    mem_core_free(&mc);
}
END_TEST

/* A reader's view of a space (readMemory): b = [16, 128] fp32 from 1000.0
 * written at 8192; bytes 8192..8195 are 1000.0f = 00 00 7a 44 (little
 * endian); Vec's extent once addressed is its capacity, 184 KiB = 188416
 * bytes, so 16 bytes from 188408 give 8; nothing from 188416 on. Bytes past
 * what was allocated read as 0. */
START_TEST(test_space_read)
{
    mem_core mc;
    mem_core_init(&mc, MEM_TARGET_910B, 1);
    ck_assert_uint_eq(mem_space_extent(&mc, MEM_SPACE_VEC), 188416);
    ck_assert_uint_eq(mem_space_extent(&mc, MEM_SPACE_LEFT_SCALE), 0); /* no such space on 910B */
    unsigned char buf[16];
    memset(buf, 0xee, sizeof buf);
    ck_assert_uint_eq(mem_space_read(&mc, MEM_SPACE_VEC, 188408, buf, 16), 8);
    for (int i = 0; i < 8; i++)
        ck_assert_uint_eq(buf[i], 0);
    ck_assert_uint_eq(buf[8], 0xee);
    ck_assert_uint_eq(mem_space_read(&mc, MEM_SPACE_VEC, 188416, buf, 16), 0);
    mem_fault f;
    uint32_t b = mem_tile_declare(&mc, &key_b, NULL, "b", "mem_vec_4", MEM_SPACE_VEC, 8192, 8192, 11, 9, &f);
    tensor *tb = filled(16, 128, 1000);
    mem_tile_write(&mc, b, tb, &f);
    ck_assert_uint_eq(mem_space_read(&mc, MEM_SPACE_VEC, 8190, buf, 8), 8);
    /* 8190, 8191: nothing wrote them (0); 8192..8195: 1000.0f; 8196, 8197:
     * the low half of 1001.0f = 00 40 7a 44 */
    ck_assert_uint_eq(buf[0], 0x00);
    ck_assert_uint_eq(buf[1], 0x00);
    ck_assert_uint_eq(buf[2], 0x00);
    ck_assert_uint_eq(buf[3], 0x00);
    ck_assert_uint_eq(buf[4], 0x7a);
    ck_assert_uint_eq(buf[5], 0x44);
    ck_assert_uint_eq(buf[6], 0x00);
    ck_assert_uint_eq(buf[7], 0x40);
    tensor_unref(tb);
    mem_core_free(&mc);
    /* before AllocateMemoryAddr the id-per-buffer layout reaches 256 MiB */
    mem_core_init(&mc, MEM_TARGET_910B, 0);
    ck_assert_uint_eq(mem_space_extent(&mc, MEM_SPACE_VEC), (uint64_t)256 << 20);
    mem_core_free(&mc);
}
END_TEST

/* A tile read before anything wrote it: uninit at its first byte; and a
 * scratch whose bytes hold another tile's data: uninit naming that tile. */
START_TEST(test_uninit)
{
    mem_core mc;
    mem_core_init(&mc, MEM_TARGET_910B, 1);
    mem_fault f;
    uint32_t a = mem_tile_declare(&mc, &key_a, NULL, "scratch", "mem_vec_3", MEM_SPACE_VEC, 256, 512, 5, 9, &f);
    tensor *t = filled(4, 32, 0); /* 512 bytes */
    memset(tensor_data(t), 0, 512); /* tile.create's zeros, equal to the untouched bytes */
    ck_assert_int_eq(mem_tile_read(&mc, a, 0, t, &f), 1);
    ck_assert_int_eq(f.kind, MEM_FAULT_UNINIT);
    ck_assert_uint_eq(f.at, 256);
    uint32_t b = mem_tile_declare(&mc, &key_b, NULL, "other", "mem_vec_4", MEM_SPACE_VEC, 256, 512, 4, 9, &f);
    tensor *o = filled(4, 32, 7);
    mem_tile_write(&mc, b, o, &f);
    ck_assert_int_eq(mem_tile_read(&mc, a, 0, t, &f), 1);
    ck_assert_int_eq(f.kind, MEM_FAULT_UNINIT);
    ck_assert_uint_eq(f.other, b);
    tensor_unref(t);
    tensor_unref(o);
    mem_core_free(&mc);
}
END_TEST

/* Vec on 910B is 184 KiB = 188416 bytes: a buffer at 184320 of 8192 bytes
 * ends at 192512 > 188416; an offset of 48 is not a multiple of 32; a
 * [16, 128] fp32 tile (8192 bytes) in a MemRef of 4096 is too large. */
START_TEST(test_bounds)
{
    mem_core mc;
    mem_core_init(&mc, MEM_TARGET_910B, 1);
    mem_fault f;
    uint32_t big = mem_tile_declare(&mc, &key_a, NULL, "big", "mem_vec_9", MEM_SPACE_VEC, 184320, 8192, 3, 9, &f);
    ck_assert_int_eq(f.kind, MEM_FAULT_BOUNDS);
    ck_assert_uint_eq(f.tile, big);
    ck_assert_int_eq(mem_tile_get(&mc, big)->unplaced, 1);
    ck_assert_ptr_nonnull(strstr(f.why, "188416"));
    uint32_t m = mem_tile_declare(&mc, &key_b, NULL, "mis", "mem_vec_3", MEM_SPACE_VEC, 48, 8192, 4, 9, &f);
    ck_assert_uint_ne(m, 0);
    ck_assert_int_eq(f.kind, MEM_FAULT_BOUNDS);
    ck_assert_ptr_nonnull(strstr(f.why, "aligned"));
    uint32_t s = mem_tile_declare(&mc, &key_c, NULL, "small", "mem_vec_4", MEM_SPACE_VEC, 8192, 4096, 5, 9, &f);
    tensor *t = filled(16, 128, 1);
    mem_tile_write(&mc, s, t, &f);
    ck_assert_int_eq(f.kind, MEM_FAULT_BOUNDS);
    ck_assert_ptr_nonnull(strstr(f.why, "larger than its MemRef"));
    tensor_unref(t);
    mem_core_free(&mc);
}
END_TEST

/* Before AllocateMemoryAddr two ids are two buffers even at offset 0. */
START_TEST(test_ids_before_addresses)
{
    mem_core mc;
    mem_core_init(&mc, MEM_TARGET_910B, 0);
    mem_fault f;
    uint32_t a = mem_tile_declare(&mc, &key_a, NULL, "a", "mem_vec_3", MEM_SPACE_VEC, 0, 8192, 1, 1, &f);
    uint32_t b = mem_tile_declare(&mc, &key_b, NULL, "b", "mem_vec_4", MEM_SPACE_VEC, 0, 8192, 2, 1, &f);
    uint32_t c = mem_tile_declare(&mc, &key_c, NULL, "c", "mem_vec_3", MEM_SPACE_VEC, 0, 8192, 3, 1, &f);
    ck_assert_uint_ne(mem_tile_get(&mc, a)->addr, mem_tile_get(&mc, b)->addr);
    ck_assert_uint_eq(mem_tile_get(&mc, a)->addr, mem_tile_get(&mc, c)->addr);
    mem_core_free(&mc);
}
END_TEST

/* A tile written over a reserved slot buffer [0, 8192): slot fault. */
START_TEST(test_slot)
{
    mem_core mc;
    mem_core_init(&mc, MEM_TARGET_910B, 1);
    mem_fault f;
    mem_slot_reserve(&mc, "c2v_slot_buffer", MEM_SPACE_VEC, 0, 8192);
    uint32_t a = mem_tile_declare(&mc, &key_a, NULL, "a", "mem_vec_3", MEM_SPACE_VEC, 4096, 8192, 1, 1, &f);
    tensor *t = filled(16, 128, 1);
    mem_tile_write(&mc, a, t, &f);
    ck_assert_int_eq(f.kind, MEM_FAULT_SLOT);
    uint32_t b = mem_tile_declare(&mc, &key_b, NULL, "b", "mem_vec_4", MEM_SPACE_VEC, 8192, 8192, 2, 1, &f);
    mem_tile_write(&mc, b, t, &f);
    ck_assert_int_eq(f.kind, MEM_FAULT_NONE);
    strbuf sb = STRBUF_INIT;
    mem_core_format_map(&mc, &sb);
    ck_assert_ptr_nonnull(strstr(strbuf_str(&sb), "slot buffer c2v_slot_buffer"));
    ck_assert_ptr_nonnull(strstr(strbuf_str(&sb), "high-water 16384"));
    strbuf_free(&sb);
    mem_core copy;
    memset(&copy, 0, sizeof copy);
    mem_core_copy(&copy, &mc);
    ck_assert_uint_eq(mem_core_hash(&copy), mem_core_hash(&mc));
    mem_tile_write(&mc, b, t, &f);
    ck_assert_uint_ne(mem_core_hash(&copy), mem_core_hash(&mc)); /* b's write count moved on */
    tensor_unref(t);
    mem_core_free(&copy);
    mem_core_free(&mc);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("checks");
    tcase_add_test(tc, test_soc_tables);
    tcase_add_test(tc, test_clobber);
    tcase_add_test(tc, test_uninit);
    tcase_add_test(tc, test_bounds);
    tcase_add_test(tc, test_ids_before_addresses);
    tcase_add_test(tc, test_slot);
    tcase_add_test(tc, test_space_read);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
