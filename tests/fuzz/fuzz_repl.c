/* Fuzzes the debugger's command line: each input is a script of up to
 * FUZZ_MAX_LINES lines run by session_execute in a fresh session on
 * examples/mlp, or on the multi-rank examples/multirank_signals when its
 * first line is "#multirank" (rank, info ranks, break/watch ... rank N, the
 * ranks' schedule under step and continue; command lookup, argument splitting, define/document/commands
 * bodies, $arg substitution, breakpoints, conditions, print expressions,
 * runs). Every line is also given to the predicate parser directly and
 * evaluated on a small tensor with a golden. Writes are refused by the
 * guard (fuzz_guard.h); no state folder is set, so nothing is autosaved. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "debug/state/predicate.h"
#include "debug/state/session.h"
#include "fuzz_guard.h"

enum { FUZZ_MAX_LINES = 64 };

static char case_root[4096], ranks_root[4096];
static tensor *value_t, *golden_t;

/* Quiet, unless PTODB_FUZZ_VERBOSE is set (to see what an input does). */
static void discard(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)ctx, (void)stream;
    if (getenv("PTODB_FUZZ_VERBOSE"))
        fwrite(text, 1, len, stderr);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_guard_init(*argc, *argv);
    snprintf(case_root, sizeof case_root, "%s/examples/mlp", fuzz_srcdir());
    snprintf(ranks_root, sizeof ranks_root, "%s/examples/multirank_signals", fuzz_srcdir());
    int64_t shape[2] = {2, 3};
    ptodb_status st;
    value_t = tensor_zeros(DTYPE_FP32, 2, shape, &st);
    golden_t = tensor_zeros(DTYPE_FP32, 2, shape, &st);
    static const double v[6] = {1, -2, 0.5, 1.0 / 0.0, 0.0 / 0.0, 3};
    for (int64_t k = 0; k < 6; k++) {
        int64_t idx[2] = {k / 3, k % 3};
        tensor_set(value_t, idx, v[k]);
        tensor_set(golden_t, idx, k);
    }
    return 0;
}

static void try_predicate(const char *line)
{
    strbuf err = STRBUF_INIT;
    predicate *p = predicate_parse(line, &err);
    if (p) {
        predicate_env env = {value_t, golden_t, 0.05, 0.05, 0, 1};
        predicate_eval(p, &env, &err);
        env.golden = NULL;
        predicate_eval(p, &env, &err);
        predicate_free(p);
    }
    strbuf_free(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_guard_begin();
    session *s = session_new();
    session_set_output(s, discard, NULL);
    static const char ranks_tag[] = "#multirank\n";
    int ranks = size >= sizeof ranks_tag - 1 && memcmp(data, ranks_tag, sizeof ranks_tag - 1) == 0;
    session_open(s, ranks ? ranks_root : case_root, -1, -1);
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    char *line = text;
    /* a NUL ends the script, as it ends a line read by the REPL */
    for (int n = 0; n < FUZZ_MAX_LINES && *line && !session_quit_requested(s); n++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        try_predicate(line);
        session_execute(s, line);
        if (!nl)
            break;
        line = nl + 1;
    }
    free(text);
    session_free(s);
    fuzz_guard_end();
    return 0;
}
