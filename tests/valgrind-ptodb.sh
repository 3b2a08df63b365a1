#!/bin/sh
# `make check-valgrind` points the tests' PTODB here: every ptodb run of the
# test suite goes through valgrind (the command is in PTODB_VALGRIND, the
# real binary in PTODB_REAL). An error or a definitely lost block makes the
# run exit 99, so the test that ran it fails.
exec $PTODB_VALGRIND "$PTODB_REAL" "$@"
