/* The inside of a session, shared by the command handlers (cmd_*.c). Front
 * ends use session.h only. */
#ifndef PTODB_DEBUG_SESSION_IMPL_H
#define PTODB_DEBUG_SESSION_IMPL_H

#include <regex.h>
#include <signal.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "data/case.h"
#include "debug/breakpoint.h"
#include "debug/predicate.h"
#include "debug/session.h"
#include "debug/view.h"
#include "exec/machine.h"
#include "exec/op.h"
#include "exec/program.h"
#include "ir/ast.h"

enum {
    SESSION_MAX_SOURCE_DEPTH = 32, /* nested `source`/user commands */
    SESSION_MAX_RESTARTS = 100,    /* `run`/`start` from breakpoint commands, in a row */
    SESSION_MAX_USER_ARGS = 10
};

typedef struct user_cmd {
    char *name;
    char **lines;
    size_t nlines;
    char *doc; /* from `document`, or NULL */
} user_cmd;

typedef enum { COLLECT_NONE, COLLECT_DEFINE, COLLECT_DOCUMENT, COLLECT_COMMANDS } collect_kind;

typedef struct display_item {
    int number;
    char *expr;
    uint64_t hash;      /* of the value at the last stop */
    int has_hash;
    char *summary;      /* the last text shown */
    char *detail;       /* display/FMT: the elements in that format, or NULL */
    int changed;
} display_item;

/* A finished pass run, kept for verdicts, heat grids and diffs. */
typedef struct pass_result {
    int ran;            /* 1 once a run of the pass ended */
    int failed;         /* the run raised (message printed) */
    int nout;
    tensor **outputs;   /* per case output (NULL when missing), one reference each */
    double *max_abs_diff;
    int *ok;
    int background;     /* from the background validation: outputs only for the
                           first failing pass and the one before it */
    int same_as;        /* background: the earlier pass with the same file bytes, -1 */
} pass_result;

/* The program being debugged: one pass on the machine. */
typedef struct run_state {
    int active;          /* a machine exists (running or stopped) */
    int pass;
    xprogram *prog;
    machine *m;
    case_binding *binds;
    size_t nbinds;
    int core;            /* the core commands act on (exec_core_id) */
    int level;           /* the selected frame on that core (0 innermost) */
    int finished;        /* the pass ran to its end (validated) */
    int failed;          /* it raised: only kill/run make sense */
    int prev_depth[EXEC_NCORES];
    int last_bp;         /* the breakpoint of the last stop, 0 none */
    /* arrivals of each core at each statement (for `pass next` keeping the
     * program point): open addressing on the statement pointer */
    struct visit { const void *stmt; int core; uint32_t count; } *visits;
    size_t nvisits, capvisits;
    /* each core's innermost frame when arrivals were last counted */
    int note_depth[EXEC_NCORES];
    uint32_t note_activation[EXEC_NCORES];
    uint64_t note_steps[EXEC_NCORES];
    int user_modified;   /* set var changed a tensor: the verdict is not the pass's own */
    /* the timeline of this run (view_timeline): one entry per machine step,
     * the last RUN_TIMELINE_MAX kept */
    view_tl_event *timeline; /* a ring: the oldest at ntimeline % cap once full */
    struct queue_track *qtracks; /* queue_track.c: the producers of the items in flight */
    size_t nqtracks;
    size_t ntimeline, captimeline;
    /* tensors written in place during the last step (write hook) */
    const tensor **written;
    size_t nwritten, capwritten;
} run_state;

typedef struct script_frame {
    const char *file; /* NULL for a user command */
    int line;
} script_frame;

typedef struct setting_value {
    char *text;   /* as given */
    double d;
    long i;
    char *origin; /* "default", "command line", "file:line" */
} setting_value;

/* What the session knows of one pass file, filled lazily. */
typedef struct pass_state {
    char *source;        /* the file's bytes, NUL-terminated (NULL until read) */
    size_t source_len;
    ir_module *module;   /* parsed and resolved, or NULL */
    char *canonical;     /* the module in the raw printer form, for diffs (set
                            when it parses, even if it does not resolve) */
    int loaded;          /* load attempted (errors were printed once) */
    char *first_error;   /* "file:line:col: error: ..." when it does not check */
    size_t nerrors;
    int changed;         /* -1 unknown, 0 same IR as the previous pass, 1 changed */
} pass_state;

struct session {
    session_output_fn out;
    void *out_ctx;
    unsigned redraw;
    int quit;

    setting_value settings[SETTING_COUNT];

    user_cmd *user_cmds;
    size_t nuser_cmds;

    /* define/document collection */
    collect_kind collecting;
    char *collect_name;
    strbuf collect_body;
    int collect_depth; /* nested blocks (while/if bodies) inside a define */

    script_frame frames[SESSION_MAX_SOURCE_DEPTH];
    int depth;

    /* the case */
    int have_case;
    case_info kase;
    pass_state *passes;  /* kase.npasses entries */
    int cur_pass;        /* index into kase.passes */
    int list_line;       /* next line `list` shows, 0 = around the start */

    char *status_line;   /* view_status_line's buffer */
    float *heat_cells;   /* view_heatmap_get's buffers */
    uint32_t *heat_outside;
    char *complete_buf;  /* a completion built on the fly (golden.NAME) */
    char *state_dir;     /* per-case session files, or NULL */
    char **restored;     /* records read from the case's session file when it
                            was opened: what another ptodb may have added
                            since is told apart from what this one deleted */
    size_t nrestored;
    int quiet;           /* restoring a session: no chatter, errors still shown */
    int nerrors;         /* error messages reported */
    session_command_hook hook; /* the front end's own commands */
    void *hook_ctx;
    const char *const *hook_names;

    /* running */
    op_fn *ops;          /* exec_ops_init's table, built on first use */
    run_state run;
    run_state side;      /* point.c: the other pass's run kept for `diff ... pass N` */
    struct point_alpha *alpha_cache; /* point.c: functions' renaming-free texts */
    exec_profile_id side_profile;
    pass_result *results; /* kase.npasses entries */
    breakpoint *bps;
    size_t nbps;
    int next_bp;
    int collect_bp;      /* COLLECT_COMMANDS: the breakpoint number */
    display_item *displays;
    size_t ndisplays;
    int next_display;
    volatile sig_atomic_t interrupted;
    session_poll_fn poll;
    void *poll_ctx;
    int in_hook;         /* running hook-stop or breakpoint commands */
    char *pending_resume; /* a resuming command from breakpoint commands, run after the stop */
    /* expr.c: the value history ($1 ...) and convenience variables ($name) */
    tensor **history;
    size_t nhistory;
    struct convenience_var { char *name; tensor *t; } *convs;
    size_t nconvs;
    int draining;        /* session_execute is running pending_resume commands */
    struct validate_bg *bg; /* validate_bg.c: the background validation, or NULL */
};

/* Reads, parses and resolves pass i once; prints its diagnostics the first
 * time. Returns the pass state (module NULL on errors). */
pass_state *session_load_pass(session *s, int i);
/* "Cannot WHAT STEM: it does not check (N errors, the first: ...)." for a
 * pass whose load failed. */
void session_pass_not_checked(session *s, const char *what, int pass);
/* Finds a pass by "N", "NN_after_Name", "Name" (unique) ; prints an error
 * and returns -1 when there is none or several. */
int session_find_pass(session *s, const char *spec);
/* The IR of pass i differs from pass i-1's: 1, 0, or -1 when a file does not parse. */
int session_pass_ir_changed(session *s, int i);

/* run.c */
void run_kill(session *s);
void run_free_results(session *s);
void run_free_result(pass_result *r);
/* Appends the step ev to the run's timeline (view.h's view_timeline). */
void run_timeline_note(session *s, const exec_event *ev);
/* queue_track.c: after a push (push != 0) or pop statement at line on
 * core, follows the queues' depths; the origin of item k (front first) of
 * the queue id inspect_queues gave with that depth: 1 with the producer's
 * core and line and the pushed variable's name, 0 when not known. */
void run_track_queues(session *s, int core, int line, int push);
int run_queue_item_origin(session *s, const void *id, int depth, int k, int *core, int *line, const char **name);
void run_track_free(run_state *r);
/* validate_bg.c: the open case with the session's tolerances (`set rtol`)
 * where the manifest gives none; borrows all but c->outputs (free it). */
void session_case_with_tols(const session *s, case_info *c);
/* Records a verdict the batch engine found for pass (background validation,
 * bisect) in the per-pass table, without output tensors. */
void session_note_verdict(session *s, int pass, int failed, int same_as, int nout, const double *max_abs_diff,
                          const int *ok);
/* Starts pass i from its entry with fresh inputs; prints errors. */
ptodb_status run_start(session *s, int pass);
typedef enum { RUN_STEP, RUN_NEXT, RUN_FINISH, RUN_CONTINUE, RUN_UNTIL, RUN_UNTIL_NEXT } run_mode;
/* Runs until the mode's stop condition, a breakpoint, the end or an error,
 * then reports the stop. until_line: RUN_UNTIL's line in the running pass. */
ptodb_status run_go(session *s, run_mode mode, long count, int until_line);
/* `run` / `start`: starts pass and runs (or stops at its first statement). */
ptodb_status run_begin(session *s, int pass, int stop_at_start);
/* Moves a stopped run to the corresponding program point of another pass:
 * the same function (or its outlined/split twin) and the statement with the
 * same SSA base names and op, reached the same number of times. */
ptodb_status run_seek_point(session *s, int pass);
/* The tensor `name` of pass `pass` at the point corresponding to where the
 * current run stopped (a side run, kept for the next call; the current run
 * is untouched). The mapping is exact where the stop's function is
 * unchanged in that pass (same core, call and statement count), otherwise
 * by statement keys and said to be a guess. flags: POINT_SAY_MATCH prints
 * which tensor was taken and how it was matched; POINT_QUIET_MISSING keeps
 * "no such tensor there" quiet (NULL is returned all the same). */
enum { POINT_SAY_MATCH = 1, POINT_QUIET_MISSING = 2 };
tensor *session_tensor_in_pass(session *s, int pass, const char *name, int flags);
/* Counts the arrivals of the cores that moved since the last count (the
 * stepped one, and any whose innermost frame changed: a group start puts
 * frames on several cores) at the statements they are now about to run.
 * Every run, the user's and the side runs in other passes, counts this way,
 * so equal counts name the same visit. stepped: a core id, or -1 at start. */
void run_note_arrivals(run_state *r, int stepped);
/* Ends the side run session_tensor_in_pass keeps. */
void point_side_kill(session *s);
/* The value a name denotes at the current stop: a slot of the selected frame
 * (searched outward), an input or a golden output ("golden.NAME"). Sets
 * *golden to the matching golden output when there is one. Returns a new
 * reference, or NULL with a message printed. */
tensor *session_lookup_tensor(session *s, const char *name, const tensor **golden, int quiet);
/* The variable `name` (exact, or its SSA base) of the selected frame or the
 * frames around it on the current core: 1 with its slot name and value, 0
 * when no frame has it or no program is running. */
int session_frame_value(session *s, const char *name, const char **slot_name, const value **val);
/* Records t in the value history and prints "LEAD$N = value" as print
 * does (cmd_expr.c); fmt is a print format letter or 0. */
void print_recorded_value(session *s, const char *lead, tensor *t, char fmt);
/* set var's assignments (cmd_expr.c), reached from `set`. */
ptodb_status cmd_set_var(session *s, const char *args);
/* The type a variable is declared with in the dump ("pl.Tile[[16, 64],
 * pl.BF16, ...]") when expr is the name of a slot of the selected frame
 * (exact or short): 1 with the text appended to out. */
int session_declared_type(session *s, const char *expr, strbuf *out);
/* When a short name could mean more than one bound variable of the frame
 * that has `taken` (the slot the name resolved to), appends a note line
 * naming the one taken and the others; appends nothing otherwise. */
void session_name_alternatives(session *s, const char *name, const char *taken, strbuf *note);
/* The tolerances output o is validated with: the manifest's per-output
 * value wins, then the session setting (which starts as the case's and
 * follows `set`). */
void session_output_tols(const session *s, const case_tensor *o, double *rtol, double *atol);
/* The golden output a tensor name corresponds to (SSA suffix dropped), or NULL. */
const case_tensor *session_golden_for(const session *s, const char *name);
/* Prints the stop location: "[CORE] func at file:line" and the source line. */
void run_print_location(session *s);
/* "LINE<tab>text" of the running pass's file. */
void run_print_source_line(session *s, int line);
/* The `display` list at a stop. */
void display_show_all(session *s, int only_changed);
/* A new watchpoint starts from the value its name has now, if any. */
void run_watch_prime(session *s, breakpoint *b);
void display_free_all(session *s);
/* Shared by the command handlers (session.c). */
/* 1 when a case is open; otherwise prints "No case is open." and returns 0. */
int session_need_case(session *s);
/* Prints a sink's diagnostics: errors as errors, warnings and notes as warnings. */
void session_print_diags(session *s, const diag_sink *sink);
/* The torch profile the `ref` setting names. */
exec_profile_id session_profile(const session *s);
/* Lines in a text (a last line without a newline counts). */
int session_count_lines(const char *text);
/* The file name part of a path. */
const char *session_file_name(const char *path);

/* cmd_break.c */
/* Deletes breakpoint b (a pointer into s->bps; later ones move down). */
void bp_delete(session *s, breakpoint *b);

/* persist.c */
void session_autosave(session *s);
void session_persist_free(session *s);
void session_autorestore(session *s);

user_cmd *session_find_user_cmd(const session *s, const char *name, size_t len);
/* Runs a user command's body with $argN/$argc substituted. */
ptodb_status session_run_user_cmd(session *s, user_cmd *u, const char *args);

/* Splits args into words (whitespace separated; "double quotes" and [...]
 * subscripts group). At
 * most max words; returns the count, or -1 when there are more. The words
 * are copied into buf (bufsize bytes). */
int session_split_words(const char *args, char **words, int max, char *buf, size_t bufsize);

#endif
