/* The reverse-execution oracle's page-cached storage hash
 * (tests/timetravel/page_hash.c) against the plain hash of the bytes
 * (machine_storage_bytes_hash): equal after every kind of write the
 * debugger makes to a tracked storage (a store into a protected page, a
 * restore's memcpy across pages, the first and last pages it shares with
 * other allocations, a worker thread's write), and the cache is used. A
 * hasher that missed any of these writes would give the old value. */
#include <check.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "exec/snapshot.h"
#include "tensor/tensor.h"
#include "timetravel/page_hash.h"
#include "unit_case.h"

static tensor_storage *storage_of(size_t nbytes, tensor **keep)
{
    int64_t shape[1] = {(int64_t)nbytes};
    *keep = tensor_zeros(DTYPE_UINT8, 1, shape, NULL);
    ck_assert_ptr_nonnull(*keep);
    tensor_storage *s = (*keep)->storage;
    for (size_t i = 0; i < nbytes; i++)
        s->data[i] = (unsigned char)(i * 131u + 7u);
    return s;
}

static int same(const tensor_storage *s)
{
    return page_hash_storage(s) == machine_storage_bytes_hash(s->data, s->nbytes);
}

static void *poke(void *arg)
{
    unsigned char *p = arg;
    *p ^= 0x5a;
    return NULL;
}

START_TEST(every_write_seen)
{
    page_hash_enable();
    size_t pg = (size_t)sysconf(_SC_PAGESIZE), n = 37 * pg + 123;
    tensor *keep;
    tensor_storage *s = storage_of(n, &keep);
    ck_assert(same(s));
    size_t r0, c0, r1, c1;
    page_hash_counts(&r0, &c0);
    ck_assert(same(s)); /* nothing written: only the chunks on the two shared pages read (3 at most) */
    page_hash_counts(&r1, &c1);
    ck_assert_uint_le(r1 - r0, 3);
    ck_assert_uint_ge(c1 - c0, 30);
    s->data[n / 2] ^= 1; /* a store into a protected page */
    ck_assert(same(s));
    unsigned char buf[3 * 4096];
    memset(buf, 0xee, sizeof buf);
    memcpy(s->data + 5 * pg - 17, buf, sizeof buf); /* a restore across pages */
    ck_assert(same(s));
    s->data[0] ^= 2; /* the first and the last page, never protected */
    s->data[n - 1] ^= 2;
    ck_assert(same(s));
    pthread_t th; /* a matmul worker's store */
    ck_assert_int_eq(pthread_create(&th, NULL, poke, s->data + 20 * pg + 9), 0);
    pthread_join(th, NULL);
    ck_assert(same(s));
    s->data[n / 2] ^= 1; /* back to earlier bytes: still read again */
    ck_assert(same(s));
    page_hash_reset(); /* writable again, and the hash of bytes never cached */
    s->data[n / 3] ^= 4;
    ck_assert(same(s));
    page_hash_reset();
    tensor_unref(keep);
}
END_TEST

START_TEST(small_storage_plain)
{
    page_hash_enable();
    tensor *keep;
    tensor_storage *s = storage_of(1000, &keep);
    ck_assert(same(s));
    s->data[10] ^= 1;
    ck_assert(same(s));
    page_hash_reset();
    tensor_unref(keep);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {every_write_seen, small_storage_plain};
    return unit_run("page_hash", tests, 2);
}
