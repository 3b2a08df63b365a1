# debug: the session, the command table and its handlers, rc files.
src_libptodb_a_SOURCES += \
	src/debug/commands.def src/debug/settings.def \
	src/debug/session.h src/debug/session_impl.h src/debug/session.c src/debug/session_out.c src/debug/script.h src/debug/script.c \
	src/debug/observers.h src/debug/observers.c src/debug/debugger.c src/debug/run_attach.h src/debug/run_attach.c src/debug/present.h src/debug/present.c \
	src/debug/record.h src/debug/record_impl.h src/debug/record.c \
	src/debug/cmdtable.h src/debug/cmdtable.c \
	src/debug/cmd_script.c \
	src/debug/rc.h src/debug/rc.c \
	src/debug/complete.c \
	src/debug/passes.h src/debug/passes.c src/debug/cmd_pass.c \
	src/debug/view.h src/debug/view.c src/debug/view_exception.c src/debug/view_memory.c \
	src/debug/tensor_fmt.h src/debug/tensor_fmt.c \
	src/debug/predicate.h src/debug/predicate.c \
	src/debug/run.h src/debug/run.c src/debug/run_ranks.h src/debug/run_ranks.c src/debug/frame.h src/debug/frame.c src/debug/lookup.h src/debug/lookup.c src/debug/cmd_run.c src/debug/cmd_timetravel.c src/debug/timetravel.h src/debug/timetravel.c src/debug/cmd_break.c src/debug/cmd_data.c \
	src/debug/breakpoint.h src/debug/breakpoint.c src/debug/stop.h src/debug/stop.c \
	src/debug/expr.h src/debug/expr.c src/debug/assign.c src/debug/cmd_expr.c src/debug/display.h src/debug/display.c \
	src/debug/point.h src/debug/point.c src/debug/persist.h src/debug/persist.c \
	src/debug/cmd_bisect.c src/debug/compare_view.h src/debug/compare_view.c src/debug/validate_bg_impl.h src/debug/validate_bg.c src/debug/cmd_trace.c \
	src/debug/timeline.h src/debug/timeline.c src/debug/queue_track.h src/debug/queue_track.c

# The debugger on a multi-rank case (docs/multirank.md, "Debugging"): continue
# across passes, the schedule settings, time travel, trace save.
DEBUG_RANKS_TESTS = \
	tests/cli/multirank_continue.sh \
	tests/cli/multirank_debug_schedule.sh \
	tests/cli/multirank_timetravel.sh \
	tests/cli/multirank_trace.sh \
	tests/cli/multirank_catch.sh
TESTS += $(DEBUG_RANKS_TESTS)
EXTRA_DIST += $(DEBUG_RANKS_TESTS)

check_PROGRAMS += tests/unit/check_debug
TESTS += tests/unit/check_debug
tests_unit_check_debug_SOURCES = tests/unit/check_debug.c
tests_unit_check_debug_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_debug_CPPFLAGS = $(AM_CPPFLAGS) -DPTODB_TOP_SRCDIR='"$(abs_top_srcdir)"' 
tests_unit_check_debug_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/unit/check_stop
TESTS += tests/unit/check_stop
tests_unit_check_stop_SOURCES = tests/unit/check_stop.c
tests_unit_check_stop_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_stop_CPPFLAGS = $(AM_CPPFLAGS) -DPTODB_TOP_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_check_stop_LDADD = $(UNIT_LDADD)

# Machine inspection for the debugger (reads the machine's internals).
src_libptodb_a_SOURCES += src/exec/inspect.h src/exec/inspect.c
