# ranks: multi-rank programs (docs/multirank.md): the world of N rank
# machines (windows, comm domains, task queues, collectives) and the run of
# one pass file under one global schedule. Above exec, below batch.
src_libptodb_a_SOURCES += \
	src/ranks/world.h src/ranks/world.c \
	src/ranks/fence.h src/ranks/fence.c \
	src/ranks/sched.h src/ranks/sched.c \
	src/ranks/run.h src/ranks/run.c

RANKS_CLI_TESTS = \
	tests/cli/multirank_cases.sh \
	tests/cli/multirank_deadlock.sh \
	tests/cli/multirank_signals.sh \
	tests/cli/multirank_defer.sh \
	tests/cli/multirank_fence.sh \
	tests/cli/multirank_exact.sh \
	tests/cli/multirank_columns.sh
TESTS += $(RANKS_CLI_TESTS)
EXTRA_DIST += $(RANKS_CLI_TESTS) tests/data/multirank docs/multirank.md

check_PROGRAMS += tests/unit/check_ops_comm
TESTS += tests/unit/check_ops_comm
tests_unit_check_ops_comm_SOURCES = tests/unit/check_ops_comm.c \
	tests/unit/exec_ctx_stub.c tests/unit/check_ops_util.h
tests_unit_check_ops_comm_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ops_comm_LDADD = $(OPS_TEST_LDADD)

check_PROGRAMS += tests/unit/check_ranks_fence
TESTS += tests/unit/check_ranks_fence
tests_unit_check_ranks_fence_SOURCES = tests/unit/check_ranks_fence.c
tests_unit_check_ranks_fence_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_ranks_fence_LDADD = $(UNIT_LDADD)
