/* Fuzzes the whole .pt loader (mapping, ZIP, CRCs, pickle, tensor
 * rebuilding) on a file, then reads every element of every tensor so that a
 * view past its storage shows up under ASan. Each input is loaded as it is,
 * then once more with the CRC-32 of every entry set right: mutations of the
 * pickle or of the data would otherwise all stop at the CRC check and never
 * reach the code that builds tensors. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "data/pt.h"
#include "data/zip.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

static void load(const uint8_t *data, size_t size)
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
}

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/* Writes the right CRC-32 into the central directory record of every entry
 * zip_open finds (records matched by name). Returns 1 when any changed. */
static int fix_crcs(uint8_t *d, size_t size)
{
    diag_sink sink;
    diag_sink_init(&sink, 1);
    zip_archive z;
    int changed = 0;
    if (zip_open(&z, d, size, "fuzz.pt", &sink) == PTODB_OK) {
        for (size_t i = 0; i < z.count; i++) {
            const zip_entry *e = &z.entries[i];
            uint32_t crc = zip_crc32(0, d + e->data_off, (size_t)e->size);
            if (crc == e->crc)
                continue;
            size_t nlen = strlen(e->name);
            for (size_t p = 0; p + 46 <= size; p++) {
                if (memcmp(d + p, "PK\1\2", 4) != 0 || rd16(d + p + 28) != nlen ||
                    size - p - 46 < nlen || memcmp(d + p + 46, e->name, nlen) != 0)
                    continue;
                for (int k = 0; k < 4; k++)
                    d[p + 16 + k] = (uint8_t)(crc >> (8 * k));
                changed = 1;
            }
        }
        zip_close(&z);
    }
    diag_sink_free(&sink);
    return changed;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load(data, size);
    uint8_t *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    if (fix_crcs(copy, size))
        load(copy, size);
    free(copy);
    return 0;
}
