# The full-screen interface (ptodb binary only; the engine stays free of
# curses and readline). The panes and the canvas draw without curses and
# are also linked into the render test.
noinst_LIBRARIES += ui/tui/libtui.a
ui_tui_libtui_a_SOURCES = \
	ui/tui/canvas.h ui/tui/canvas.c ui/tui/tui.h ui/tui/util.c \
	ui/tui/pane_source.c ui/tui/pane_passes.c ui/tui/pane_heatmap.c \
	ui/tui/pane_cores.c ui/tui/pane_watch.c ui/tui/pane_memory.c ui/tui/pane_chain.c ui/tui/pane_irdiff.c ui/tui/pane_timeline.c \
	ui/tui/pane_compare.c ui/tui/pane_compare_src.c \
	ui/tui/pane_console.c ui/tui/layout.c ui/tui/draw.c ui/tui/tui.c ui/tui/command.c ui/tui/pane_names.c \
	ui/tui/keys.def

ptodb_SOURCES += ui/startup.h ui/startup.c \
	ui/tui/mode_tui.c ui/tui/screen.c ui/tui/callbacks.c
# libtui.a calls the engine: the engine libraries again after it.
ptodb_LDADD += ui/tui/libtui.a $(ENGINE_LIBS)

include tests/tui/local.mk
