/* Fuzzes the .npy reader on a file, without a dtype hint and with the bf16
 * hint a manifest gives, then reads every element. */
#include "fuzz.h"

#include "data/npy.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_memfile(data, size);
    static const dtype_id hints[] = {DTYPE_COUNT, DTYPE_BF16};
    for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++) {
        diag_sink sink;
        diag_sink_init(&sink, 20);
        tensor *t = NULL;
        if (npy_load(path, hints[h], &t, &sink) == PTODB_OK) {
            tensor_stats stats;
            tensor_compute_stats(t, &stats);
            tensor_unref(t);
        }
        diag_sink_free(&sink);
    }
    return 0;
}
