/* What front ends display, read from a session: the stop location, the
 * passes with their verdicts, breakpoint marks, max_abs_diff heat grids,
 * cores and queues, displayed tensors, the status line. The TUI draws only
 * what these return; it computes nothing the engine computes.
 *
 * Every function fills caller-owned structs; strings in them point into the
 * session and stay valid until the next session_execute. A function returns
 * 0 when there is nothing to show yet (no case, no run, no validation): a
 * pane then says so instead of drawing stale data. */
#ifndef PTODB_DEBUG_VIEW_H
#define PTODB_DEBUG_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "debug/state/session.h"
#include "tensor/tensor.h"

typedef struct view_location {
    int pass;         /* index into the passes */
    const char *file; /* the pass file */
    int line, col;    /* 1-based */
    int core;         /* exec_core_id: 0 host, 1 aic, 2 aiv0, 3 aiv1 */
    const char *core_name;
    const char *func;
    int rank;         /* a multi-rank case: the selected rank, else -1 */
} view_location;

/* The statement the program is stopped at. 0 when no program is running. */
int view_stop_location(session *s, view_location *out);
/* The last `bisect`'s first differing statement: 1 with its pass (an index
 * of the case's passes) and line, and a serial that changes with each
 * bisect that names one (a front end follows it once); 0 when none. */
int view_bisect_statement(session *s, int *pass, int *line, unsigned *serial);
/* The divergence engine's answer behind it (batch/diverge.h: bisect, the
 * background validation's first failing pass), in the engine's words. */
typedef struct view_divergence {
    int pass, line, rank;  /* rank -1: a single-rank case */
    const char *reason;    /* the reason word: "branch", "op", ... */
    const char *head;      /* "first divergence: FILE:LINE: ..." */
    const char *why;       /* "reason: WORD: ..." ("" when none) */
    unsigned serial;       /* as view_bisect_statement's */
} view_divergence;
int view_divergence_answer(session *s, view_divergence *out);
/* The line of the first error (in the file's order: the root cause) of
 * pass, a file that does not check, once it has been loaded (its errors are
 * then in the output); 0 otherwise. */
int view_pass_error_line(session *s, int pass);
/* 1 when a run has reached the end of its pass (continue goes on to the
 * following passes), 0 otherwise. */
int view_run_finished(session *s);
/* The pass the program (running, stopped or finished) is in, -1 when there
 * is no program. */
int view_run_pass(session *s);

typedef enum { VIEW_VERDICT_UNKNOWN, VIEW_VERDICT_PASS, VIEW_VERDICT_FAIL, VIEW_VERDICT_ERROR, VIEW_VERDICT_MEMFAULT } view_verdict;

enum { VIEW_MAX_OUTPUTS = 8 };

typedef struct view_pass {
    int index;        /* NN of the file name */
    const char *name; /* "ExpandMixedKernel" */
    const char *stem; /* "22_after_ExpandMixedKernel" */
    int ir_changed;   /* -1 not known yet, 0 same IR as the previous pass, 1 changed */
    view_verdict verdict; /* UNKNOWN until the pass was validated */
    int noutputs;
    const char *output_names[VIEW_MAX_OUTPUTS];
    double max_abs_diff[VIEW_MAX_OUTPUTS]; /* NaN when not known */
    /* the worst element's |diff| as a fraction of its tolerance, over the
     * outputs (exec_compare_result.margin; print with heat_format_share):
     * at most 1 when every output passes; NaN when not known */
    double margin;
    int same_as;      /* the earlier pass whose file has the same bytes, -1 none or unknown */
} view_pass;

/* Pass i (0 .. session_npasses-1). Returns 0 when out of range. Computing
 * ir_changed may parse the files (cached), nothing is run. */
int view_pass_info(session *s, int i, view_pass *out);

/* Breakpoint mark for a line of pass i's file: 0 none, 1 enabled, 2 disabled. */
int view_breakpoint_at(session *s, int pass, int line);

typedef enum { VIEW_HEAT_VS_GOLDEN, VIEW_HEAT_VS_PREVIOUS } view_heat_mode;
/* How a point of one pass was mapped to another (program points). */
typedef enum { VIEW_MATCH_NONE, VIEW_MATCH_EXACT, VIEW_MATCH_GUESS } view_match;

/* A heat grid over one output tensor, aggregated to fit rows x cols cells:
 * per cell, the largest error among its elements as a fraction of that
 * element's tolerance, |a - b| / (atol + rtol*|b|) (the one heat scale,
 * tensor/heatgrid.h: draw a cell with heat_level and heat_level_char; above
 * 1 is outside the tolerance). cells is rows*cols floats, row-major, owned
 * by the session. valid_rows/cols: cells covering the valid region. */
typedef struct view_heatmap {
    const char *tensor;
    int rows, cols;
    const float *cells;
    double max;        /* the largest cell: the worst element's fraction of its tolerance */
    double max_abs;    /* the largest |a - b| */
    double tolerance;  /* atol + rtol*|golden| at its largest (a reading aid only) */
    /* per cell, the elements outside the tolerance by the validator's rule
     * (exec_compare_mask, the output's tolerances): what the validate line
     * counts, so a cell is "over" exactly when it holds such an element */
    const uint32_t *outside;
    int outside_cells;
    int64_t outside_elements, elements;
    int valid_rows, valid_cols;
    int64_t shape[2];  /* the tensor's (2-D view of its) shape */
    int block_rows, block_cols; /* elements per cell */
    int tiled;         /* one cell per tile the pass stores (batch_tile_grid), as --heatmap draws */
    const char *why;   /* when view_heatmap_get returns 0: why there is no grid */
    /* ... and what fills it: VIEW_FILL_RUN running this pass in the
     * debugger (`run`), VIEW_FILL_RUN_PREVIOUS running the pass before it
     * (fill_pass, an index into the passes), VIEW_FILL_NONE nothing a front
     * end can offer. */
    enum { VIEW_FILL_NONE, VIEW_FILL_RUN, VIEW_FILL_RUN_PREVIOUS } fill;
    int fill_pass;
    /* Stopped inside the current pass: the output's values at the stop
     * (tiles not written yet differ from golden), and, against the previous
     * pass, its value at the corresponding point of that pass. */
    int live;
    view_match match;  /* live, VS_PREVIOUS: how the point was mapped */
    const char *match_how; /* the program-points engine's sentence, or "" */
    int compare_pass;  /* VS_PREVIOUS: the index into the passes compared with, else -1 */
} view_heatmap;

/* The heat grid of output number `output` of the current pass, at most
 * max_rows x max_cols cells, against golden or against the same output of
 * the pass just before (N-1). When the run is stopped inside that pass, the
 * grid is of the output at the stop (live), against golden and against the
 * output at the corresponding point of pass N-1 (a side run of that pass,
 * kept from stop to stop); otherwise of the last finished run. 0 when there
 * is none, with out->why saying why (not run yet, the previous pass not
 * run, the run failed, no corresponding point, ...). */
int view_heatmap_get(session *s, int output, view_heat_mode mode, int max_rows, int max_cols,
                     view_heatmap *out);

/* The tile at the stop: the first argument of the stop's statement that is
 * a variable declared pl.Tile (what `tile.store` stores, `tpush` pushes,
 * an op takes), against the same variable at the corresponding point of
 * the previous pass (named there by its statement, a lane's half where
 * that pass had one core do both lanes, as `diff TILE pass N`). A tile has
 * no golden: VIEW_HEAT_VS_GOLDEN returns 0 with why saying so. out->tensor
 * is the tile's name. 0 when not stopped inside the current pass or the
 * statement takes no tile. */
int view_heatmap_tile(session *s, view_heat_mode mode, int max_rows, int max_cols, view_heatmap *out);

typedef enum { VIEW_CORE_IDLE, VIEW_CORE_RUNNING, VIEW_CORE_BLOCKED, VIEW_CORE_DONE } view_core_state;

typedef struct view_core {
    const char *name;     /* "host", "aic", "aiv0", "aiv1" */
    view_core_state state;
    const char *func;     /* current function, or NULL */
    int line;             /* current statement line, 0 when none */
    const char *waiting;  /* the op it is blocked on ("tile.tpop_from_aic"), or NULL */
    int current;          /* the core commands act on */
    int rank;             /* a multi-rank case: the rank whose core it is, else -1 */
} view_core;

typedef struct view_queue {
    const char *direction; /* "aic->aiv" / "aiv->aic" */
    int split;             /* 0..4 */
    int lane;              /* 0/1 */
    int depth;             /* items waiting */
    int capacity;          /* -1 unbounded */
} view_queue;

/* Fill at most max entries; return how many there are (0 without a run).
 * A multi-rank case: every rank's host core and its cores that are not
 * idle, rank by rank; the queues are the selected rank's. */
int view_cores(session *s, view_core *out, int max);
int view_queues(session *s, view_queue *out, int max);

/* The timeline of the current run: what each machine step did, oldest
 * first (the last VIEW_TIMELINE_MAX steps). */
enum { VIEW_TIMELINE_MAX = 200000 };
typedef enum { VIEW_TL_STMT, VIEW_TL_CALL, VIEW_TL_RETURN, VIEW_TL_BLOCKED, VIEW_TL_DONE } view_tl_kind;
typedef struct view_tl_event {
    uint64_t step;     /* the machine's statement count after the step */
    uint8_t core;      /* exec_core_id */
    uint8_t kind;      /* view_tl_kind */
    char mark;         /* 'p' a queue push, 'o' a queue pop, 'n' a notify, 'w' a wait, 0 */
    int line;          /* the statement's line in the pass file */
    int16_t rank;      /* a multi-rank case: the rank that ran it, else -1 */
    int16_t peer;      /* 'w': the rank whose notify the wait acquired, -1 none */
} view_tl_event;
/* The entries (session-owned, valid until the next command) and how many;
 * 0 without a run. */
size_t view_timeline(session *s, const view_tl_event **out);
/* The current moment (machine steps) of the run: the timeline goes on past
 * it after going backward (the recorded history), 0 without a run. */
uint64_t view_timeline_now(session *s);

/* The depth of queue q (in view_queues' order) after each change the
 * debugger's run saw, oldest first, from when the run first met the queue
 * (its timeline steps); *limit: the depth at which pushes block, 0
 * unbounded. 0 entries without a run or before the queue was met. */
typedef struct view_queue_depth {
    uint64_t step;
    int depth;
} view_queue_depth;
size_t view_queue_history(session *s, int q, const view_queue_depth **out, int *limit);

typedef struct view_display {
    int number;
    const char *expr;    /* what the user asked to display */
    const char *summary; /* "bf16 [16, 64] min -1.2 max 3.4 mean 0.01 nan 0 inf 0" or why not */
    int changed;         /* the value changed at the last stop */
} view_display;

int view_displays(session *s, view_display *out, int max);

/* The memory map of the stopped core (`info memory`'s text: each space's
 * tiles with MemRef ids and byte ranges, free ranges, high-water mark) into
 * out; 0 when no run is stopped (out then says why). */
struct strbuf;
int view_memory_map(session *s, struct strbuf *out);

/* `why` on the element of output `output` the heat map's cell covers (rows
 * r0 .. r0+nr, columns c0 .. c0+nc of it: the one farthest from golden in
 * the pass's finished run, else the cell's first), its text into out
 * (errors too): 1 a chain, 0 none (out says why). */
int view_why_cell(session *s, int output, int64_t r0, int64_t c0, int64_t nr, int64_t nc, struct strbuf *out);

/* The background validation: 1 while it runs, with the passes received
 * so far and the total. */
int view_validation_progress(session *s, int *done, int *total);

/* The status line: case, pass, core, tolerances in use. */
const char *view_status_line(session *s);

/* What made the run stop when it is an exception (view_exception.c): a
 * memory fault a `catch memory` catchpoint stopped at, a race or fence
 * breach a `catch race` / `catch fence` one stopped at (COMM: the run goes
 * on from both), a deadlock, or another error the run raised (it cannot go
 * on: run starts it again). */
typedef enum { VIEW_EXC_NONE, VIEW_EXC_MEMORY, VIEW_EXC_DEADLOCK, VIEW_EXC_ERROR, VIEW_EXC_COMM } view_exception_kind;
typedef struct view_exception {
    view_exception_kind kind;
    /* MEMORY: the sanitizer's check ("clobber", "uninit", "bounds",
     * "slot"); COMM: "race" or "fence"; DEADLOCK: "deadlock"; ERROR: the status's message
     * ("runtime error", "shape mismatch", ...) */
    char check[48];
    /* the report block (check at file:line:col, core, tiles with their MemRef
     * ids and byte ranges, the statement) or the machine's error lines;
     * session-owned */
    const char *text;
} view_exception;
/* 0 (kind NONE) when the last stop is no exception. */
int view_stop_exception(session *s, view_exception *out);

/* Where a tensor lives in the memory model (view_memory.c): the core's
 * space and the tile's byte range. 0 when it is not placed (memcheck off,
 * a GM tensor, a host value). */
typedef struct view_mem_place {
    int core;              /* exec_core_id: 1 aic, 2 aiv0, 3 aiv1 */
    int space;             /* mem_space */
    const char *space_name;/* "Vec", "Mat", ... */
    uint64_t addr, size;   /* the tile's first byte and its MemRef's size */
    uint64_t extent;       /* the space's addressable bytes: [0, extent) */
} view_mem_place;
int view_tensor_place(session *s, const tensor *t, view_mem_place *out);
/* Copies [addr, addr + n) of core's space into buf as far as it is
 * addressable: the bytes copied (a prefix), 0 when addr is not. -1 when
 * the core has no such memory (no run, memcheck off). */
int64_t view_memory_read(session *s, int core, int space, uint64_t addr, void *buf, uint64_t n);
/* The space of a name as view_mem_place.space_name spells it, -1 none. */
int view_memory_space(const char *name);

/* For front ends that show every core at once (the DAP server): */
/* The breakpoint number of the last stop, 0 when no breakpoint made it. */
int view_stop_breakpoint(session *s);
/* The number of the breakpoint made last, 0 none: how a front end that
 * just ran `break ...` learns which one it got. */
int view_newest_breakpoint(session *s);
/* The selected core and frame level commands act on; 0 without a run. */
int view_selection(session *s, int *core, int *level);
/* A multi-rank run: its rank count and the selected rank; 0 and 0 otherwise. */
int view_nranks(session *s, int *selected);

typedef struct view_frame {
    const char *func;
    const char *file; /* the pass file */
    int line, col;    /* 0 when the frame has no statement */
} view_frame;
/* The frames of one core, innermost first: fills at most max, returns how
 * many there are (0 without a run or when the core is idle). */
int view_frames(session *s, int core, view_frame *out, int max);

typedef struct view_var {
    const char *name;  /* as the dump writes it */
    const tensor *t;   /* the value when it is a tensor (borrowed), else NULL */
    char text[48];     /* a scalar's value ("3", "0.5", "True", "None") */
    int is_param;
} view_var;
/* The bound named slots of frame `level` of `core` (params first): fills at
 * most max, returns how many there are. */
int view_frame_vars(session *s, int core, int level, view_var *out, int max);

/* The last `compare B` (the open case is A): passes aligned by name, each
 * side's file or NULL when the pass is in one build only. */
typedef struct view_compare_pair {
    const char *name;            /* "CanonicalizeIOOrder" */
    const char *a_stem, *b_stem; /* "30_after_CanonicalizeIOOrder", NULL: not in that build */
    const char *a_path, *b_path;
    int a_ok, b_ok;              /* validates against its own build's golden */
    int differs;                 /* A's and B's outputs differ (or one side fails) */
    int same_file;               /* identical after the header line */
    int no_outputs;              /* both sides stop before computing their outputs */
} view_compare_pair;

typedef struct view_compare {
    const char *b_root;
    const view_compare_pair *pairs;
    size_t npairs;
    int first_diff;              /* index into pairs, -1: no difference */
    int first_no_outputs;        /* the first pair where both sides stop, -1: none */
    int a_line, b_line;          /* the first differing statement in each file, 0: not found */
    const char *func, *tensor;
    const char *how;             /* "matched by region", "matched by provenance", "a guess (...)" */
    unsigned generation;         /* changes with every compare */
} view_compare;

/* 0 when no compare ran since the case was opened. */
int view_compare_get(session *s, view_compare *out);

#endif
