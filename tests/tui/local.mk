# Screen tests of the full-screen interface.
check_PROGRAMS += tests/tui/render_test
tests_tui_render_test_SOURCES = tests/tui/render_test.c
tests_tui_render_test_LDADD = ui/tui/libtui.a $(ENGINE_LIBS)

TUI_TESTS = \
	tests/tui/render.sh \
	tests/tui/screens.sh \
	tests/tui/first_screen.sh \
	tests/tui/copies.sh \
	tests/tui/keys.sh \
	tests/tui/keys_documented.sh \
	tests/tui/tmux.sh \
	tests/tui/repl_terminal.sh
TESTS += $(TUI_TESTS)
EXTRA_DIST += $(TUI_TESTS) tests/tui/lib.sh tests/tui/expected tests/tui/scripts
