/* Harnesses that run debugger commands link fuzz_guard.c with
 * -Wl,--wrap=fopen,--wrap=open,--wrap=mkdir,--wrap=unlink,--wrap=rename,--wrap=remove
 * (FUZZ_GUARD_WRAP in tests/fuzz/local.mk and scripts/fuzz): every file
 * creation, change or removal outside fuzz_tmpdir() then fails with EACCES,
 * between fuzz_guard_begin() and fuzz_guard_end(), so that `save`, `export`
 * and whatever a fuzzed script reaches cannot write into the source tree, a
 * case folder or anywhere else. Outside (libFuzzer's own corpus and crash
 * files) nothing is refused. */
#ifndef PTODB_TESTS_FUZZ_GUARD_H
#define PTODB_TESTS_FUZZ_GUARD_H

/* Notes libFuzzer's -artifact_prefix= / -exact_artifact_path=, so that the
 * crash and timeout files it writes are let through; call from
 * LLVMFuzzerInitialize. */
void fuzz_guard_init(int argc, char **argv);
void fuzz_guard_begin(void);
void fuzz_guard_end(void);

/* Number of writes refused so far (for the harnesses' own checks). */
unsigned long fuzz_guard_refused(void);

#endif
