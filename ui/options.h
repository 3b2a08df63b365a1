/* Command-line options: one X-macro table drives parsing, --help and the
 * man page check (tests/cli/options_documented.sh).
 *   X(ID, long name, short char or 0, argument kind, ARG name, modes, help text)
 * Argument kinds: NONE, REQUIRED, MULTI (REQUIRED, may be repeated).
 * modes: the modes (PTODB_MODE_LIST below) the option applies to; ptodb
 * refuses it in any other. --help prefixes the help text of an option for
 * some modes only with them ("with --batch/--run: ...").
 * Add an option here, handle it in its mode, and document it in README.md
 * and man/ptodb.1 (the option and its modes: "Where each option applies"). */
#ifndef PTODB_UI_OPTIONS_H
#define PTODB_UI_OPTIONS_H

#include <stdio.h>

/* The modes of the ptodb command (ui/main.c chooses one from the options
 * given): each option names the modes it applies to, and an option given to
 * any other mode is refused. --help, README.md and man/ptodb.1 list them as
 * "Where each option applies" (tests/cli/options_documented.sh compares).
 *   Y(ID, how --help and the docs name it, in "with ...:" before an option's
 *     help, how a refusal names it) */
#define PTODB_MODE_LIST(Y)                                                                         \
    Y(DEBUGGER, "ptodb PATH", "the debugger",                                                      \
      "the debugger (ptodb PATH: the TUI, or the command line with --nw)")                         \
    Y(COMPARE_TUI, "ptodb --compare A B (on a terminal)", "--compare's TUI",                       \
      "--compare's TUI (on a terminal without --batch, --nw, --json or --html)")                   \
    Y(BATCH_EX, "ptodb --batch PATH -ex CMD", "--batch -ex", "--batch with -ex or -x")              \
    Y(BATCH, "ptodb --batch PATH", "--batch", "--batch")                                           \
    Y(RUN, "ptodb --run PATH", "--run", "--run")                                                   \
    Y(COMPARE, "ptodb --compare A B", "--compare", "--compare")                                    \
    Y(REDUCE, "ptodb reduce CASE", "reduce", "reduce")                                             \
    Y(INFO, "ptodb --info PATH", "--info", "--info")                                               \
    Y(CHECK, "ptodb --check PATH...", "--check", "--check")                                        \
    Y(PRINT, "ptodb --print FILE", "--print", "--print")                                           \
    Y(LIST_OPS, "ptodb --list-ops", "--list-ops", "--list-ops")                                    \
    Y(LIST_SEMANTICS, "ptodb --list-semantics", "--list-semantics", "--list-semantics")            \
    Y(MERGE, "ptodb --merge-reports FILE...", "--merge-reports", "--merge-reports")                \
    Y(DAP, "ptodb --dap", "--dap", "--dap")                                                        \
    Y(DAP_LAUNCH, "ptodb --dap (a launch request's args)", "--dap's launch args",                  \
      "the args of a --dap launch request")

typedef enum {
#define PTODB_MODE_ENUM(id, key, with, name) PTODB_MODE_##id,
    PTODB_MODE_LIST(PTODB_MODE_ENUM)
#undef PTODB_MODE_ENUM
    PTODB_MODE_COUNT
} ptodb_mode;

#define M_(id) (1u << PTODB_MODE_##id)
/* the debugger's sessions: ui/startup.c reads these options */
#define M_DEBUG (M_(DEBUGGER) | M_(COMPARE_TUI))
#define M_SESSION (M_DEBUG | M_(BATCH_EX) | M_(DAP_LAUNCH))
/* the runs of --batch, --run, --compare and reduce (parse_run_options) */
#define M_MACHINE (M_(BATCH) | M_(RUN) | M_(COMPARE) | M_(REDUCE))
/* every mode that opens a case */
#define M_CASE (M_SESSION | M_MACHINE | M_(INFO))
#define M_ALL ((1u << PTODB_MODE_COUNT) - 1)

#define PTODB_OPTION_LIST(X)                                                           \
    X(HELP, "help", 'h', NONE, NULL, M_ALL, "show this help and exit")                  \
    X(VERSION, "version", 'V', NONE, NULL, M_ALL, "print the version and exit")         \
    X(NW, "nw", 0, NONE, NULL, M_(DEBUGGER) | M_(COMPARE), "use the plain command line (REPL), not the full-screen interface; with --compare: the report, not the TUI") \
    X(EX, "ex", 0, MULTI, "CMD", M_SESSION, "run debugger command CMD after the rc files (repeatable; -ex and -x in the order given)") \
    X(COMMAND_FILE, "command", 'x', MULTI, "FILE", M_SESSION, "run the debugger commands in FILE (repeatable; -ex and -x in the order given)") \
    X(NX, "nx", 0, NONE, NULL, M_ALL, "read no rc file (~/.config/ptodb/ptodbrc, ./.ptodbrc; only the debugger's modes read them)") \
    X(TRUST, "trust", 0, NONE, NULL, M_SESSION, "run ./.ptodbrc even when its folder is not in auto-load safe-path") \
    X(INFO, "info", 0, NONE, "PATH", M_(INFO), "describe a case or a .pt/.npy file: passes, data, tolerances") \
    X(RTOL, "rtol", 0, REQUIRED, "R", M_CASE, "relative tolerance (overrides ptodb.yaml and golden.py)") \
    X(ATOL, "atol", 0, REQUIRED, "A", M_CASE, "absolute tolerance (overrides ptodb.yaml and golden.py)") \
    X(CHECK, "check", 0, NONE, NULL, M_(CHECK), "parse and check every dump (.py) in the PATHs (files or folders)") \
    X(PRINT, "print", 0, REQUIRED, "FILE", M_(PRINT), "print a dump back in the canonical raw printer form") \
    X(LIST_OPS, "list-ops", 0, NONE, NULL, M_(LIST_OPS), "list every op of the catalogue: implemented, semantics source, REF support, test") \
    X(RUN, "run", 0, NONE, "PATH", M_(RUN), "run every pass of a case (or one dump) and validate like REF") \
    X(REF, "ref", 0, REQUIRED, "PROFILE", M_MACHINE, "torch profile of the reference: torch2 (default) or torch1.13 (the debugger: set ref)") \
    X(SCHEDULE, "schedule", 0, REQUIRED, "S", M_MACHINE | M_SESSION, "cross-core (and, in a multi-rank case, cross-rank) schedule: fixed, aic-first, aiv-first, random:SEED") \
    X(SLOT_DEPTH, "slot-depth", 0, REQUIRED, "N", M_MACHINE, "cross-core queue depth: N, pipe (slot_num) or unbounded (REF, default)") \
    X(RECORD_SCHEDULE, "record-schedule", 0, REQUIRED, "FILE", M_(RUN), "write the cross-core choices of each pass's run (cores, SPMD block order) to FILE, to replay them (docs/schedule.md; the debugger: record schedule)") \
    X(REPLAY_SCHEDULE, "replay-schedule", 0, REQUIRED, "FILE", M_(RUN) | M_SESSION, "run each pass under the schedule FILE recorded (--record-schedule, record schedule); a file that does not fit the pass is refused at its line") \
    X(RACE_CHECK, "race-check", 0, REQUIRED, "N", M_(RUN), "rerun each pass under N random schedules; report outputs that change (races through global memory)") \
    X(TIMEOUT, "timeout", 0, REQUIRED, "SECONDS", M_MACHINE, "stop a pass that runs longer than SECONDS (a loop that never ends) with an error (reduce: default 20)") \
    X(SEMANTICS, "semantics", 0, REQUIRED, "S", M_MACHINE | M_SESSION, "what a pass computes: device (default: PyPTO's runtime and the PTO ISA) or ref (the PyTorch reference, its failures included)") \
    X(LIST_SEMANTICS, "list-semantics", 0, NONE, NULL, M_(LIST_SEMANTICS), "list every place where --semantics=device and --semantics=ref differ, with sources") \
    X(NO_CHECK_SHAPES, "no-check-shapes", 0, NONE, NULL, M_MACHINE, "skip REF's check_shapes assertions") \
    X(MEMCHECK, "memcheck", 0, REQUIRED, "on|off", M_MACHINE, "tiles at their MemRefs and the memory sanitizer (default on); off runs blind like the reference (the debugger: set memcheck)") \
    X(SAVE_OUTPUTS, "save-outputs", 0, REQUIRED, "DIR", M_(BATCH) | M_(RUN), "write each output as DIR/PASS.KEY.raw") \
    X(JOBS, "jobs", 'j', REQUIRED, "N", M_(BATCH) | M_(RUN), "run N passes at a time in worker processes") \
    X(BATCH, "batch", 0, NONE, "PATH", M_(BATCH) | M_(BATCH_EX) | M_(COMPARE), "validate every pass of a case (or of every case in a folder): REF's lines, a summary table; exit 1 if any fails; with -ex/-x: run them without a prompt; with --compare: the report, not the TUI") \
    X(STOP_AT_FIRST, "stop-at-first", 0, NONE, NULL, M_(BATCH), "stop at the first failing pass, as REF does") \
    X(COMM_ORDER, "comm-order", 0, REQUIRED, "O", M_(BATCH) | M_(RUN) | M_SESSION, "on a multi-rank case: program (default: a rank's comm dispatches in program order, PyPTO #2398) or ready (tensor dependencies only, as before it: #2397's deadlock)") \
    X(STRICT_REF, "strict-ref", 0, NONE, NULL, M_(BATCH) | M_(RUN) | M_(COMPARE), "a file the reference cannot run fails (exit 1), as in the validator in CI") \
    X(METRICS, "metrics", 0, NONE, NULL, M_(BATCH), "share outside tolerance, first bad index, max rel error, NaN/Inf, ULP") \
    X(JSON, "json", 0, REQUIRED, "FILE", M_(BATCH) | M_(MERGE) | M_(COMPARE), "write the report as JSON to FILE (- for stdout)") \
    X(JUNIT, "junit", 0, REQUIRED, "FILE", M_(BATCH) | M_(MERGE), "write a JUnit XML report (one testcase per pass and output) to FILE") \
    X(HTML, "html", 0, REQUIRED, "FILE", M_(BATCH) | M_(MERGE) | M_(COMPARE), "write a self-contained HTML report (tables, heat maps, IR diff) to FILE") \
    X(SHARD, "shard", 0, REQUIRED, "K/N", M_(BATCH), "validate only the K-th of N slices of the sorted cases of a folder of cases") \
    X(MERGE_REPORTS, "merge-reports", 0, NONE, "FILE...", M_(MERGE), "join the JSON reports of --batch shards into one (--json, --junit, --html)") \
    X(BISECT, "bisect", 0, NONE, NULL, M_(BATCH), "find the first failing pass and its first differing statement") \
    X(COMPARE, "compare", 0, NONE, "A B", M_(COMPARE) | M_(COMPARE_TUI), "run two builds of one program in lockstep: passes aligned by name, the first pass whose outputs differ and its first differing statement; exit 1 on any difference (on a terminal, without --batch/--nw/--json/--html: the TUI with the two builds side by side)") \
    X(PASS, "pass", 0, REQUIRED, "N", M_(REDUCE), "the failing pass to reduce, by its number NN (default: the first failing pass, found by bisect)") \
    X(BUDGET, "budget", 0, REQUIRED, "TIME", M_(REDUCE), "how long to search, in seconds or with a suffix s, m or h (default 10m)") \
    X(OUT, "out", 0, REQUIRED, "DIR", M_(REDUCE), "the folder of the reduced case (default ./CASE-reduced; never inside a case folder)") \
    X(DDMIN_LINES, "ddmin-lines", 0, NONE, NULL, M_(REDUCE), "plain line-level delta debugging instead of ptodb's transformations (the baseline to compare with)") \
    X(FINGERPRINT, "fingerprint", 0, NONE, NULL, M_(REDUCE), "print the case's divergence fingerprint as JSON and exit") \
    X(BISECT_SCAN, "bisect-scan", 0, NONE, NULL, M_(BATCH), "always confirm --bisect's result with the full scan, whatever its estimated cost") \
    X(HEATMAP, "heatmap", 0, NONE, NULL, M_(BATCH), "print a heat grid of |actual - golden| per output") \
    X(MAX_TENSOR_BYTES, "max-tensor-bytes", 0, REQUIRED, "N", M_CASE | M_(DAP), "largest tensor to load or allocate, in bytes (suffix K, M, G or T; default 16G, or half the memory when less)") \
    X(DAP, "dap", 0, NONE, NULL, M_(DAP), "serve the Debug Adapter Protocol on standard input and output (editors: VS Code, nvim-dap, dape)") \
    X(DAP_PORT, "dap-port", 0, REQUIRED, "N", M_(DAP), "serve the Debug Adapter Protocol on TCP port N of 127.0.0.1 (0: a free port, printed on standard error)") \
    X(TRACE, "trace", 0, REQUIRED, "FILE", M_SESSION, "after the -ex commands, write a Perfetto trace (JSON) of a run of the current pass, as trace save FILE does")

typedef enum {
#define PTODB_OPTION_ENUM(id, name, short_name, kind, arg, modes, help) OPT_##id,
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
    unsigned modes;   /* the modes it applies to (1u << ptodb_mode) */
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
    /* every option as given, in command-line order (-ex and -x run so) */
    struct ptodb_cli_arg {
        ptodb_option_id id;
        const char *value;          /* NULL for an option without one */
    } *order;
    int norder;
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

/* How a mode is named in a refusal ("--batch with -ex or -x"). */
const char *ptodb_mode_name(ptodb_mode mode);
/* 1 when option id chooses a mode (--batch, --run, --dap ...). */
int ptodb_option_is_mode(ptodb_option_id id);
/* Every option given must apply to mode (ptodb_options[].modes): 0, or -1
 * after "ptodb: OPTION does not apply to MODE (only to ...)" for the first
 * that does not. */
int ptodb_cli_check_mode(const ptodb_cli *cli, ptodb_mode mode);

#endif
