/* Fuzzes the ranks.txt reader (src/data/ranks.c): every input is parsed,
 * every error must come with a location in the file, and what it accepts
 * must hold together (ranks, device ids, domains of known devices). */
#include "fuzz.h"

#include <stdlib.h>

#include "data/ranks.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_sink sink;
    diag_sink_init(&sink, 20);
    case_ranks r;
    ptodb_status st = case_ranks_parse("ranks.txt", (const char *)data, size, &r, &sink);
    if (st == PTODB_OK) {
        if (r.nranks < 1 || r.nranks > CASE_MAX_RANKS || sink.errors)
            abort();
        for (size_t i = 0; i < r.ndomains; i++)
            for (size_t k = 0; k < r.domains[i].ndevices; k++) {
                int known = 0;
                for (int j = 0; j < r.nranks; j++)
                    known |= r.device_ids[j] == r.domains[i].devices[k];
                if (!known || case_domain_rank(&r.domains[i], r.domains[i].devices[k]) != (int)k)
                    abort();
            }
    } else if (!sink.errors) {
        abort(); /* a refusal says why */
    }
    free(diag_sink_error_text(&sink));
    case_ranks_free(&r);
    diag_sink_free(&sink);
    return 0;
}
