# debug: the debugger, as four floors that each call only the floors below
# (docs/notes-debug.md, "The debugger's floors"): state/, run/ (run control),
# present/ (presentation) and, here at the top, the commands.
src_libptodb_a_SOURCES += \
	src/debug/commands.def src/debug/settings.def \
	src/debug/state/session.h src/debug/state/session_impl.h src/debug/state/session.c src/debug/state/session_out.c \
	src/debug/state/observers.h src/debug/state/observers.c \
	src/debug/state/passes.h src/debug/state/passes.c \
	src/debug/state/lookup.h src/debug/state/lookup.c src/debug/state/expr.h src/debug/state/expr.c \
	src/debug/state/breakpoint.h src/debug/state/breakpoint.c src/debug/state/predicate.h src/debug/state/predicate.c \
	src/debug/state/persist.h src/debug/state/persist.c \
	src/debug/run/record.h src/debug/run/record_impl.h src/debug/run/record.c \
	src/debug/run/queue_track.h src/debug/run/queue_track.c src/debug/run/timeline.h src/debug/run/timeline.c \
	src/debug/run/stop.h src/debug/run/stop.c src/debug/run/run_ranks.h src/debug/run/run_ranks.c \
	src/debug/run/timetravel.h src/debug/run/timetravel.c src/debug/run/run.h src/debug/run/run.c \
	src/debug/run/point.h src/debug/run/point.c src/debug/run/validate_bg_impl.h src/debug/run/validate_bg.c \
	src/debug/run/run_attach.h src/debug/run/run_attach.c \
	src/debug/present/frame.h src/debug/present/frame.c src/debug/present/display.h src/debug/present/display.c \
	src/debug/present/view.h src/debug/present/view.c src/debug/present/view_exception.c src/debug/present/view_memory.c \
	src/debug/present/compare_view.h src/debug/present/compare_view.c \
	src/debug/present/present.h src/debug/present/present.c \
	src/debug/present/run_listing.h src/debug/present/run_listing.c \
	src/debug/cmdtable.h src/debug/cmdtable.c src/debug/script.h src/debug/script.c \
	src/debug/cmd_script.c src/debug/cmd_pass.c src/debug/cmd_run.c src/debug/cmd_timetravel.c src/debug/cmd_break.c \
	src/debug/cmd_data.c src/debug/cmd_expr.c src/debug/assign.c src/debug/cmd_bisect.c src/debug/cmd_trace.c \
	src/debug/rc.h src/debug/rc.c src/debug/complete.c \
	src/debug/debugger.c

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
