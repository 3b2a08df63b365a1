/* The inside of a session: the session object itself and the small helpers
 * every command handler uses. Each part it holds has its own header (run.h,
 * passes.h, display.h, script.h, breakpoint.h); front ends use session.h
 * only. */
#ifndef PTODB_DEBUG_SESSION_IMPL_H
#define PTODB_DEBUG_SESSION_IMPL_H

#include <regex.h>
#include <signal.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "data/case.h"
#include "debug/state/breakpoint.h"
#include "debug/present/display.h"
#include "debug/state/observers.h"
#include "debug/state/passes.h"
#include "debug/state/predicate.h"
#include "debug/run/run.h"
#include "debug/state/session.h"
#include "exec/op.h"

/* What the command loop keeps while it runs user commands (define,
 * document) and `source`d files (script.c). */
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

struct session_compare;

struct session {
    struct session_compare *compare; /* the last `compare B` (compare_view.h), NULL none */
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
    char heat_why[256];  /* view_heatmap_get's reason when it says one of the engine's */
    char heat_tile[256]; /* view_heatmap_tile's tile name */
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
    int point_last;      /* point.c: point_last_match's quality and sentence */
    char point_last_how[1024];
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
    int interactive;     /* lines typed at the top level come from a person (session_set_interactive) */
    char *query;         /* a question waiting for its answer, the next line (session_ask), or NULL */
    char *query_yes;     /* the command a yes runs */
    int confirmed;       /* that command is running: the user said yes */
    /* expr.c: the value history ($1 ...) and convenience variables ($name) */
    tensor **history;
    size_t nhistory;
    struct convenience_var { char *name; tensor *t; } *convs;
    size_t nconvs;
    int draining;        /* session_execute is running pending_resume commands */
    struct validate_bg *bg; /* validate_bg.c: the background validation, or NULL */
    struct exec_schedule *replay; /* `replay schedule FILE`: the runs follow it, or NULL */
    /* the last bisect's first differing statement (view_bisect_statement):
     * its pass and line (0: none), counted by serial */
    int bisect_pass, bisect_line;
    unsigned bisect_serial;
    /* the divergence engine's answer there (batch/diverge.h), in its words:
     * the rank (-1: single-rank), the reason (diverge_reason), its
     * "first divergence: ..." line and its "reason: WORD: ..." line */
    int bisect_rank, bisect_reason;
    char *bisect_head, *bisect_why;
    /* observers.c: who listens to the session's events, and the commands
     * floor's runners of a command; script.c: the handlers' table */
    session_observer *observers;
    size_t nobservers;
    session_line_fn run_line;
    session_builtin_fn run_builtin;
    ptodb_status (*const *handlers)(session *s, const char *args);
};

/* The session's state alone, no floor attached (session.c); session_new
 * (debugger.c) attaches them. */
session *session_state_new(void);

/* Matches the longest setting name that prefixes text (names may contain
 * spaces: "auto-load safe-path"). Returns the id and sets *rest to the text
 * after the name, or -1 (session.c). */
int session_match_setting(const char *text, const char **rest);
/* Shared by the command handlers (session.c). */
/* 1 when a case is open; otherwise prints "No case is open." and returns 0. */
int session_need_case(session *s);
/* Prints a sink's diagnostics: errors as errors, warnings and notes as warnings. */
void session_print_diags(session *s, const diag_sink *sink);
/* The torch profile the `ref` setting names. */
exec_profile_id session_profile(const session *s);
/* The `semantics` setting (device by default, --semantics on the command line). */
exec_semantics session_semantics(const session *s);
/* Machine options for a run in the debugger: the defaults with the
 * session's profile and semantics. */
void session_machine_options(const session *s, machine_options *o);
/* The op table every run of this session uses (exec_ops_init's), built on
 * first use (session.c). */
const op_fn *session_ops(session *s);
/* The `schedule` setting into o (sched, seed): the user's runs, single- and
 * multi-rank (a multi-rank case's random:SEED seeds its global schedule). */
void session_schedule_options(const session *s, machine_options *o);
/* Lines in a text (a last line without a newline counts). */
int session_count_lines(const char *text);
/* The file name part of a path. */
const char *session_file_name(const char *path);

/* Splits args into words (whitespace separated; "double quotes" and [...]
 * subscripts group). At
 * most max words; returns the count, or -1 when there are more. The words
 * are copied into buf (bufsize bytes). */
int session_split_words(const char *args, char **words, int max, char *buf, size_t bufsize);

#endif
