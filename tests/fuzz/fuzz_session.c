/* Fuzzes the reader of saved sessions: each input becomes the file a
 * session restores when it opens examples/mlp with a state folder
 * (session_set_state_dir + session_open, the public way in; the file's
 * format is persist.c's business). Where that file lives is found at start
 * by letting a session save one breakpoint, so the harness follows any
 * change of naming or format. Everything happens in a private folder; the
 * write guard (fuzz_guard.h) refuses writes elsewhere. */
#include "fuzz.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/state/session.h"
#include "fuzz_guard.h"

static char case_root[4096];
static char state_dir[4096];
static char saved_file[4096];

/* Quiet, unless PTODB_FUZZ_VERBOSE is set (to see what an input does). */
static void discard(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)ctx, (void)stream;
    if (getenv("PTODB_FUZZ_VERBOSE"))
        fwrite(text, 1, len, stderr);
}

static int find_saved(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (flag != FTW_F)
        return 0;
    snprintf(saved_file, sizeof saved_file, "%s", path);
    return 1;
}

static session *open_session(void)
{
    session *s = session_new();
    session_set_output(s, discard, NULL);
    session_set_state_dir(s, state_dir);
    session_open(s, case_root, -1, -1);
    return s;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_guard_init(*argc, *argv);
    char root[4096];
    snprintf(root, sizeof root, "%s/examples/mlp", fuzz_srcdir());
    if (!realpath(root, case_root)) {
        perror(root);
        exit(2);
    }
    snprintf(state_dir, sizeof state_dir, "%s/state", fuzz_tmpdir());
    fuzz_guard_begin();
    session *s = open_session();
    session_execute(s, "break mlp_block");
    session_free(s); /* saves the breakpoint */
    fuzz_guard_end();
    if (nftw(state_dir, find_saved, 8, FTW_PHYS) != 1) {
        fprintf(stderr, "fuzz_session: a session with a breakpoint saved nothing under %s\n", state_dir);
        exit(2);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_guard_begin();
    fuzz_write_file(saved_file, data, size);
    session *s = open_session();
    session_free(s);
    fuzz_guard_end();
    return 0;
}
