# batch: --batch validation, reports (text, JSON), metrics and first-divergence
# bisection; shared by ui/mode_batch.c and the debugger's `bisect` command.
src_libptodb_a_SOURCES += \
	src/batch/batch.h src/batch/batch.c \
	src/batch/worker_pool.h src/batch/worker_pool.c \
	src/batch/metrics.h src/batch/metrics.c \
	src/batch/report.h src/batch/report.c \
	src/batch/json.h src/batch/json.c \
	src/batch/reportdoc.h src/batch/reportdoc.c \
	src/batch/junit.h src/batch/junit.c \
	src/batch/html.h src/batch/html.c \
	src/batch/merge.h src/batch/merge.c \
	src/batch/trace.h src/batch/trace.c \
	src/batch/divergence.h src/batch/divergence.c \
	src/batch/diverge.h src/batch/diverge.c \
	src/batch/why_log.h src/batch/why_log.c src/batch/why.h src/batch/why.c src/batch/why_case.c src/batch/why_refine.c \
	src/batch/bisect.h src/batch/bisect.c \
	src/batch/compare.h src/batch/compare.c \
	src/batch/compare_report.c \
	src/batch/reduce_edit.h src/batch/reduce_edit.c \
	src/batch/reduce_oracle.h src/batch/reduce_oracle.c \
	src/batch/reduce_case.h src/batch/reduce_case.c \
	src/batch/reduce.h src/batch/reduce.c \
	src/batch/split_change.h src/batch/split_change.c \
	src/batch/perfetto.h src/batch/perfetto.c

# Its tests (shell, through the built binary) and the benchmark.
BATCH_TESTS = \
	tests/cli/batch_report.sh \
	tests/cli/batch_bisect.sh \
	tests/cli/batch_bisect_fixture.sh \
	tests/cli/batch_bisect_new_if.sh \
	tests/cli/multirank_bisect.sh \
	tests/cli/compare.sh \
	tests/cli/compare_stops.sh \
	tests/cli/reduce.sh \
	tests/cli/batch_fixtures.sh \
	tests/cli/batch_shard.sh \
	tests/cli/batch_junit.sh \
	tests/cli/batch_html.sh \
	tests/cli/batch_unparsable.sh \
	tests/cli/trace_perfetto.sh
TESTS += $(BATCH_TESTS)

# why: the dataflow chain (docs/why.md)
WHY_TESTS = tests/cli/why.sh tests/cli/why_planted.sh tests/cli/why_fixtures.sh
TESTS += $(WHY_TESTS)
EXTRA_DIST += $(WHY_TESTS) tests/data/why/check_chain.py scripts/plant_why docs/why.md
EXTRA_DIST += $(BATCH_TESTS) scripts/reduce-corpus tests/data/trace/check_trace.py tests/data/batch/check_json.py tests/data/batch/report_facts.py tests/data/junit/junit-10.xsd tests/data/batch/check_page_load.py tests/data/batch/check_metrics.py tests/data/batch/flip_sweep.sh tests/data/batch/control_sweep.sh scripts/bench.d/batch scripts/bench.d/compare docs/batch-json.md docs/reduce.md

# batch_html.sh leaves the report and its screenshot there for people to look at.
clean-local: clean-batch-html
.PHONY: clean-batch-html
clean-batch-html:
	rm -rf tests/cli/batch_html.out

check_PROGRAMS += tests/unit/check_worker_pool
TESTS += tests/unit/check_worker_pool
tests_unit_check_worker_pool_SOURCES = tests/unit/check_worker_pool.c
tests_unit_check_worker_pool_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_worker_pool_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/unit/check_reduce_edit
TESTS += tests/unit/check_reduce_edit
tests_unit_check_reduce_edit_SOURCES = tests/unit/check_reduce_edit.c
tests_unit_check_reduce_edit_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_reduce_edit_LDADD = $(UNIT_LDADD)
