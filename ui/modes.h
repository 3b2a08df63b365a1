/* Each non-interactive mode of the ptodb command lives in its own file
 * (ui/mode_<name>.c) and is listed in main.c's mode table. */
#ifndef PTODB_UI_MODES_H
#define PTODB_UI_MODES_H

#include "options.h"

/* A mode returns the process exit status (PTODB_EXIT_*). */
typedef int (*ptodb_mode_fn)(const ptodb_cli *cli);

struct machine_options;
/* --ref, --schedule, --slot-depth and --no-check-shapes into mo (ui/mode_run.c,
 * shared with --batch); prints the error and returns -1 on a bad value. */
int parse_run_options(const ptodb_cli *cli, struct machine_options *mo);

#endif
