/* Fuzzes the ptodb.yaml reader (libyaml events, schema checks, messages).
 * The tensors it names are not loaded: their files would be wherever the
 * input points. */
#include "fuzz.h"

#include <stdlib.h>

#include "data/manifest.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_sink sink;
    diag_sink_init(&sink, 20);
    manifest m;
    manifest_load(fuzz_memfile(data, size), &m, &sink);
    free(diag_sink_error_text(&sink));
    manifest_free(&m);
    diag_sink_free(&sink);
    return 0;
}
