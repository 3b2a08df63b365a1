# The machine (issue #5) and the cross-core runtime (issue #6): lowering,
# cores and scheduler, scalar arithmetic, queues, compare, argument binding.
src_libptodb_a_SOURCES += \
	src/exec/program.c src/exec/program.h \
	src/exec/machine.c src/exec/machine.h src/exec/machine_int.h src/exec/barrier.c src/exec/frames.c \
	src/exec/exec_ctx.c src/exec/scalar.c \
	src/exec/xcore.c src/exec/xcore.h \
	src/exec/compare.c src/exec/compare.h src/exec/runpass.c src/exec/runpass.h \
	src/exec/region.c src/exec/region.h src/exec/prov.c src/exec/prov.h \
	src/exec/semantics.c src/exec/semantics.h src/exec/tasks.c src/exec/tasks.h \
	src/exec/gmrace.c src/exec/gmrace.h \
	src/exec/memcheck.c src/exec/memcheck.h \
	src/exec/snapshot.c src/exec/snapshot.h src/exec/snapshot_parts.c src/exec/state_hash.c \
	src/exec/state_walk.c src/exec/state_walk.h src/exec/write_log.c src/exec/write_log.h \
	src/exec/schedule.c src/exec/schedule.h

check_PROGRAMS += tests/unit/check_machine
TESTS += tests/unit/check_machine
tests_unit_check_machine_SOURCES = tests/unit/check_machine.c
tests_unit_check_machine_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_machine_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/unit/check_prov
TESTS += tests/unit/check_prov
tests_unit_check_prov_SOURCES = tests/unit/check_prov.c tests/unit/test_machine.h
tests_unit_check_prov_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_prov_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/unit/check_spmd
TESTS += tests/unit/check_spmd
tests_unit_check_spmd_SOURCES = tests/unit/check_spmd.c tests/unit/test_machine.h
tests_unit_check_spmd_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_spmd_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/unit/check_snapshot
TESTS += tests/unit/check_snapshot
tests_unit_check_snapshot_SOURCES = tests/unit/check_snapshot.c tests/unit/test_machine.h
tests_unit_check_snapshot_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_snapshot_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/unit/check_region
TESTS += tests/unit/check_region
tests_unit_check_region_SOURCES = tests/unit/check_region.c tests/unit/test_machine.h
tests_unit_check_region_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_region_LDADD = $(UNIT_LDADD)

# Every pass of every fixture case against the reference (skips without fixtures).
TESTS += tests/cli/run_examples.sh tests/cli/run_xcore.sh tests/cli/run_fixtures.sh \
	tests/cli/semantics_beyond.sh tests/cli/semantics_spmd.sh tests/cli/semantics_documented.sh \
	tests/cli/semantics_tasks.sh
EXTRA_DIST += tests/cli/run_examples.sh tests/cli/run_xcore.sh tests/cli/run_fixtures.sh \
	tests/cli/semantics_beyond.sh tests/cli/semantics_spmd.sh tests/cli/semantics_documented.sh \
	tests/cli/semantics_tasks.sh tests/data/tasks/manual_scope.py \
	scripts/bench.d/interp scripts/bench.d/semantics \
	tests/data/xcore/recursion.py tests/data/xcore/conflict.py tests/data/xcore/badsplit.py \
	tests/data/xcore/dual.py tests/data/xcore/region.py

check_PROGRAMS += tests/unit/check_gmrace
TESTS += tests/unit/check_gmrace
tests_unit_check_gmrace_SOURCES = tests/unit/check_gmrace.c
tests_unit_check_gmrace_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_gmrace_LDADD = $(UNIT_LDADD)
