/* The inside of the DAP server, shared by its request files (server.c:
 * messages, launch, breakpoints, running; variables.c: threads, frames,
 * variables, evaluate; refs.c: variablesReference ids; custom.c: the ptodb/ requests; reply.c: messages
 * out and engine access; stops.c: what a run's stop means). */
#ifndef PTODB_UI_DAP_DAP_IMPL_H
#define PTODB_UI_DAP_DAP_IMPL_H

#include <jansson.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "debug/state/session.h"
#include "debug/present/view.h"
#include "framing.h"
#include "hitcond.h"
#include "server.h"

/* A response is cut before it grows past this many bytes (variables,
 * tensorSlice, clipboard): a billion-element tensor must not freeze the
 * editor (debugpy#1660). */
#define DAP_RESPONSE_CAP (60 * 1024)

/* Text (a command's output, an output event) is cut past this many bytes. */
#define DAP_TEXT_CAP (256 * 1024)

typedef enum { BPK_LINE, BPK_FUNC, BPK_DATA } dap_bp_kind;

/* A breakpoint the client set: the engine's number and what DAP adds. */
typedef struct dap_bp {
    dap_bp_kind kind;
    int number;       /* the engine's breakpoint */
    char *source;     /* BPK_LINE: the pass stem it belongs to */
    hitcond hit;
    long hits;
    char *log;        /* logMessage, or NULL */
} dap_bp;

typedef enum { REF_LOCALS, REF_TENSOR, REF_STATS } dap_ref_kind;

/* A variablesReference: valid until the program resumes. */
typedef struct dap_ref {
    dap_ref_kind kind;
    int core, level;  /* the frame it is evaluated in (-1: the selected one) */
    char *expr;       /* REF_TENSOR, REF_STATS: the expression */
} dap_ref;

typedef struct pending_msg {
    char *body;
    size_t len;
} pending_msg;

struct dap_server {
    int out_fd;
    int allow_launch;
    int seq;
    dap_framer framer;
    session *s;
    strbuf cap;           /* engine output of the command being run */
    int launched, configured, done;
    int stop_on_entry;
    int client_invalidated; /* the client opts in to invalidated events */
    int client_progress;    /* ... and to progress events */
    int progress_active;    /* a progressStart was sent for the running command */
    double progress_sent;   /* when the last progress event went (monotonic s) */
    int line_base, column_base; /* 1, or 0 for a client counting from 0 */
    dap_bp *bps;
    size_t nbps;
    dap_ref *refs;
    size_t nrefs, caprefs;
    uint32_t *ref_index;  /* open addressing: 0 empty, else a ref id */
    size_t ref_index_cap; /* a power of 2, at least twice nrefs */
    pending_msg *pending; /* read while a command ran */
    size_t npending;
    int in_fd;            /* -1 when fed by dap_server_feed only */
    int in_poll;
    int interrupted_by_pause;
    int exited;
    /* exception filters (exceptions.c): on or off, and the engine's
     * catchpoint the memory filter made (0 none) */
    int exc_memory, exc_deadlock, exc_error, exc_multirank;
    int exc_memory_bp, exc_race_bp, exc_fence_bp; /* the catchpoints the filters own, 0 none */
    /* the divergence engine on launch (a launch that names no pass, unless
     * "divergence": false): its statement's temporary breakpoint (0 none),
     * and whether the program is stopped there (a stop with reason
     * "exception" in the engine's words; exceptionInfo answers it) */
    int find_divergence;
    int div_bp;
    int div_stopped;
};

/* reply.c */
void dap_on_engine_output(void *ctx, session_stream stream, const char *text, size_t len);
void dap_send(dap_server *d, json_t *msg); /* takes the reference */
void dap_event(dap_server *d, const char *event, json_t *body);
void dap_respond(dap_server *d, json_t *req, json_t *body);
void dap_fail(dap_server *d, json_t *req, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void dap_output(dap_server *d, const char *category, const char *text);
/* exceptions.c: the divergence engine's answer as a stop (reason
 * "exception", the engine's words) */
void dap_divergence_stopped_body(dap_server *d, json_t *body);
/* text as a JSON string, cut at DAP_TEXT_CAP (a UTF-8 boundary) with a note
 * of how much was left out. */
json_t *dap_text_capped(const char *text);
/* Any text from the engine or a file as a JSON string: jansson refuses
 * malformed UTF-8 (a hostile dump's bytes, a message cut mid-character),
 * so each bad byte becomes U+FFFD. */
json_t *dap_str(const char *text);
/* Runs a debugger command with its output collected in d->cap (cleared
 * first). Returns 0, or -1 when it reported an error. */
int dap_execute(dap_server *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The last line of d->cap that is not empty (an error's message). */
const char *dap_last_line(dap_server *d, char *buf, size_t size);
/* DAP threads are cores: thread = rank * 4 + core in a multi-rank case
 * (rank 0 otherwise). Selects thread's rank when it is not the selected
 * one and sets *core; -1 when there is no such thread. */
int dap_use_thread(dap_server *d, int thread, int *core);
/* Selects thread's core and frame for the commands that follow (quietly). */
int dap_select_frame(dap_server *d, int thread, int level);
/* The run is stopped but the selected core has no frame (a seek or pause
 * at the moment it returned): selects the first thread, in thread order,
 * that has one, so that the stop has a thread to show and to resume. 0 a
 * core with a frame is selected (it already was, or now is); 1 stopped
 * where no core has a frame (a multi-rank run's step 0, before a rank's
 * first task: the selection stays, its thread shows the stop with no
 * frames); -1 no run, or it ended. */
int dap_select_live(dap_server *d);
/* Frame ids: (thread, level) packed. */
int dap_frame_id(int core, int level);
int dap_frame_unpack(long id, int *core, int *level);
/* The absolute path of a pass file (buf), or the text as it is. */
const char *dap_abs_path(const char *file, char *buf, size_t size);
/* The pass whose file a client path names (by its stem), or -1. */
int dap_pass_of_path(dap_server *d, const char *path);

/* stops.c: after a command that ran the program (output in d->cap):
 * forwards the output, applies hitCondition and logMessage, sends stopped
 * or exited. */
void dap_after_run(dap_server *d, const char *reason);

/* refs.c */
void dap_refs_clear(dap_server *d);
int dap_ref_new(dap_server *d, dap_ref_kind kind, int core, int level, const char *expr);
const dap_ref *dap_ref_get(dap_server *d, long id);

/* variables.c */
void dap_req_threads(dap_server *d, json_t *req, json_t *args);
void dap_req_stack_trace(dap_server *d, json_t *req, json_t *args);
void dap_req_scopes(dap_server *d, json_t *req, json_t *args);
void dap_req_variables(dap_server *d, json_t *req, json_t *args);
void dap_req_set_variable(dap_server *d, json_t *req, json_t *args);
void dap_req_evaluate(dap_server *d, json_t *req, json_t *args);
void dap_req_data_breakpoint_info(dap_server *d, json_t *req, json_t *args);
/* The variable's expression for a (variablesReference, name) pair, or NULL
 * (malloc'd). */
char *dap_var_expr(dap_server *d, long ref, const char *name, int *core, int *level);

/* exceptions.c */
json_t *dap_exception_filters(void); /* initialize's exceptionBreakpointFilters */
void dap_exceptions_init(dap_server *d);
/* Makes the engine's catchpoints match the filters (after launch too). */
void dap_exceptions_apply(dap_server *d);
void dap_req_set_exception_breakpoints(dap_server *d, json_t *req, json_t *args);
void dap_req_exception_info(dap_server *d, json_t *req, json_t *args);
/* 1 when the stop is an exception the filters stop on (*e filled). */
int dap_exception_stop(dap_server *d, view_exception *e);
/* 1 when the run raised and the filters do not stop there: its end. */
int dap_exception_ends_run(dap_server *d);
/* A caught exception (a memory fault, a race, a fence breach): the run goes on from it. */
int dap_exception_caught(const view_exception *e);
/* reason "exception", description and text of a stopped event. */
void dap_exception_stopped_body(dap_server *d, const view_exception *e, json_t *body);

/* memory.c: memoryReference and readMemory */
/* The memoryReference of a tensor variable (evaluated as expr in frame
 * (core, level), variablesReference ref): its tile's bytes in the memory
 * model, else its storage; NULL when it has none. */
json_t *dap_memory_reference(dap_server *d, const tensor *t, int ref);
void dap_req_read_memory(dap_server *d, json_t *req, json_t *args);

/* completions.c */
void dap_req_completions(dap_server *d, json_t *req, json_t *args);

/* custom.c */
void dap_req_passes(dap_server *d, json_t *req, json_t *args);
void dap_req_heatmap(dap_server *d, json_t *req, json_t *args);
void dap_req_tensor_slice(dap_server *d, json_t *req, json_t *args);
/* evaluate's viz(EXPR): Debug Visualizer's grid JSON as the result. */
void dap_eval_viz(dap_server *d, json_t *req, const char *expr);

#endif
