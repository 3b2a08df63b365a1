#!/bin/sh
# --help, --version and usage errors: exit codes and texts from ptodb(1).
set -e
. "$top_srcdir/tests/cli/lib.sh"

run_ptodb --version
expect_eq "--version exit" 0 "$rc"
expect_contains "--version" "ptodb " "$out"

run_ptodb --help
expect_eq "--help exit" 0 "$rc"
expect_contains "--help usage" "Usage: ptodb" "$out"
expect_contains "--help exit codes" "2  usage or input error" "$out"

run_ptodb -h
expect_eq "-h exit" 0 "$rc"

run_ptodb --no-such-option
expect_eq "unknown option exit" 2 "$rc"
expect_contains "unknown option message" "ptodb: unknown option '--no-such-option'" "$err"
expect_eq "unknown option prints one error and a hint" 2 "$(printf '%s\n' "$err" | wc -l | tr -d ' ')"
