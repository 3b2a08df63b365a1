/* A test and benchmark helper (built by make check, not installed, not a
 * test itself): drives the data readers/writers from shell tests.
 *   check_data_tool stats FILE [DTYPE]   one line per tensor:
 *        NAME DTYPE SHAPE NUMEL CRC32 SUM   (format of tests/data/pt_expected.txt)
 *   check_data_tool gen pt|npy OUT DTYPE D0 [D1 ...]   a deterministic tensor
 *   check_data_tool fill pt|npy OUT DTYPE VALUE D0 [D1 ...]   every element VALUE
 *   check_data_tool load FILE [--touch]  load once (--touch: then read every
 *                                        byte), print "seconds bytes"
 *   check_data_tool convert IN OUT       .pt/.npy -> .pt/.npy (one tensor) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/diag.h"
#include "base/mem.h"
#include "data/npy.h"
#include "data/pt.h"
#include "data/zip.h"
#include "tensor/tensor.h"

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static int fail(diag_sink *sink)
{
    diag_sink_print(sink, stderr, 0);
    diag_sink_free(sink);
    return 2;
}

static void print_stats(const char *name, const tensor *t)
{
    tensor *c = tensor_clone(t);
    uint32_t crc = zip_crc32(0, c->storage->data, c->storage->nbytes);
    double sum = 0;
    int64_t n = tensor_numel(c);
    for (int64_t i = 0; i < n; i++)
        sum += dtype_load(c->dtype, c->storage->data, (size_t)i);
    char shape[200] = "scalar";
    if (t->ndim > 0) {
        size_t used = 0;
        for (int d = 0; d < t->ndim; d++)
            used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%lld", d ? "x" : "",
                                     (long long)t->shape[d]);
    }
    printf("%s %s %s %lld %08x %.17g\n", name, dtype_name(t->dtype), shape, (long long)n, crc, sum);
    tensor_unref(c);
}

static int load_any(const char *path, dtype_id hint, pt_file *f, diag_sink *sink)
{
    if (ends_with(path, ".npy")) {
        tensor *t;
        memset(f, 0, sizeof *f);
        if (npy_load(path, hint, &t, sink) != PTODB_OK)
            return -1;
        f->items = xcalloc(1, sizeof *f->items);
        f->items[0].t = t;
        f->count = 1;
        return 0;
    }
    return pt_load(path, f, sink) == PTODB_OK ? 0 : -1;
}

int main(int argc, char **argv)
{
    diag_sink sink;
    diag_sink_init(&sink, 10);
    if (argc >= 3 && strcmp(argv[1], "stats") == 0) {
        dtype_id hint = DTYPE_COUNT;
        if (argc > 3 && dtype_parse(argv[3], &hint) != 0)
            return 2;
        pt_file f;
        if (load_any(argv[2], hint, &f, &sink) != 0)
            return fail(&sink);
        for (size_t i = 0; i < f.count; i++)
            print_stats(f.items[i].name ? f.items[i].name : "-", f.items[i].t);
        pt_file_free(&f);
    } else if (argc >= 7 && strcmp(argv[1], "fill") == 0) {
        dtype_id dt;
        if (dtype_parse(argv[4], &dt) != 0)
            return 2;
        int64_t shape[TENSOR_MAX_DIMS];
        int nd = argc - 6;
        if (nd > TENSOR_MAX_DIMS)
            return 2;
        for (int d = 0; d < nd; d++)
            shape[d] = atoll(argv[6 + d]);
        tensor *t = tensor_zeros(dt, nd, shape, NULL);
        if (!t)
            return 2;
        double v = atof(argv[5]);
        for (int64_t i = 0; i < tensor_numel(t); i++)
            dtype_store(dt, t->storage->data, (size_t)i, v);
        ptodb_status st = strcmp(argv[2], "npy") == 0 ? npy_save(argv[3], t, &sink) : pt_save(argv[3], t, &sink);
        tensor_unref(t);
        return st == PTODB_OK ? 0 : 1;
    } else if (argc >= 6 && strcmp(argv[1], "gen") == 0) {
        dtype_id dt;
        if (dtype_parse(argv[4], &dt) != 0)
            return 2;
        int64_t shape[TENSOR_MAX_DIMS];
        int nd = argc - 5;
        if (nd > TENSOR_MAX_DIMS)
            return 2;
        for (int d = 0; d < nd; d++)
            shape[d] = atoll(argv[5 + d]);
        tensor *t = tensor_zeros(dt, nd, shape, NULL);
        if (!t)
            return 2;
        int64_t n = tensor_numel(t);
        for (int64_t i = 0; i < n; i++)
            dtype_store(dt, t->storage->data, (size_t)i, (double)((i * 7919) % 2001 - 1000) / 64.0);
        ptodb_status st = strcmp(argv[2], "npy") == 0 ? npy_save(argv[3], t, &sink)
                                                      : pt_save(argv[3], t, &sink);
        tensor_unref(t);
        if (st != PTODB_OK)
            return fail(&sink);
    } else if ((argc == 3 || (argc == 4 && strcmp(argv[3], "--touch") == 0)) &&
               strcmp(argv[1], "load") == 0) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        pt_file f;
        if (load_any(argv[2], DTYPE_COUNT, &f, &sink) != 0)
            return fail(&sink);
        size_t bytes = 0;
        uint64_t x = 0;
        for (size_t i = 0; i < f.count; i++) {
            const tensor_storage *s = f.items[i].t->storage;
            bytes += s->nbytes;
            /* --touch: read every byte once, as a first use of the data would */
            for (size_t k = 0; argc == 4 && k + 8 <= s->nbytes; k += 8) {
                uint64_t w;
                memcpy(&w, s->data + k, 8);
                x ^= w;
            }
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
        if (x == 1)
            putchar(' '); /* keeps the loop from being optimised away */
        printf("%.6f %zu\n", (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec), bytes);
        pt_file_free(&f);
    } else if (argc == 4 && strcmp(argv[1], "convert") == 0) {
        pt_file f;
        if (load_any(argv[2], DTYPE_COUNT, &f, &sink) != 0)
            return fail(&sink);
        ptodb_status st = f.count != 1 ? PTODB_ERR_FORMAT
                          : ends_with(argv[3], ".npy") ? npy_save(argv[3], f.items[0].t, &sink)
                                                       : pt_save(argv[3], f.items[0].t, &sink);
        pt_file_free(&f);
        if (st != PTODB_OK)
            return fail(&sink);
    } else {
        fprintf(stderr, "usage: check_data_tool stats|gen|load|convert ...\n");
        return 2;
    }
    diag_sink_free(&sink);
    return 0;
}
