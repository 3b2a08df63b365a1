/* A grid of styled character cells the panes draw into. Panes never call
 * curses: they render into a canvas, which the screen layer copies to the
 * terminal and tests turn into text (tests/tui/render_test.c), so every
 * pane can be tested with synthetic view structs and no terminal. */
#ifndef PTODB_UI_TUI_CANVAS_H
#define PTODB_UI_TUI_CANVAS_H

#include <stddef.h>
#include <stdint.h>

/* Semantic styles; the screen layer maps them to colours or, on monochrome
 * terminals and with NO_COLOR, to bold/reverse/underline. */
typedef enum {
    ST_NORMAL,
    ST_TITLE,       /* a pane's title bar */
    ST_TITLE_FOCUS, /* the focused pane's title bar */
    ST_CURSOR,      /* the line the pane's cursor is on */
    ST_STOP,        /* the statement the program is stopped at */
    ST_BREAK,       /* an enabled breakpoint mark */
    ST_BREAK_OFF,   /* a disabled breakpoint mark */
    ST_LINENO,      /* line numbers */
    ST_DIM,         /* "nothing yet" messages, legends */
    ST_MATCH,       /* a search match */
    ST_GOOD,        /* passing verdict */
    ST_BAD,         /* failing verdict, errors in the console */
    ST_CHANGED,     /* changed IR / display */
    ST_DIFF_ADD,
    ST_DIFF_DEL,
    ST_DIFF_HUNK,
    ST_STATUS,      /* the status line */
    ST_BUSY,        /* the status line while a command runs */
    ST_HEAT0,       /* ST_HEAT0 .. ST_HEAT0+4: heat levels 0..4, within the tolerance (tensor/heatgrid.h) */
    ST_HEAT_OVER = ST_HEAT0 + 5, /* a heat cell outside the tolerance (levels '1'..'9', '?') */
    ST_COUNT
} canvas_style;

/* The right half of a double-width character (CJK, emoji): its left cell
 * holds the character. */
#define CANVAS_WIDE_RIGHT 0u

typedef struct canvas_cell {
    uint32_t ch; /* a Unicode code point, or CANVAS_WIDE_RIGHT */
    uint8_t style;
} canvas_cell;

typedef struct canvas {
    int rows, cols;
    canvas_cell *cells;
} canvas;

/* A rectangle of a canvas; drawing is clipped to it. */
typedef struct crect {
    int y, x, h, w;
} crect;

void canvas_init(canvas *c, int rows, int cols);
void canvas_resize(canvas *c, int rows, int cols);
void canvas_free(canvas *c);

void canvas_fill(canvas *c, crect r, uint32_t ch, canvas_style st);
void canvas_put(canvas *c, crect r, int y, int x, uint32_t ch, canvas_style st);
/* Writes UTF-8 text at (y, x) of r, clipped to r; returns the column after
 * the last character written (or that would have been). Control characters
 * show as '?', tabs expand to the next multiple of CANVAS_TAB counted
 * from x (the dumps' tab stops, wherever the text starts or scrolls);
 * characters the locale says are double-width take two cells (a space
 * where only one is left), zero-width ones are dropped. */
enum { CANVAS_TAB = 8 };
int canvas_puts(canvas *c, crect r, int y, int x, const char *text, canvas_style st);
int canvas_putn(canvas *c, crect r, int y, int x, const char *text, size_t len, canvas_style st);
int canvas_printf(canvas *c, crect r, int y, int x, canvas_style st, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Sets the style of a whole row of r (keeps the characters). */
void canvas_style_row(canvas *c, crect r, int y, canvas_style st);
/* A title bar: the row's text in the title style. */
void canvas_title(canvas *c, crect r, const char *text, int focused);
/* A message centred-ish in r (row 1 or the middle), dimmed. */
void canvas_message(canvas *c, crect r, const char *text);

/* The canvas as text: one line per row, trailing blanks removed, UTF-8.
 * styles != 0 writes one letter per cell naming its style instead
 * ('.' for ST_NORMAL), for tests of colours and marks. Returns malloc'd. */
char *canvas_to_text(const canvas *c, crect r, int styles);

/* How many bytes of s (len bytes of UTF-8) fit in cols columns, counting
 * double-width characters as two (at least one character when cols > 0). */
/* The columns text takes (tabs to CANVAS_TAB stops from its start). */
int canvas_width(const char *s, size_t len);
/* A copy of s with tabs turned into spaces to the same stops (free it). */
char *canvas_expand_tabs(const char *s, size_t len, size_t *out_len);
size_t canvas_fit(const char *s, size_t len, int cols);
/* Whether the cell at (y, x) of the canvas starts a double-width character
 * whose right half follows it. */
int canvas_is_wide(const canvas *c, int y, int x);
/* Appends the UTF-8 form of cp to buf (at most 4 bytes); returns the length. */
int canvas_utf8(uint32_t cp, char *buf);
/* Decodes one UTF-8 character from s (len bytes available); sets *cp and
 * returns the bytes used (1 for a malformed byte, decoded as U+FFFD). */
int canvas_utf8_decode(const char *s, size_t len, uint32_t *cp);

#endif
