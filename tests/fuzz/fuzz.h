/* Shared by the fuzz harnesses (tests/fuzz/README.md). Each harness defines
 * LLVMFuzzerTestOneInput (and may define LLVMFuzzerInitialize); the same file
 * is linked either with libFuzzer (`make fuzz`, clang) or with replay.c
 * (`make check`, any compiler), which feeds it the seeds and regressions. */
#ifndef PTODB_TESTS_FUZZ_H
#define PTODB_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The source tree (for examples/): $PTODB_SRCDIR, else the one this was
 * built from. */
const char *fuzz_srcdir(void);

/* A private folder of this process under $TMPDIR (created on first use,
 * removed at exit). Never inside the source tree. */
const char *fuzz_tmpdir(void);

/* Puts data[0..size) into an anonymous in-memory file (memfd) and returns a
 * path that opens it ("/proc/self/fd/N"); the same file is reused by the
 * next call. */
const char *fuzz_memfile(const uint8_t *data, size_t size);

/* Writes data[0..size) to path (a file under fuzz_tmpdir()); exits on failure. */
void fuzz_write_file(const char *path, const uint8_t *data, size_t size);

#endif
