/* The screen layer: curses on the terminal (or on a null terminal for the
 * screen-dump tests), styles to colours, the canvas copied to curses, keys
 * and mouse events translated, the virtual screen dumped as text. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#include "base/mem.h"
#include "tui.h"

/* Colour support: 0 none (monochrome or NO_COLOR), 8 or 256. */
static int colour_depth(void)
{
    const char *no = getenv("NO_COLOR");
    if ((no && *no) || !has_colors())
        return 0;
    return COLORS >= 256 ? 256 : 8;
}

static void set_style(tui *t, canvas_style st, unsigned long attr, short pair)
{
    t->style_attr[st] = attr;
    t->style_pair[st] = pair;
}

/* Monochrome: bold, reverse and underline carry the meaning; the heat ramp
 * is its characters. Colour: pairs on the default background. */
static void init_styles(tui *t)
{
    int depth = colour_depth();
    for (int i = 0; i < ST_COUNT; i++)
        set_style(t, (canvas_style)i, A_NORMAL, 0);
    set_style(t, ST_TITLE, A_REVERSE, 0);
    set_style(t, ST_TITLE_FOCUS, A_REVERSE | A_BOLD, 0);
    set_style(t, ST_CURSOR, A_REVERSE, 0);
    set_style(t, ST_STOP, A_BOLD, 0);
    set_style(t, ST_BREAK, A_BOLD, 0);
    set_style(t, ST_MATCH, A_UNDERLINE | A_BOLD, 0);
    set_style(t, ST_BAD, A_BOLD, 0);
    set_style(t, ST_CHANGED, A_BOLD, 0);
    set_style(t, ST_DIFF_ADD, A_BOLD, 0);
    set_style(t, ST_DIFF_HUNK, A_UNDERLINE, 0);
    set_style(t, ST_STATUS, A_REVERSE, 0);
    set_style(t, ST_BUSY, A_REVERSE | A_BOLD, 0);
    set_style(t, ST_HEAT_OVER, A_REVERSE | A_BOLD, 0);
    if (depth == 0)
        return;
    start_color();
    use_default_colors();
    /* Pairs 1..: text styles, then the heat ramp. */
    struct {
        canvas_style st;
        short fg, bg;
        unsigned long attr;
    } text[] = {
        {ST_TITLE, COLOR_WHITE, COLOR_BLUE, A_NORMAL},  {ST_TITLE_FOCUS, COLOR_BLACK, COLOR_CYAN, A_BOLD},
        {ST_CURSOR, COLOR_BLACK, COLOR_WHITE, A_NORMAL}, {ST_STOP, COLOR_BLACK, COLOR_YELLOW, A_BOLD},
        {ST_BREAK, COLOR_RED, -1, A_BOLD},              {ST_BREAK_OFF, COLOR_RED, -1, A_NORMAL},
        {ST_LINENO, COLOR_YELLOW, -1, A_NORMAL},        {ST_DIM, COLOR_CYAN, -1, A_NORMAL},
        {ST_MATCH, COLOR_BLACK, COLOR_GREEN, A_NORMAL}, {ST_GOOD, COLOR_GREEN, -1, A_BOLD},
        {ST_BAD, COLOR_RED, -1, A_BOLD},                {ST_CHANGED, COLOR_MAGENTA, -1, A_BOLD},
        {ST_DIFF_ADD, COLOR_GREEN, -1, A_NORMAL},       {ST_DIFF_DEL, COLOR_RED, -1, A_NORMAL},
        {ST_DIFF_HUNK, COLOR_CYAN, -1, A_BOLD},         {ST_STATUS, COLOR_BLACK, COLOR_WHITE, A_NORMAL},
        {ST_BUSY, COLOR_BLACK, COLOR_YELLOW, A_BOLD},   {ST_HEAT_OVER, COLOR_WHITE, COLOR_RED, A_BOLD},
    };
    short pair = 1;
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++, pair++) {
        init_pair(pair, text[i].fg, text[i].bg);
        set_style(t, text[i].st, text[i].attr, pair);
    }
    /* The heat levels within the tolerance (tensor/heatgrid.h): quiet
     * foregrounds, blue to cyan, the last (within but at 50% or more of
     * the tolerance) yellow; outside it, ST_HEAT_OVER's white on red. */
    static const short within256[5] = {-1, 24, 31, 37, 178};
    static const short within8[5] = {-1, COLOR_BLUE, COLOR_BLUE, COLOR_CYAN, COLOR_YELLOW};
    for (int level = 0; level < 5; level++, pair++) {
        init_pair(pair, depth == 256 ? within256[level] : within8[level], -1);
        set_style(t, (canvas_style)(ST_HEAT0 + level), level == 4 ? A_BOLD : A_NORMAL, pair);
    }
}

int screen_term_usable(void)
{
    int err = 0;
    const char *term = getenv("TERM");
    if (!term || !*term || setupterm(NULL, STDOUT_FILENO, &err) != OK)
        return 0;
    /* A terminal that cannot move the cursor cannot show panes. */
    int ok = tigetstr("cup") != NULL && tigetstr("cup") != (char *)-1;
    del_curterm(cur_term);
    return ok;
}

static void fatal_hook(void)
{
    /* Not in a signal handler: endwin is fine here. */
    if (!isendwin())
        endwin();
}

/* What a fatal signal writes to give the terminal back: leave the
 * alternate screen, show the cursor, reset attributes, stop mouse reports. */
static void build_reset_sequence(int mouse)
{
    char seq[256] = "";
    const char *caps[] = {"sgr0", "cnorm", "rmcup", "rmkx"};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        const char *s = tigetstr(caps[i]);
        if (s && s != (char *)-1 && strlen(seq) + strlen(s) < sizeof seq - 16)
            strcat(seq, s);
    }
    if (mouse)
        strcat(seq, "\033[?1000l");
    tui_signals_set_reset(seq);
}


int screen_open(tui *t, int rows, int cols)
{
    SCREEN *scr;
    if (t->headless) {
        /* tig's way: curses renders into its virtual screen, the bytes for
         * the terminal go to /dev/null. */
        t->null_out = fopen("/dev/null", "w");
        t->null_in = fopen("/dev/null", "r");
        if (!t->null_out || !t->null_in) {
            fputs("ptodb: cannot open /dev/null\n", stderr);
            return -1;
        }
        const char *term = getenv("TERM");
        scr = newterm(term && *term ? term : "vt100", t->null_out, t->null_in);
        if (!scr)
            scr = newterm("vt100", t->null_out, t->null_in);
    } else {
        scr = newterm(NULL, stdout, stdin);
    }
    if (!scr) {
        fprintf(stderr, "ptodb: cannot start the full-screen interface on TERM=%s; try --nw\n",
                getenv("TERM") ? getenv("TERM") : "");
        return -1;
    }
    t->screen = scr;
    ptodb_set_fatal_hook(fatal_hook);
#if defined(__SANITIZE_ADDRESS__)
    /* A sanitizer report ends the process without a signal: give the
     * terminal back first so the report can be read. */
    __sanitizer_set_death_callback(fatal_hook);
#endif
    cbreak(); /* not raw: Ctrl-C stays a signal, caught by the self-pipe */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    init_styles(t);
    if (!t->headless) {
        t->mouse = mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL) != 0;
        mouseinterval(0);
        build_reset_sequence(t->mouse);
    }
    screen_resize(t, rows, cols);
    return 0;
}

void screen_close(tui *t)
{
    if (!t->screen)
        return;
    endwin();
    delscreen(t->screen);
    t->screen = NULL;
    ptodb_set_fatal_hook(NULL);
    if (t->null_out)
        fclose(t->null_out);
    if (t->null_in)
        fclose(t->null_in);
    t->null_out = t->null_in = NULL;
}

void screen_resize(tui *t, int rows, int cols)
{
    if (rows <= 0 || cols <= 0) {
        struct winsize ws;
        if (!t->headless && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col) {
            rows = ws.ws_row;
            cols = ws.ws_col;
        } else {
            rows = LINES;
            cols = COLS;
        }
    }
    if (rows != LINES || cols != COLS)
        resizeterm(rows, cols);
    t->rows = LINES;
    t->cols = COLS;
    canvas_resize(&t->cv, t->rows, t->cols);
    tui_layout_apply(t);
    t->dirty = TUI_DIRTY_ALL;
    clearok(curscr, TRUE);
}

/* Box-drawing and other non-ASCII characters on a terminal that is not in
 * a UTF-8 locale. */
static wchar_t ascii_fallback(uint32_t cp)
{
    switch (cp) {
    case 0x2502: return '|';
    case 0x2500: return '-';
    case 0x2518: return '+';
    case 0x2514: return '+';
    case 0x2014: return '-';
    default: return cp < 0x80 ? (wchar_t)cp : '?';
    }
}

void screen_show(tui *t)
{
    for (int y = 0; y < t->cv.rows && y < LINES; y++) {
        for (int x = 0; x < t->cv.cols && x < COLS; x++) {
            const canvas_cell *c = &t->cv.cells[(size_t)y * (size_t)t->cv.cols + (size_t)x];
            uint32_t ch = c->ch;
            if (ch == CANVAS_WIDE_RIGHT) {
                if (t->utf8 && canvas_is_wide(&t->cv, y, x - 1))
                    continue; /* curses drew it with its left half */
                ch = ' ';
            } else if (!t->utf8 || (ch >= 0x80 && wcwidth((wchar_t)ch) == 2 && !canvas_is_wide(&t->cv, y, x))) {
                ch = (uint32_t)ascii_fallback(ch); /* a wide character cut in half: '?' */
            }
            wchar_t wc[2] = {(wchar_t)ch, 0};
            cchar_t cc;
            setcchar(&cc, wc, (attr_t)t->style_attr[c->style], t->style_pair[c->style], NULL);
            mvadd_wch(y, x, &cc); /* the last cell returns ERR, drawn all the same */
        }
    }
    if (t->cursor_y >= 0 && t->con.active) {
        curs_set(1);
        move(t->cursor_y, t->cursor_x < COLS ? t->cursor_x : COLS - 1);
    } else {
        curs_set(0);
    }
    wnoutrefresh(stdscr);
    doupdate();
}

int screen_getkey(tui *t)
{
    (void)t;
    wint_t wc;
    int r = wget_wch(stdscr, &wc);
    if (r == ERR)
        return -1;
    if (r == OK) {
        if (wc == '\r' || wc == '\n')
            return '\r';
        if (wc == 8)
            return 0x7f;
        return (int)wc;
    }
    switch (wc) {
    case KEY_UP: return TK_UP;
    case KEY_DOWN: return TK_DOWN;
    case KEY_LEFT: return TK_LEFT;
    case KEY_RIGHT: return TK_RIGHT;
    case KEY_PPAGE: return TK_PGUP;
    case KEY_NPAGE: return TK_PGDN;
    case KEY_HOME: return TK_HOME;
    case KEY_END: return TK_END;
    case KEY_DC: return TK_DELETE;
    case KEY_BTAB: return TK_BTAB;
    case KEY_BACKSPACE: return 0x7f;
    case KEY_ENTER: return '\r';
    case KEY_MOUSE: return TK_MOUSE;
    case KEY_RESIZE: return TK_RESIZE;
    default:
        if (wc >= (wint_t)KEY_F(1) && wc <= (wint_t)KEY_F(12))
            return TK_F((int)(wc - KEY_F0));
        return -2; /* a key we do not use */
    }
}

void screen_mouse(tui *t)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    for (int i = 0; i < PANE_COUNT; i++) {
        crect r = t->rect[i];
        if (!t->visible[i] || ev.y < r.y || ev.y >= r.y + r.h || ev.x < r.x || ev.x >= r.x + r.w)
            continue;
        if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
            tui_wheel(t, (tui_pane_id)i, (ev.bstate & BUTTON4_PRESSED) != 0);
        } else {
            pane_click(t, (tui_pane_id)i, ev.y - r.y - 1);
        }
        return;
    }
}

void screen_dump(tui *t, FILE *out)
{
    (void)t;
    for (int y = 0; y < LINES; y++) {
        char line[4096];
        size_t len = 0, keep = 0;
        for (int x = 0; x < COLS && len + 8 < sizeof line; x++) {
            cchar_t cc;
            wchar_t wc[CCHARW_MAX + 1];
            attr_t attr;
            short pair;
            if (mvin_wch(y, x, &cc) != OK || getcchar(&cc, wc, &attr, &pair, NULL) == ERR)
                wc[0] = ' ';
            len += (size_t)canvas_utf8((uint32_t)(wc[0] ? wc[0] : ' '), line + len);
            if (wc[0] != ' ' && wc[0])
                keep = len;
            if (wc[0] >= 0x80 && wcwidth(wc[0]) == 2)
                x++; /* its right half */
        }
        fwrite(line, 1, keep, out);
        fputc('\n', out);
    }
}
