/* The full-screen interface: shared state of the panes, the layout, the key
 * dispatcher and the screen layer. Only screen.c and callbacks.c include
 * curses or readline; the panes draw into a canvas (canvas.h) from the view
 * API (debug/view.h) and are tested without a terminal. */
#ifndef PTODB_UI_TUI_TUI_H
#define PTODB_UI_TUI_TUI_H

#include <stddef.h>
#include <stdio.h>

#include "canvas.h"
#include "debug/state/session.h"
#include "debug/present/view.h"

/* Keys: Unicode code points (Ctrl-X is 1..26, Tab 9, Enter 13 or 10, Esc 27,
 * Backspace 127) or one of these, above the Unicode range. */
enum {
    TK_BASE = 0x110000,
    TK_UP, TK_DOWN, TK_LEFT, TK_RIGHT, TK_PGUP, TK_PGDN, TK_HOME, TK_END,
    TK_DELETE, TK_BTAB, TK_MOUSE, TK_RESIZE,
    TK_F0 = TK_BASE + 0x100 /* TK_F0 + n is Fn */
};
#define TK_F(n) (TK_F0 + (n))
#define TK_CTRL(c) ((c) & 0x1f)

typedef enum {
    PANE_SOURCE,
    PANE_PASSES,
    PANE_HEATMAP,
    PANE_CORES,
    PANE_WATCH,
    PANE_IRDIFF,
    PANE_TIMELINE,
    PANE_MEMORY,
    PANE_COMPARE,
    PANE_COMPARE_SRC,
    PANE_CHAIN,
    PANE_CONSOLE,
    PANE_COUNT
} tui_pane_id;

/* The lines of a text, as offsets into it (the text is not owned). */
typedef struct tui_lines {
    const char *text;
    size_t *start; /* nlines + 1 entries: line i is [start[i], start[i+1]) minus '\n' */
    int nlines;
} tui_lines;

void tui_lines_set(tui_lines *l, const char *text);
void tui_lines_free(tui_lines *l);
/* Line i (0-based) and its length without the newline. */
const char *tui_lines_get(const tui_lines *l, int i, size_t *len);

/* A scrolling list position: first row shown and the cursor row. */
typedef struct tui_scroll {
    int top, cursor;
} tui_scroll;

/* Moves the cursor by delta (clamped to 0..n-1) and scrolls so it stays in
 * a window of `height` rows. */
void tui_scroll_move(tui_scroll *sc, int delta, int n, int height);
void tui_scroll_show(tui_scroll *sc, int n, int height);

typedef struct tui_source {
    int pass;         /* the pass whose file is indexed, -1 none */
    tui_lines file;
    tui_scroll sc;
    char search[256];
    int search_active; /* n/N repeat the search (until Esc) */
    int stop_line;     /* the stop line last followed, 0 none */
    unsigned bisect_seen; /* view_bisect_statement's serial last followed */
    int error_shown;      /* the pass shown does not check: its first error's line was shown */
    int left;          /* columns scrolled to the right */
} tui_source;

typedef struct tui_console {
    char **text; /* scrollback, oldest first */
    int nlines, cap;
    char *partial; /* output not yet ended by a newline */
    size_t partial_len;
    int scroll;    /* lines scrolled back from the bottom */
    /* The command line as readline last drew it. */
    char *prompt;
    char *line;
    int point; /* byte offset of the cursor in line */
    int active; /* the command line has the keyboard */
} tui_console;

/* Each pane's own state (the pane's file is the one that reads it). */
typedef struct tui_passes_state {
    tui_scroll sc;
    int seen; /* the current pass the cursor last followed */
} tui_passes_state;

typedef struct tui_heat_state {
    int output; /* the output shown */
    /* the cell cursor on the left grid (vs golden) and that grid's shape
     * as last drawn: cells and elements per cell */
    int row, col;
    int rows, cols, block_rows, block_cols;
} tui_heat_state;

/* The chain pane: `why` on a heat-map cell (Enter), in the heat map's place
 * until closed. */
typedef struct tui_chain_state {
    int shown;
    int top;
    char *text;
} tui_chain_state;

typedef struct tui_cores_state {
    int top;
} tui_cores_state;

typedef struct tui_watch_state {
    int top;
} tui_watch_state;

typedef struct tui_memory_state {
    int top;
} tui_memory_state;

typedef struct tui_irdiff_state {
    int top;
    int pass;   /* the pass whose `pass diff` text is held, -1 none */
    char *text; /* `pass diff` output for pass */
    tui_lines diff_lines; /* (not "lines": curses has a macro of that name) */
} tui_irdiff_state;

/* The compare panes (the last `compare B`): the aligned passes' cursor, and
 * the pair's two files as the source pane shows them. */
typedef struct tui_compare_state {
    tui_scroll sc;
    unsigned seen;        /* the compare generation the cursor last followed */
    unsigned laid_out;    /* the generation the layout last switched to "compare" for */
    int shown;            /* the pair whose files are loaded, -1 none */
    char *text[2];        /* A's file, B's file */
    tui_lines file[2];
    int top[2];           /* first line shown, each side */
    int line[2];          /* the differing statement's line, 0 none */
} tui_compare_state;

typedef struct tui_timeline_state {
    int col, core; /* the cursor: a column (-1: the last) and a core row */
} tui_timeline_state;

enum { TUI_MAX_CORES = 64, TUI_MAX_QUEUES = 32, TUI_MAX_DISPLAYS = 64 };

typedef struct tui tui;

/* What the command line does (callbacks.c fills one with readline's). */
typedef struct tui_cmdline_ops {
    void (*start)(tui *t, int search, int key);
    void (*cancel)(tui *t);
    void (*key)(tui *t, int key);
} tui_cmdline_ops;

struct tui {
    session *s;
    const tui_cmdline_ops *cmdline; /* NULL: no command line (the render tests) */
    canvas cv;
    int rows, cols;
    int layout;
    int zoom;
    tui_pane_id focus, return_focus;
    crect rect[PANE_COUNT];
    int visible[PANE_COUNT]; /* on screen now */
    int member[PANE_COUNT];  /* in the layout (zoom shows one of them) */
    unsigned dirty; /* 1u << tui_pane_id, plus TUI_DIRTY_STATUS */
    int help;       /* the focused pane's key help is shown */
    int search_prompt; /* the command line reads a search pattern */
    char *history_last; /* the last line added to the history */
    int complete_engine; /* completion: the engine's candidates, counted */
    int quit;

    /* the panes' states */
    tui_source src;
    tui_passes_state passes;
    tui_heat_state heat;
    tui_chain_state chain;
    tui_cores_state cores;
    tui_watch_state watch;
    tui_memory_state mem;
    tui_irdiff_state irdiff;
    tui_timeline_state tl;
    tui_compare_state cmp;
    tui_console con;

    const char *busy; /* the command running, shown in the status line */
    int interrupted;  /* Ctrl-C arrived while busy */
    char progress[160]; /* the engine's progress text for the running command */
    int utf8;         /* the terminal takes UTF-8 */
    int cursor_y, cursor_x; /* where the terminal cursor goes; y < 0 hides it */
    /* Shows the screen now (during a long command); NULL in tests. */
    void (*flush)(struct tui *t);
    int headless;     /* screen-dump mode: no real terminal */
    int resize_pending; /* SIGWINCH arrived while a command ran */
    /* Curses attributes and colour pairs per canvas style (screen.c). */
    void *screen; /* curses' SCREEN */
    FILE *null_in, *null_out; /* the null terminal of headless mode */
    int mouse;
    long long last_flush_ns; /* when flush last showed the screen */
    unsigned long style_attr[ST_COUNT];
    short style_pair[ST_COUNT];
};

enum { TUI_DIRTY_STATUS = 1u << PANE_COUNT, TUI_DIRTY_ALL = 0xffffu };

/* What keys do (ui/tui/keys.def binds keys to them). Up to ACT_PASS_NEXT the
 * TUI itself acts; the others are the focused pane's. */
typedef enum {
    ACT_NONE,
    ACT_RUN, ACT_FINISH, ACT_NEXT, ACT_STEP, ACT_CONTINUE, ACT_REVERSE_STEP, ACT_REVERSE_NEXT, ACT_REVERSE_FINISH,
    ACT_REVERSE_CONTINUE, ACT_REDRAW, ACT_HELP, ACT_FOCUS_NEXT, ACT_FOCUS_PREV,
    ACT_CMDLINE, ACT_QUIT, ACT_ZOOM, ACT_LAYOUT, ACT_PASS_PREV, ACT_PASS_NEXT,
    ACT_DOWN, ACT_UP, ACT_PGDN, ACT_PGUP, ACT_TOP, ACT_BOTTOM, ACT_LEFT, ACT_RIGHT,
    ACT_SEARCH, ACT_NEXT_OR_MATCH, ACT_PREV_MATCH, ACT_SEARCH_END, ACT_BREAK, ACT_UNTIL, ACT_SELECT, ACT_OUTPUT
} tui_action;

/* Where a key binding applies (keys.def). */
#define K_SOURCE (1u << PANE_SOURCE)
#define K_PASSES (1u << PANE_PASSES)
#define K_HEATMAP (1u << PANE_HEATMAP)
#define K_CORES (1u << PANE_CORES)
#define K_WATCH (1u << PANE_WATCH)
#define K_IRDIFF (1u << PANE_IRDIFF)
#define K_TIMELINE (1u << PANE_TIMELINE)
#define K_CONSOLE (1u << PANE_CONSOLE)
#define K_MEMORY (1u << PANE_MEMORY)
#define K_COMPARE (1u << PANE_COMPARE)
#define K_COMPARE_SRC (1u << PANE_COMPARE_SRC)
#define K_CHAIN (1u << PANE_CHAIN)
#define K_MOVE (K_SOURCE | K_PASSES | K_CORES | K_WATCH | K_IRDIFF | K_COMPARE | K_COMPARE_SRC | K_CHAIN)
#define K_PANES (K_MOVE | K_HEATMAP | K_TIMELINE)
#define K_GLOBAL (1u << 16)

/* ---- layouts (layout.c) ---- */
enum { LAYOUT_SRC, LAYOUT_QUEUES, LAYOUT_DIFF, LAYOUT_PASSES, LAYOUT_TIMELINE, LAYOUT_MEMORY, LAYOUT_COMPARE, LAYOUT_COUNT };
const char *tui_layout_name(int layout);
const char *tui_layout_help(int layout);
int tui_layout_find(const char *name);
/* Places the panes of t->layout (or the zoomed pane) for t->rows x t->cols. */
void tui_layout_apply(tui *t);
const char *tui_pane_name(tui_pane_id id);

/* ---- drawing (draw.c): renders dirty panes and the status line ---- */
void tui_draw(tui *t);

/* ---- panes (tig/htop style): an ops table each, with its own state struct
 * in struct tui; the TUI reaches a pane only through its table ---- */
typedef struct tui_pane_ops {
    void (*draw)(tui *t, crect r, int focused);
    /* a pane action (past ACT_PASS_NEXT) while it has the focus: 1 done, 0 not here */
    int (*key)(tui *t, int action);
    /* a click at row y of its content (0: the first row under the title),
     * the focus already moved there; NULL: focusing is all */
    void (*click)(tui *t, int y);
    const char *help; /* what it shows, under its keys in the `?` help */
} tui_pane_ops;

extern const tui_pane_ops pane_source_ops, pane_passes_ops, pane_heatmap_ops, pane_cores_ops, pane_watch_ops,
    pane_memory_ops, pane_chain_ops,
    pane_irdiff_ops, pane_timeline_ops, pane_console_ops, pane_compare_ops, pane_compare_src_ops;
/* The compare panes follow a new `compare B` (its first differing pass). */
void pane_compare_sync(tui *t);
/* The pane of an id, NULL past the last. */
const tui_pane_ops *tui_pane(tui_pane_id id);
void pane_source_search(tui *t, const char *pattern);
void pane_source_sync(tui *t); /* follow the current pass and stop location */
void pane_console_free(tui_console *c);
/* The mouse wheel over pane id: focuses it and scrolls (up != 0: back). */
void tui_wheel(tui *t, tui_pane_id id, int up);
/* Clicks at row y of the pane's content (0 = the first row under the title). */
void pane_click(tui *t, tui_pane_id id, int y);

/* ---- pure renderers, tested with synthetic data (tests/tui/render_test.c) ---- */
/* One heat grid with its title, the valid region outlined, each cell drawn
 * on the one heat scale (tensor/heatgrid.h: its worst element as a
 * fraction of its tolerance; outside it, digits in ST_HEAT_OVER), and a
 * legend: the scale, the tolerance a bar on it, the worst cell, the count
 * outside; live against another pass, a line saying how the point was mapped.
 * h == NULL or !have: why. */
void render_heatmap(canvas *c, crect r, const char *label, const view_heatmap *h, int have,
                    const char *why);
/* Cores, then queues; n == 0: not running. */
void render_cores(canvas *c, crect r, const view_core *cores, int ncores, const view_queue *queues,
                  int nqueues, int top);
void render_memory(canvas *c, crect r, const char *text, int top);
/* The aligned passes of a compare (v NULL: none yet), the cursor's row highlighted when focused. */
void render_compare(canvas *c, crect r, const view_compare *v, int cursor, int top, int focused);
void render_displays(canvas *c, crect r, const view_display *d, int n, int top);
/* The passes list; current: the selected pass's row; cursor: the pane's. */
void render_passes(canvas *c, crect r, const view_pass *p, int n, int current, int cursor, int top,
                   int focused);
/* The cross-core timeline: a row per core, statement time across (the
 * whole run, several steps a column when long), the current moment `now`
 * (machine steps) marked; after going backward the steps after it (the
 * recorded history) are dim. */
/* cursor_col < 0: the last column; cursor_core < 0: no cursor. Returns the
 * columns drawn and sets *per to the steps a column. */
int render_timeline(canvas *c, crect r, const view_tl_event *ev, size_t n, uint64_t now, int current_core, int cursor_col,
                    int cursor_core, uint64_t *per);
/* Under the timeline, in its columns (first step, per steps a column,
 * ncols): a row per queue with the items in it, the largest count in each
 * column; blank before the run met the queue. */
typedef struct tui_queue_row {
    const char *label; /* "c2v0" */
    const view_queue_depth *d;
    size_t n;
    int limit; /* the depth at which pushes block, 0 none */
} tui_queue_row;
void render_queue_rows(canvas *c, crect r, uint64_t first, uint64_t per, int ncols, const tui_queue_row *q, int nq);
/* The status line text for the given busy command (NULL when idle). */
void render_status(canvas *c, crect r, const char *status, const char *busy, const char *progress,
                   int interrupted, const char *layout, const char *focus);
/* The style of a heat level (tensor/heatgrid.h's scale): ST_HEAT0+level
 * within the tolerance, ST_HEAT_OVER outside it and for NaN/Inf. */
canvas_style render_heat_style(int level);

/* ---- commands (tui.c) ---- */
/* Runs a line: TUI commands (layout, zoom, focus) here, the rest through
 * session_execute with the output in the console. */
void tui_execute(tui *t, const char *line);
/* Takes the session's redraw bits and marks the panes. */
void tui_take_redraw(tui *t);
void tui_console_write(tui *t, session_stream stream, const char *text, size_t len);
/* Completion of the TUI's own commands: candidate number idx for the word
 * at byte start of line (prefix word), NULL past the last. *only is set
 * when the line is one of them, so the engine's candidates do not apply. */
const char *tui_complete_word(const char *line, int start, const char *word, int idx, int *only);
/* Handles one key. */
void tui_key(tui *t, int key);
void tui_focus(tui *t, tui_pane_id id);
/* The layout applied again (a new layout, zoom): every pane redrawn. */
void tui_relayout(tui *t);
/* The keys help of pane id, then the global keys: lines, a key binding's
 * starting with TUI_HELP_KEY ("\001KEY  what it does"), notes plain, an
 * empty line between sections. */
enum { TUI_HELP_KEY = 1 };
void tui_pane_help(tui_pane_id id, char *buf, size_t size);

/* ---- the command line: readline's callback interface (callbacks.c), reached
 * from the panes through t->cmdline, so libtui does not link against it ---- */
/* Starts reading a command (or a search pattern) with an initial key, 0 none. */
void tui_cmdline_start(tui *t, int search, int key);
void tui_cmdline_cancel(tui *t);
/* Feeds a key to the command line. */
void tui_cmdline_key(tui *t, int key);
/* Sets t->cmdline to readline's (callbacks.c). */
void tui_cmdline_init(tui *t);
void tui_cmdline_done(tui *t);
/* Ctrl-C: clears the command line, or marks a running command interrupted. */
void tui_interrupt(tui *t);
/* Saves the history file. */
void tui_cmdline_save(tui *t);

/* ---- signals (callbacks.c): a self-pipe for SIGWINCH and SIGINT; the
 * terminal restored before fatal signals take the process down ---- */
/* Returns the read end of the self-pipe, -1 on failure. */
int tui_signals_install(tui *t, int restore_tty);
/* The bytes fatal-signal handlers write to the terminal (reset sequences). */
void tui_signals_set_reset(const char *seq);
void tui_signals_remove(void);
/* Reads the self-pipe: 'W' resize, 'I' interrupt, 0 nothing. */
int tui_signals_next(void);

/* ---- the screen (screen.c, curses) ---- */
/* Opens curses on the terminal, or on a null terminal of rows x cols when
 * headless. Returns -1 (with a message on stderr) when it cannot. */
int screen_open(tui *t, int rows, int cols);
void screen_close(tui *t);
/* Can curses drive this terminal? */
int screen_term_usable(void);
/* Copies the canvas to curses and updates the terminal. */
void screen_show(tui *t);
/* The next key, or -1 when none is waiting (never blocks). */
int screen_getkey(tui *t);
/* Handles a mouse event (after TK_MOUSE). */
void screen_mouse(tui *t);
/* Follows the terminal's new size (rows, cols <= 0: ask the terminal). */
void screen_resize(tui *t, int rows, int cols);
/* Writes the virtual screen as text. */
void screen_dump(tui *t, FILE *out);

/* The TUI's own commands (layout, zoom, focus): also reachable from rc
 * files, -x, -ex and user commands through the session's command hook. */
int tui_command(tui *t, const char *line);
int tui_command_hook(void *ctx, const char *line);
extern const char *const tui_command_names[];

#endif
