/* Fuzzes the whole .pt loader (mapping, ZIP, CRCs, pickle, tensor
 * rebuilding) on a file, then reads every element of every tensor so that a
 * view past its storage shows up under ASan. */
#include "fuzz.h"

#include "data/pt.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_sink sink;
    diag_sink_init(&sink, 20);
    pt_file f;
    if (pt_load(fuzz_memfile(data, size), &f, &sink) == PTODB_OK) {
        for (size_t i = 0; i < f.count; i++) {
            tensor_stats stats;
            tensor_compute_stats(f.items[i].t, &stats);
        }
        pt_file_free(&f);
    }
    diag_sink_free(&sink);
    return 0;
}
