/* Fuzzes the ZIP reader: end records, Zip64, central directory, local
 * headers, CRC checks and name lookups on any bytes. */
#include "fuzz.h"

#include "data/zip.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_sink sink;
    diag_sink_init(&sink, 20);
    zip_archive z;
    if (zip_open(&z, data, size, "fuzz.zip", &sink) == PTODB_OK) {
        zip_find_suffix(&z, "data.pkl");
        zip_find(&z, "archive/data.pkl");
        for (size_t i = 0; i < z.count; i++)
            zip_entry_verify(&z, &z.entries[i], &sink);
        zip_close(&z);
    }
    diag_sink_free(&sink);
    return 0;
}
