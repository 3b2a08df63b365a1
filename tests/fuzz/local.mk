# Fuzzing (tests/fuzz/README.md). `make fuzz` builds the libFuzzer harnesses
# with clang in $(builddir)/fuzz/ and runs each for FUZZ_SECONDS (default 60);
# `make fuzz-ci` replays each one's inputs once (seeds, tests/fuzz/corpus/,
# regressions); `make fuzz-merge` adds what a `make fuzz` run reached to
# tests/fuzz/corpus/; `make fuzz-build` only builds them (scripts/test does that early, in the
# background). All say SKIP and succeed when clang or libFuzzer is missing.
# FUZZ_HARNESSES picks some.
FUZZ_SECONDS = 60
FUZZ_SOURCES = tests/fuzz/fuzz.h tests/fuzz/fuzz_util.c tests/fuzz/replay.c
FUZZ_REPLAY_CPPFLAGS = $(AM_CPPFLAGS) -DPTODB_TOP_SRCDIR='"$(abs_top_srcdir)"'
# the write guard of the harnesses that run debugger commands (fuzz_guard.h)
FUZZ_GUARD_WRAP = -Wl,--wrap=fopen,--wrap=open,--wrap=mkdir,--wrap=unlink,--wrap=rename,--wrap=remove

.PHONY: fuzz fuzz-ci fuzz-build fuzz-merge
fuzz:
	@FUZZ_STEPS='$(FUZZ_STEPS)' FUZZ_REPLAY='$(FUZZ_REPLAY)' FUZZ_RUNS='$(FUZZ_RUNS)' FUZZ_RUNS_OF='$(FUZZ_RUNS_OF)' FUZZ_CC='$(FUZZ_CC)' FUZZ_DAP_SOURCES='$(FUZZ_DAP_SOURCES)' JANSSON_CFLAGS='$(JANSSON_CFLAGS)' JANSSON_LIBS='$(JANSSON_LIBS)' FUZZ_SECONDS='$(FUZZ_SECONDS)' FUZZ_HARNESSES='$(FUZZ_HARNESSES)' YAML_CFLAGS='$(YAML_CFLAGS)' YAML_LIBS='$(YAML_LIBS)' \
	    $(SHELL) $(top_srcdir)/scripts/fuzz '$(abs_top_srcdir)' '$(abs_top_builddir)' $(src_libptodb_a_SOURCES)
# fuzz-ci is the gate's step: each harness replays its seeds, committed
# corpus (tests/fuzz/corpus/) and regressions once under libFuzzer, ASan
# and UBSan, nothing generated: the same inputs and verdict on every run.
# (A fixed number of mutation runs from seed 1 is not that: coverage
# feedback depends on addresses and timing, and one gate found a hang
# another run from the same seed never reached.) The random runs are
# make fuzz's; make fuzz-merge keeps what they reached for the gate.
fuzz-ci:
	$(MAKE) $(AM_MAKEFLAGS) fuzz FUZZ_REPLAY=1
fuzz-build:
	$(MAKE) $(AM_MAKEFLAGS) fuzz FUZZ_STEPS=build
fuzz-merge:
	$(MAKE) $(AM_MAKEFLAGS) fuzz FUZZ_STEPS=merge

# The same harness code without libFuzzer, built by the normal compiler: each
# replays the seeds and the regression inputs (tests/fuzz/replay.sh).
check_PROGRAMS += tests/fuzz/replay_ir tests/fuzz/replay_zip tests/fuzz/replay_pickle \
	tests/fuzz/replay_pt tests/fuzz/replay_npy tests/fuzz/replay_manifest \
	tests/fuzz/replay_repl tests/fuzz/replay_session tests/fuzz/replay_interp tests/fuzz/replay_reduce \
	tests/fuzz/replay_dap tests/fuzz/replay_dapwire tests/fuzz/replay_ranks tests/fuzz/replay_sched \
	tests/fuzz/replay_schedfile tests/fuzz/replay_rankprog tests/fuzz/replay_ranktrace
tests_fuzz_replay_ir_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_ir.c
tests_fuzz_replay_ir_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_ir_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_zip_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_zip.c
tests_fuzz_replay_zip_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_zip_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_pickle_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_pickle.c
tests_fuzz_replay_pickle_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_pickle_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_pt_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_pt.c
tests_fuzz_replay_pt_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_pt_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_npy_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_npy.c
tests_fuzz_replay_npy_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_npy_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_manifest_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_manifest.c
tests_fuzz_replay_manifest_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_manifest_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_repl_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_repl.c \
	tests/fuzz/fuzz_guard.c tests/fuzz/fuzz_guard.h
tests_fuzz_replay_repl_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_repl_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_GUARD_WRAP)
tests_fuzz_replay_repl_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_session_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_session.c \
	tests/fuzz/fuzz_guard.c tests/fuzz/fuzz_guard.h
tests_fuzz_replay_session_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_session_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_GUARD_WRAP)
tests_fuzz_replay_session_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_interp_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_interp.c
tests_fuzz_replay_interp_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_interp_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_reduce_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_reduce.c
tests_fuzz_replay_reduce_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_reduce_LDADD = $(ENGINE_LIBS)

# the DAP server with the front-end files it needs (launch parses ptodb's options)
FUZZ_DAP_SOURCES = ui/dap/framing.c ui/dap/hitcond.c ui/dap/server.c ui/dap/reply.c ui/dap/stops.c ui/dap/variables.c ui/dap/custom.c \
	ui/dap/refs.c ui/dap/exceptions.c ui/dap/memory.c ui/dap/completions.c \
	ui/startup.c ui/cli.c
tests_fuzz_replay_dap_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_dap.c $(FUZZ_DAP_SOURCES) \
	tests/fuzz/fuzz_guard.c tests/fuzz/fuzz_guard.h
tests_fuzz_replay_dap_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_dap_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_fuzz_replay_dap_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_GUARD_WRAP)
tests_fuzz_replay_dap_LDADD = $(ENGINE_LIBS) $(JANSSON_LIBS)
tests_fuzz_replay_dapwire_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_dapwire.c $(FUZZ_DAP_SOURCES) \
	tests/fuzz/fuzz_guard.c tests/fuzz/fuzz_guard.h
EXTRA_DIST += tests/fuzz/fuzz_dap.c
tests_fuzz_replay_dapwire_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_dapwire_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_fuzz_replay_dapwire_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_GUARD_WRAP)
tests_fuzz_replay_dapwire_LDADD = $(ENGINE_LIBS) $(JANSSON_LIBS)

tests_fuzz_replay_ranks_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_ranks.c
tests_fuzz_replay_ranks_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_ranks_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_sched_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_sched.c
tests_fuzz_replay_sched_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_sched_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_ranktrace_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_ranktrace.c
tests_fuzz_replay_ranktrace_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_ranktrace_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_schedfile_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_schedfile.c
tests_fuzz_replay_schedfile_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_schedfile_LDADD = $(ENGINE_LIBS)
tests_fuzz_replay_rankprog_SOURCES = $(FUZZ_SOURCES) tests/fuzz/fuzz_rankprog.c
tests_fuzz_replay_rankprog_CPPFLAGS = $(FUZZ_REPLAY_CPPFLAGS)
tests_fuzz_replay_rankprog_LDADD = $(ENGINE_LIBS)

TESTS += tests/fuzz/replay.sh
EXTRA_DIST += tests/fuzz/replay.sh tests/fuzz/seed_lists.sh tests/fuzz/README.md scripts/fuzz \
	tests/fuzz/seeds tests/fuzz/corpus tests/fuzz/regress tests/fuzz/dump_mutator.c tests/fuzz/repl.dict tests/fuzz/ir.dict tests/fuzz/dap.dict
