/* Command-line options: one X-macro table drives parsing, --help and the
 * man page check (tests/cli/options_documented.sh).
 *   X(ID, long name, short char or 0, argument kind, ARG name, help text)
 * Argument kinds: NONE, REQUIRED, MULTI (REQUIRED, may be repeated).
 * Add an option here, handle it in its mode, and document it in man/ptodb.1. */
#ifndef PTODB_UI_OPTIONS_H
#define PTODB_UI_OPTIONS_H

#include <stdio.h>

#define PTODB_OPTION_LIST(X)                                                           \
    X(HELP, "help", 'h', NONE, NULL, "show this help and exit")                         \
    X(VERSION, "version", 'V', NONE, NULL, "print the version and exit")                \
    X(NW, "nw", 0, NONE, NULL, "use the plain command line (REPL), not the full-screen interface") \
    X(EX, "ex", 0, MULTI, "CMD", "run debugger command CMD after the rc files (repeatable)") \
    X(COMMAND_FILE, "command", 'x', MULTI, "FILE", "run the debugger commands in FILE (repeatable)") \
    X(NX, "nx", 0, NONE, NULL, "read no rc file (~/.config/ptodb/ptodbrc, ./.ptodbrc)") \
    X(TRUST, "trust", 0, NONE, NULL, "run ./.ptodbrc even when its folder is not in auto-load safe-path") \
    X(INFO, "info", 0, NONE, "PATH", "describe a case or a .pt/.npy file: passes, data, tolerances") \
    X(RTOL, "rtol", 0, REQUIRED, "R", "relative tolerance (overrides ptodb.yaml and golden.py)") \
    X(ATOL, "atol", 0, REQUIRED, "A", "absolute tolerance (overrides ptodb.yaml and golden.py)") \
    X(CHECK, "check", 0, NONE, NULL, "parse and check every dump (.py) in the PATHs (files or folders)") \
    X(PRINT, "print", 0, REQUIRED, "FILE", "print a dump back in the canonical raw printer form") \
    X(LIST_OPS, "list-ops", 0, NONE, NULL, "list every op of the catalogue: implemented, semantics source, REF support, test") \
    X(RUN, "run", 0, NONE, "PATH", "run every pass of a case (or one dump) and validate like REF") \
    X(REF, "ref", 0, REQUIRED, "PROFILE", "torch profile of the reference: torch2 (default) or torch1.13") \
    X(SCHEDULE, "schedule", 0, REQUIRED, "S", "cross-core (and, in a multi-rank case, cross-rank) schedule: fixed, aic-first, aiv-first, random:SEED") \
    X(SLOT_DEPTH, "slot-depth", 0, REQUIRED, "N", "cross-core queue depth: N, pipe (slot_num) or unbounded (REF, default)") \
    X(RECORD_SCHEDULE, "record-schedule", 0, REQUIRED, "FILE", "with --run: write the cross-core choices of each pass's run (cores, SPMD block order) to FILE, to replay them (docs/schedule.md)") \
    X(REPLAY_SCHEDULE, "replay-schedule", 0, REQUIRED, "FILE", "with --run and the debugger: run each pass under the schedule FILE recorded (--record-schedule, record schedule); a file that does not fit the pass is refused at its line") \
    X(RACE_CHECK, "race-check", 0, REQUIRED, "N", "with --run: rerun each pass under N random schedules; report outputs that change (races through global memory)") \
    X(TIMEOUT, "timeout", 0, REQUIRED, "SECONDS", "with --run/--batch: stop a pass that runs longer than SECONDS (a loop that never ends) with an error") \
    X(SEMANTICS, "semantics", 0, REQUIRED, "S", "what a pass computes: device (default: PyPTO's runtime and the PTO ISA) or ref (the PyTorch reference, its failures included)") \
    X(LIST_SEMANTICS, "list-semantics", 0, NONE, NULL, "list every place where --semantics=device and --semantics=ref differ, with sources") \
    X(NO_CHECK_SHAPES, "no-check-shapes", 0, NONE, NULL, "skip REF's check_shapes assertions") \
    X(MEMCHECK, "memcheck", 0, REQUIRED, "on|off", "with --run/--batch: tiles at their MemRefs and the memory sanitizer (default on); off runs blind like the reference") \
    X(SAVE_OUTPUTS, "save-outputs", 0, REQUIRED, "DIR", "with --run: write each output as DIR/PASS.KEY.raw") \
    X(JOBS, "jobs", 'j', REQUIRED, "N", "with --run/--batch: run N passes at a time in worker processes") \
    X(BATCH, "batch", 0, NONE, "PATH", "validate every pass of a case (or of every case in a folder): REF's lines, a summary table; exit 1 if any fails") \
    X(STOP_AT_FIRST, "stop-at-first", 0, NONE, NULL, "with --batch: stop at the first failing pass, as REF does") \
    X(COMM_ORDER, "comm-order", 0, REQUIRED, "O", "with --run/--batch on a multi-rank case: program (default: a rank's comm dispatches in program order, PyPTO #2398) or ready (tensor dependencies only, as before it: #2397's deadlock)") \
    X(STRICT_REF, "strict-ref", 0, NONE, NULL, "with --run/--batch: a file the reference cannot run fails (exit 1), as in the validator in CI") \
    X(METRICS, "metrics", 0, NONE, NULL, "with --batch: share outside tolerance, first bad index, max rel error, NaN/Inf, ULP") \
    X(JSON, "json", 0, REQUIRED, "FILE", "with --batch/--merge-reports/--compare: write the report as JSON to FILE (- for stdout)") \
    X(JUNIT, "junit", 0, REQUIRED, "FILE", "with --batch/--merge-reports: write a JUnit XML report (one testcase per pass and output) to FILE") \
    X(HTML, "html", 0, REQUIRED, "FILE", "with --batch/--merge-reports/--compare: write a self-contained HTML report (tables, heat maps, IR diff) to FILE") \
    X(SHARD, "shard", 0, REQUIRED, "K/N", "with --batch DIR: validate only the K-th of N slices of DIR's sorted cases") \
    X(MERGE_REPORTS, "merge-reports", 0, NONE, "FILE...", "join the JSON reports of --batch shards into one (--json, --junit, --html)") \
    X(BISECT, "bisect", 0, NONE, NULL, "with --batch: find the first failing pass and its first differing statement") \
    X(COMPARE, "compare", 0, NONE, "A B", "run two builds of one program in lockstep: passes aligned by name, the first pass whose outputs differ and its first differing statement; exit 1 on any difference (on a terminal, without --batch/--json/--html: the TUI with the two builds side by side)") \
    X(PASS, "pass", 0, REQUIRED, "N", "with reduce: the failing pass to reduce, by its number NN (default: the first failing pass, found by bisect)") \
    X(BUDGET, "budget", 0, REQUIRED, "TIME", "with reduce: how long to search, in seconds or with a suffix s, m or h (default 10m)") \
    X(OUT, "out", 0, REQUIRED, "DIR", "with reduce: the folder of the reduced case (default ./CASE-reduced; never inside a case folder)") \
    X(DDMIN_LINES, "ddmin-lines", 0, NONE, NULL, "with reduce: plain line-level delta debugging instead of ptodb's transformations (the baseline to compare with)") \
    X(FINGERPRINT, "fingerprint", 0, NONE, NULL, "with reduce: print the case's divergence fingerprint as JSON and exit") \
    X(BISECT_SCAN, "bisect-scan", 0, NONE, NULL, "with --bisect: always confirm with the full scan, whatever its estimated cost") \
    X(HEATMAP, "heatmap", 0, NONE, NULL, "with --batch: print a heat grid of |actual - golden| per output") \
    X(MAX_TENSOR_BYTES, "max-tensor-bytes", 0, REQUIRED, "N", "largest tensor to load or allocate, in bytes (suffix K, M, G or T; default 16G, or half the memory when less)") \
    X(DAP, "dap", 0, NONE, NULL, "serve the Debug Adapter Protocol on standard input and output (editors: VS Code, nvim-dap, dape)") \
    X(DAP_PORT, "dap-port", 0, REQUIRED, "N", "serve the Debug Adapter Protocol on TCP port N of 127.0.0.1 (0: a free port, printed on standard error)") \
    X(TRACE, "trace", 0, REQUIRED, "FILE", "after the -ex commands, write a Perfetto trace (JSON) of a run of the current pass, as trace save FILE does")

typedef enum {
#define PTODB_OPTION_ENUM(id, name, short_name, kind, arg, help) OPT_##id,
    PTODB_OPTION_LIST(PTODB_OPTION_ENUM)
#undef PTODB_OPTION_ENUM
    OPT_COUNT
} ptodb_option_id;

typedef enum { OPTARG_NONE, OPTARG_REQUIRED, OPTARG_MULTI } ptodb_optarg_kind;

typedef struct ptodb_option_info {
    const char *name;
    int short_name;
    ptodb_optarg_kind kind;
    const char *arg_name;
    const char *help;
} ptodb_option_info;

extern const ptodb_option_info ptodb_options[OPT_COUNT];

/* The parsed command line. Values point into argv. */
typedef struct ptodb_cli {
    const char *prog;
    int given[OPT_COUNT];          /* how many times each option appeared */
    const char **values[OPT_COUNT]; /* every value, in order (MULTI); [0] otherwise */
    const char **paths;             /* positional arguments */
    int npaths;
} ptodb_cli;

/* Parses argv; on a usage error prints "ptodb: message" and a hint to stderr
 * and returns -1. */
int ptodb_cli_parse(ptodb_cli *cli, int argc, char **argv);
void ptodb_cli_free(ptodb_cli *cli);
/* The one PATH a mode works on (--run, --batch, --info take it as their
 * positional argument, so `--batch --bisect CASE` and `--batch CASE --bisect`
 * both work). NULL, after a message naming the mode, when there is not
 * exactly one. */
const char *ptodb_cli_case_path(const ptodb_cli *cli, const char *mode);
struct case_options;
/* --rtol and --atol into opt (has_rtol/has_atol set for those given); -1
 * after printing "ptodb: --rtol needs a non-negative number, got '...'". */
int ptodb_cli_tolerances(const ptodb_cli *cli, struct case_options *opt);
struct case_info;
/* Opens the case at path for a mode; on failure (or no pass files) prints the
 * diagnostics to stderr, frees *c and returns -1. Warnings of a case that
 * opens are not printed. */
int ptodb_open_case(const char *path, const struct case_options *opt, struct case_info *c);
/* The integer value of option id in [lo, hi]: 1 with *out set, 0 when the
 * option was not given, -1 after printing "ptodb: --NAME: expected WHAT
 * from LO to HI, got '...'" (junk, overflow, out of range). */
int ptodb_cli_int(const ptodb_cli *cli, ptodb_option_id id, const char *what, long long lo, long long hi,
                  long long *out);
/* --jobs (-j) into *jobs, default_jobs when it was not given: 0, or -1
 * after ptodb_cli_int's message. The one parser of --run's and --batch's. */
int ptodb_cli_jobs(const ptodb_cli *cli, int default_jobs, int *jobs);
/* An output folder given to option: 0 when it is a writable directory, -1
 * after "ptodb: OPTION: DIR: REASON". */
int ptodb_check_output_dir(const char *option, const char *dir);
/* The last value of option id, or NULL when it was not given. */
const char *ptodb_cli_value(const ptodb_cli *cli, ptodb_option_id id);
void ptodb_cli_print_help(FILE *out);

#endif
