# Shell-driven end-to-end tests. Each script exits 0 (pass), 77 (skip, with a
# message saying why) or anything else (fail).
CLI_TESTS = \
	tests/cli/device_semantics.sh \
	tests/cli/help_version.sh \
	tests/cli/options_documented.sh \
	tests/cli/option_modes.sh \
	tests/cli/ops_documented.sh \
	tests/cli/forward_compat.sh \
	tests/cli/ref_cannot_run.sh \
	tests/cli/matmul_mx.sh \
	tests/cli/strict_ref.sh \
	tests/cli/engine_links_without_ui.sh \
	tests/cli/historical_engine.sh \
	tests/cli/gm_race.sh
TESTS += $(CLI_TESTS)
EXTRA_DIST += $(CLI_TESTS) tests/cli/lib.sh tests/cli/fixture_lib.sh

TESTS += tests/cli/transcripts.sh tests/cli/rc_trust.sh
# The planted-fault corpus and its scorer (docs/faults.md).
TESTS += tests/cli/plant_faults.sh
EXTRA_DIST += tests/cli/plant_faults.sh scripts/plant-faults scripts/score-faults docs/faults.md
# Real historical PyPTO miscompiles: the recipe, its scorer and the engine's cases (docs/historical.md).
EXTRA_DIST += scripts/historical-miscompiles scripts/historical scripts/gen_hist_cases.py docs/historical.md
EXTRA_DIST += tests/data/newer tests/data/matmul_mx tests/data/matmul_mx_fp4 tests/data/ref_note tests/data/device tests/data/hist
EXTRA_DIST += tests/cli/transcripts.sh tests/cli/rc_trust.sh tests/transcripts

# The man page's command list is generated from the command table.
check_PROGRAMS += tests/gen_man_commands
tests_gen_man_commands_SOURCES = tests/gen_man_commands.c
tests_gen_man_commands_LDADD = $(ENGINE_LIBS)
TESTS += tests/cli/commands_documented.sh
EXTRA_DIST += tests/cli/commands_documented.sh scripts/gen-man-commands

.PHONY: man-commands
man-commands: tests/gen_man_commands$(EXEEXT)
	$(SHELL) $(top_srcdir)/scripts/gen-man-commands $(abs_top_builddir)

TESTS += tests/cli/huge_tensor.sh tests/cli/number_ranges.sh tests/cli/fifo_inputs.sh tests/cli/session_data.sh tests/cli/output_files.sh tests/cli/session_merge.sh tests/cli/case_untouched.sh
EXTRA_DIST += tests/cli/huge_tensor.sh tests/cli/number_ranges.sh tests/cli/fifo_inputs.sh tests/cli/session_data.sh tests/cli/output_files.sh tests/cli/session_merge.sh tests/cli/case_untouched.sh tests/data/huge/craft_case.py
TESTS += tests/cli/dap_client.sh tests/cli/dap_protocol.sh tests/cli/dap_reverse.sh tests/cli/vscode_webview.sh tests/cli/vscode_package.sh
EXTRA_DIST += docs/editors.md scripts/vsix tests/cli/vscode_package.sh tests/cli/dap_client.sh tests/cli/dap_protocol.sh tests/cli/dap_reverse.sh tests/cli/vscode_webview.sh tests/dap/protocol.py tests/dap/reverse_oracle.py tests/dap/webview_data.py tests/dap/png_cells.py tests/dap/extension_check.js tests/dap/vscode-stub/vscode/index.js editors/vscode/package.json editors/vscode/extension.js editors/vscode/webview.js editors/vscode/render.js editors/vscode/README.md tests/dap/package.json tests/dap/dap.test.js
TESTS += tests/cli/interrupt.sh tests/cli/session_persist.sh tests/cli/repl_fuzz.sh tests/cli/readme_walkthrough.sh tests/cli/race_check.sh tests/cli/xcore_modes.sh tests/cli/batch_commands.sh tests/cli/timeout.sh
EXTRA_DIST += tests/cli/interrupt.sh tests/cli/session_persist.sh tests/cli/repl_fuzz.sh tests/cli/readme_walkthrough.sh tests/cli/race_check.sh tests/data/endless tests/data/xcore/race.py tests/cli/xcore_modes.sh tests/data/xcore/modes tests/cli/batch_commands.sh tests/cli/timeout.sh

check_PROGRAMS += tests/unit/check_xcore
TESTS += tests/unit/check_xcore
tests_unit_check_xcore_SOURCES = tests/unit/check_xcore.c
tests_unit_check_xcore_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_xcore_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/unit/check_trace_boxed
TESTS += tests/unit/check_trace_boxed
tests_unit_check_trace_boxed_SOURCES = tests/unit/check_trace_boxed.c tests/unit/unit_case.h
tests_unit_check_trace_boxed_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_trace_boxed_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/unit/check_why_observed
TESTS += tests/unit/check_why_observed
tests_unit_check_why_observed_SOURCES = tests/unit/check_why_observed.c tests/unit/unit_case.h
tests_unit_check_why_observed_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_why_observed_LDADD = $(UNIT_LDADD)

# Program points across passes: the metamorphic test's driver.
check_PROGRAMS += tests/points/metamorphic
tests_points_metamorphic_SOURCES = tests/points/metamorphic.c
tests_points_metamorphic_LDADD = $(ENGINE_LIBS)
TESTS += tests/cli/points_fixtures.sh
EXTRA_DIST += tests/cli/points_fixtures.sh

# Reverse execution against straight runs: the oracle's driver.
check_PROGRAMS += tests/timetravel/seek_oracle
tests_timetravel_seek_oracle_SOURCES = tests/timetravel/seek_oracle.c tests/timetravel/page_hash.c tests/timetravel/page_hash.h
tests_timetravel_seek_oracle_LDADD = $(ENGINE_LIBS)
# ... its page-cached state hash, against the hash of the bytes ...
check_PROGRAMS += tests/unit/check_page_hash
TESTS += tests/unit/check_page_hash
tests_unit_check_page_hash_SOURCES = tests/unit/check_page_hash.c tests/timetravel/page_hash.c tests/timetravel/page_hash.h
tests_unit_check_page_hash_CFLAGS = $(UNIT_CFLAGS) -I$(top_srcdir)/tests
tests_unit_check_page_hash_LDADD = $(UNIT_LDADD) -lpthread
# ... and its benchmark (make bench: scripts/bench.d/timetravel).
# ... the schedule's record and replay oracle (tests/cli/schedule_replay.sh) ...
check_PROGRAMS += tests/timetravel/schedule_oracle
tests_timetravel_schedule_oracle_SOURCES = tests/timetravel/schedule_oracle.c
tests_timetravel_schedule_oracle_LDADD = $(ENGINE_LIBS)
check_PROGRAMS += tests/timetravel/sched_bench
tests_timetravel_sched_bench_SOURCES = tests/timetravel/sched_bench.c
tests_timetravel_sched_bench_LDADD = $(ENGINE_LIBS)
check_PROGRAMS += tests/timetravel/tt_bench
tests_timetravel_tt_bench_SOURCES = tests/timetravel/tt_bench.c
tests_timetravel_tt_bench_LDADD = $(ENGINE_LIBS)
TESTS += tests/cli/timetravel_fixtures.sh tests/cli/timetravel_examples.sh tests/cli/timetravel_syncall.sh tests/cli/schedule_replay.sh
EXTRA_DIST += tests/cli/timetravel_fixtures.sh tests/cli/timetravel_examples.sh tests/cli/timetravel_syncall.sh tests/cli/schedule_replay.sh docs/schedule.md

# make install / uninstall into a private DESTDIR: binary, man pages, completion.
TESTS += tests/cli/install.sh
EXTRA_DIST += tests/cli/install.sh

# make check-valgrind: the test suite with every ptodb run (through
# tests/valgrind-ptodb.sh) and every Check program (LOG_COMPILER, CK_FORK=no)
# under valgrind. An error or a definitely lost block makes the run exit 99
# (the test fails where it checks the status) and leaves a non-empty report
# in valgrind-logs/, which fails the target even when the test did not look
# (forked workers included). Slow, so not part of `make check`;
# TESTS='...' runs a subset. Needs a build without --enable-sanitizers.
TEST_EXTENSIONS = .sh
# every test runs under the guard of the user's home (tests/home_guard.sh;
# its private home: tests/test_env.sh, AM_TESTS_ENVIRONMENT in Makefile.am)
HOME_GUARD = $(SHELL) $(top_srcdir)/tests/home_guard.sh
SH_LOG_COMPILER = $(HOME_GUARD) $(SHELL)
LOG_COMPILER = $(HOME_GUARD)
EXTRA_DIST += tests/test_env.sh tests/home_guard.sh
TESTS += tests/cli/private_home.sh
EXTRA_DIST += tests/cli/private_home.sh
# --run-libc-freeres=no: by default valgrind calls glibc's __libc_freeres at
# every exit, _exit included, and that flushes stdio: in a forked worker
# (which ends with _exit so as never to touch the parent's streams) it moved
# the shared offset of the parent's open input file back, and the TUI read
# the rest of its PTODB_TUI_SCRIPT twice. It only frees libc's own buffers
# (still reachable, never definitely lost), so no report is lost.
VALGRIND_CMD = valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite --run-libc-freeres=no -q --log-file=$(abs_top_builddir)/valgrind-logs/%p.log
EXTRA_DIST += tests/valgrind-ptodb.sh
.PHONY: check-valgrind
check-valgrind:
	@if test -n '$(PTODB_SAN_FLAGS)'; then \
	    echo 'check-valgrind: this build uses sanitizers; configure without --enable-sanitizers' >&2; exit 2; fi
	@command -v valgrind >/dev/null || { echo 'check-valgrind: valgrind not found' >&2; exit 2; }
	rm -rf valgrind-logs && mkdir valgrind-logs
	PTODB_VALGRIND='$(VALGRIND_CMD)' CK_FORK=no \
	    $(MAKE) $(AM_MAKEFLAGS) check LOG_COMPILER='$(HOME_GUARD) $(VALGRIND_CMD)'; st=$$?; \
	reports=$$(find valgrind-logs -type f -size +0 | sort); \
	if test -n "$$reports"; then \
	    for r in $$reports; do echo "== $$r"; cat "$$r"; done; \
	    echo "check-valgrind: $$(echo "$$reports" | wc -l) valgrind report(s) in valgrind-logs/" >&2; exit 1; \
	fi; \
	echo "check-valgrind: no valgrind errors and no definitely lost blocks"; exit $$st

# The command files are leaves; the README walk-through after scripts/demo;
# completion of $ names in readline.
TESTS += tests/cli/cmd_leaves.sh tests/cli/readme_after_demo.sh tests/cli/repl_completion.sh
EXTRA_DIST += tests/cli/cmd_leaves.sh tests/cli/readme_after_demo.sh tests/cli/repl_completion.sh

# The heat maps' one scale (tensor/heatgrid.h), through --batch --heatmap.
TESTS += tests/cli/heatmap_scale.sh
EXTRA_DIST += tests/cli/heatmap_scale.sh

# The DAP server's framer and hitCondition (ui/dap/).
check_PROGRAMS += tests/unit/check_dap
TESTS += tests/unit/check_dap
tests_unit_check_dap_SOURCES = tests/unit/check_dap.c ui/dap/framing.c ui/dap/hitcond.c
tests_unit_check_dap_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_dap_LDADD = $(UNIT_LDADD)

# dap_client.sh, vscode_package.sh and `make vsix` install their npm packages
# into the build folder: distclean leaves nothing behind (distcheck checks)
clean-local: clean-npm clean-test-home
.PHONY: clean-npm clean-test-home
clean-npm:
	rm -rf dap-npm vsce-npm vsix.log ptodb-*.vsix
# the tests' private homes (tests/test_env.sh)
clean-test-home:
	rm -rf test-home
