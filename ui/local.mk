ptodb_SOURCES += \
	ui/main.c ui/cli.c ui/options.h ui/modes.h \
	ui/repl.c
ptodb_SOURCES += ui/mode_info.c
ptodb_SOURCES += ui/mode_check.c ui/mode_print.c ui/mode_list_ops.c ui/mode_list_semantics.c
ptodb_SOURCES += ui/mode_run.c
ptodb_SOURCES += ui/mode_batch.c ui/report_files.c ui/report_files.h
ptodb_SOURCES += ui/mode_merge.c ui/mode_compare.c ui/mode_reduce.c
include ui/tui/local.mk
ptodb_SOURCES += ui/dap/framing.c ui/dap/framing.h ui/dap/hitcond.c ui/dap/hitcond.h \
	ui/dap/server.c ui/dap/server.h ui/dap/dap_impl.h ui/dap/reply.c ui/dap/stops.c ui/dap/variables.c ui/dap/custom.c ui/dap/refs.c ui/dap/exceptions.c ui/dap/memory.c ui/dap/completions.c ui/dap/mode_dap.c
