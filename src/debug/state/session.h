/* A debugging session: everything one user's ptodb holds (case, current
 * pass, breakpoints, displays, user commands, settings). No global state:
 * tests hold several sessions, and every front end (REPL, TUI, batch, rc
 * files) drives one through session_execute.
 *
 * The engine never writes to a terminal: all text goes through the output
 * callback the front end installs.
 *
 * The front ends' one header: it declares the session's entry points
 * whichever floor of src/debug implements them (session_new and
 * session_execute the commands, session_validate_* run control; see
 * docs/notes-debug.md, "The debugger's floors"). */
#ifndef PTODB_DEBUG_SESSION_H
#define PTODB_DEBUG_SESSION_H

#include <stdarg.h>
#include <stddef.h>

#include "base/status.h"

typedef struct session session;

typedef enum { SESSION_OUT, SESSION_ERR } session_stream;
typedef void (*session_output_fn)(void *ctx, session_stream stream, const char *text, size_t len);

/* What a command changed, so the TUI redraws only that. */
enum {
    SESSION_REDRAW_SOURCE = 1u << 0,
    SESSION_REDRAW_PASSES = 1u << 1,
    SESSION_REDRAW_HEATMAP = 1u << 2,
    SESSION_REDRAW_QUEUES = 1u << 3,
    SESSION_REDRAW_WATCH = 1u << 4,
    SESSION_REDRAW_STATUS = 1u << 5,
    SESSION_REDRAW_ALL = 0xffu
};

typedef enum {
#define SETTING(id, name, kind, def, help) SETTING_##id,
#include "debug/settings.def"
#undef SETTING
    SETTING_COUNT
} session_setting;

session *session_new(void);
void session_free(session *s);
/* Default: stdout/stderr of the process. */
void session_set_output(session *s, session_output_fn fn, void *ctx);

/* Runs one line typed by the user. Inside `define`/`document`/`commands`
 * the line is collected instead (see session_prompt_continuation). Errors
 * are printed (with FILE:LINE: when running a script) and returned. */
ptodb_status session_execute(session *s, const char *line);
/* Runs a script; each error is reported as path:line: message and the
 * following lines still run. Returns the first error's status, or OK. */
ptodb_status session_source(session *s, const char *path);
/* 1 while collecting a define/document/commands body (prompt ">"). */
int session_collecting(const session *s);
int session_quit_requested(const session *s);
/* The redraw bits accumulated since the last call, cleared. */
unsigned session_take_redraw(session *s);
void session_mark_redraw(session *s, unsigned bits);

/* Opens a case (a build folder, passes_dump/, one dump file or a ptodb.yaml)
 * and selects its first pass. Problems are printed; ERR_* when the case
 * cannot be used. rtol/atol < 0 mean "not given on the command line". */
ptodb_status session_open(session *s, const char *path, double rtol, double atol);
int session_has_case(const session *s);
/* The open case's folder (data/, passes_dump/ ...), or NULL. */
const char *session_case_root(const session *s);
int session_npasses(const session *s);
int session_current_pass(const session *s);
/* "22_after_ExpandMixedKernel" of pass i, or NULL. */
const char *session_pass_stem(const session *s, int i);
/* The raw bytes of pass i's file (read lazily), or NULL when unreadable. */
const char *session_pass_source(session *s, int i);

/* Where per-case session files live (the front end passes
 * $XDG_STATE_HOME/ptodb); NULL disables saving and restoring. With a case
 * open, its saved session is restored now. */
void session_set_state_dir(session *s, const char *dir);
/* Writes the breakpoints (and the displays when with_displays) as a command
 * script. Returns ERR_IO with a message printed on failure. */
ptodb_status session_save_script(session *s, const char *path, int with_displays);

/* Commands a front end adds (the TUI's layout, zoom, focus): a line whose
 * first word is no engine or user command goes to fn, which returns 1 when
 * it handled it. names (NULL-terminated) are listed by `help` and completed. */
typedef int (*session_command_hook)(void *ctx, const char *line);
void session_set_command_hook(session *s, session_command_hook fn, void *ctx, const char *const *names);

/* Questions (gdb's query): a command may ask the person at the prompt, as
 * `break NAME` does of a function no pass defines. A front end says with
 * session_set_interactive that the lines it passes at the top level are
 * typed by one (the REPL on a terminal, the TUI's command line); in any
 * other case, and for the lines of rc files, -x, -ex (run before the
 * prompt), source, user commands and breakpoint commands, the default
 * answer is taken and said at once. While a question waits,
 * session_query_prompt is its text, "... (y or [n]) ", which the front end
 * shows as its prompt, and the next line passed is the answer. */
void session_set_interactive(session *s, int on);
const char *session_query_prompt(const session *s);

/* Asks a running command to stop at the next statement boundary (it
 * reports "Interrupted." and the location). Async-signal-safe: a SIGINT
 * handler may call it. */
void session_interrupt(session *s);

/* Called every few thousand statements while a command runs, so a front end
 * can show progress (text like "pass 22 ExpandMixedKernel: 40960 statements")
 * and notice Ctrl-C (then call session_interrupt). */
typedef void (*session_poll_fn)(void *ctx, const char *progress);
void session_set_poll(session *s, session_poll_fn fn, void *ctx);

/* Errors reported so far (every error message counts), and passes whose
 * run ended with an output outside tolerance or an error: for scripted
 * sessions (`--batch -ex ...`) to choose an exit status. */
int session_error_count(const session *s);
int session_failed_validations(const session *s);

/* Output for command handlers. */
void session_printf(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void session_write(session *s, const char *text, size_t len);
/* Reports an error: "message", prefixed by "FILE:LINE: " inside a script. */
void session_errorf(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void session_verrorf(session *s, const char *fmt, va_list ap);
/* A warning or note: shown like an error (standard error, FILE:LINE: in a
 * script) but not counted by session_error_count. */
void session_warnf(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Background validation of every pass (validate_bg.c): a forked worker runs
 * the batch engine and streams its verdicts back; the front end polls the
 * returned descriptor and calls session_validate_poll when it is readable.
 * Results land in the per-pass table the views read; the first failing
 * pass is selected (when nothing is running) and named in the output.
 * start returns -1 when it did not start (no case, `set auto-validate off`,
 * already running, fork failed). poll returns 1 while more is to come. */
int session_validate_start(session *s);
int session_validate_fd(const session *s);
int session_validate_poll(session *s);
/* Stops the worker; results received so far stay. */
void session_validate_cancel(session *s);

/* Settings. */
const char *session_setting_name(session_setting id);
const char *session_get_string(const session *s, session_setting id);
double session_get_double(const session *s, session_setting id);
long session_get_int(const session *s, session_setting id);
int session_get_bool(const session *s, session_setting id);
/* Sets from text; origin says where ("command line", "rc file ~/.ptodbrc:3").
 * Returns ERR_USAGE with the reason printed for a bad value. */
ptodb_status session_set(session *s, session_setting id, const char *value, const char *origin);
const char *session_setting_origin(const session *s, session_setting id);
/* The one-line description of a setting. */
const char *session_setting_help(session_setting id);

/* Names of commands (built-in and user-defined) starting with prefix, for
 * completion: call with state 0, 1, 2, ... until it returns NULL. */
const char *session_complete_command(const session *s, const char *prefix, int state);
/* Setting names starting with prefix (state as above). */
const char *session_complete_setting(const session *s, const char *prefix, int state);

/* The characters that end a word for completion (readline's
 * rl_completer_word_break_characters): readline's default without '$' and with
 * ',', so $1, $$ and $name complete as one word, also in max($1, $2). */
#define SESSION_WORD_BREAKS " \t\n\"\\'`@><=;|&{(,"
typedef enum { COMPLETE_NOTHING, COMPLETE_WORDS, COMPLETE_FILES } session_completion;
/* What the word starting at byte `start` of line should complete to: the
 * session's own candidates (then call session_complete_word), file names
 * (the front end's file completion), or nothing. */
session_completion session_completion_kind(const session *s, const char *line, int start);
/* Candidate number state for word, per the kind above; NULL past the last. */
const char *session_complete_word(const session *s, const char *line, int start,
                                  const char *word, int state);

#endif
