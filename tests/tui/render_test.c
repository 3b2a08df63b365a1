/* The TUI's renderers on synthetic view structs, printed as text and as a
 * style map; tests/tui/render.sh compares the output with
 * tests/tui/expected/render.txt. The engine returns nothing to draw for
 * runs yet, so this is where heatmaps, cores, queues and displays with
 * data are tested. It links libtui.a with the engine and nothing else: the
 * command line is reached through t->cmdline, so a pane that called the
 * readline side directly would fail to link here. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/heatgrid.h"
#include "ui/tui/tui.h"

static void show(const char *title, canvas *c, int styles)
{
    crect all = {0, 0, c->rows, c->cols};
    char *text = canvas_to_text(c, all, 0);
    printf("=== %s (%dx%d)\n%s", title, c->cols, c->rows, text);
    free(text);
    if (styles) {
        char *st = canvas_to_text(c, all, 1);
        printf("--- styles\n%s", st);
        free(st);
    }
}

static void heatmaps(void)
{
    /* A 4 x 8 grid whose valid region is 3 x 6: cells are fractions of the
     * tolerance (tensor/heatgrid.h), rising from 0 to 0.9 across the grid
     * (every level within it), one cell 12 times over (level '2'). */
    float cells[4 * 8];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            cells[i * 8 + j] = (float)(i * 8 + j) / 31.0f * 0.9f;
    cells[1 * 8 + 2] = 12.0f;
    uint32_t outside[4 * 8] = {0};
    outside[1 * 8 + 2] = 3;
    view_heatmap h = {
        .tensor = "out", .rows = 4, .cols = 8, .cells = cells, .max = 12, .max_abs = 0.6, .tolerance = 0.05,
        .outside = outside, .outside_cells = 1, .outside_elements = 3, .elements = 64 * 128,
        .valid_rows = 3, .valid_cols = 6, .shape = {64, 128}, .block_rows = 16, .block_cols = 16,
    };
    canvas c;
    canvas_init(&c, 7, 44);
    render_heatmap(&c, (crect){0, 0, 7, 44}, "vs golden", &h, 1, "");
    show("heatmap, valid region 3x6 of 4x8, one cell over", &c, 1);

    /* The whole grid valid, all zero: an empty ramp. */
    float zero[2 * 3] = {0};
    uint32_t zero_outside[2 * 6] = {0};
    view_heatmap z = {
        .tensor = "y", .rows = 2, .cols = 3, .cells = zero, .max = 0, .tolerance = 1e-3,
        .valid_rows = 2, .valid_cols = 3, .shape = {2, 3}, .block_rows = 1, .block_cols = 1,
    };
    canvas_resize(&c, 5, 40);
    render_heatmap(&c, (crect){0, 0, 5, 40}, "vs previous pass", &z, 1, "");
    show("heatmap, identical", &c, 0);

    /* Live against the previous pass: the legend says how the point was
     * mapped. */
    h.live = 1;
    h.compare_pass = 4;
    h.match = VIEW_MATCH_GUESS;
    canvas_resize(&c, 8, 44);
    render_heatmap(&c, (crect){0, 0, 8, 44}, "vs pass 18", &h, 1, "");
    show("heatmap, live, a guessed point", &c, 1);
    h.match = VIEW_MATCH_EXACT;
    render_heatmap(&c, (crect){0, 0, 8, 44}, "vs pass 18", &h, 1, "");
    show("heatmap, live, the exact point", &c, 0);
    /* Live against golden: no point line. */
    h.compare_pass = -1;
    render_heatmap(&c, (crect){0, 0, 8, 44}, "vs golden", &h, 1, "");
    show("heatmap, live, against golden", &c, 0);

    canvas_resize(&c, 3, 40);
    render_heatmap(&c, (crect){0, 0, 3, 40}, "vs golden", NULL, 0, "not run yet \xe2\x80\x94 type run");
    show("heatmap, nothing yet", &c, 0);

    /* A passing output: every cell a small share of its tolerance. */
    float light[2 * 6] = {0.004f, 0.012f, 0.0156f, 0.003f, 0, 0.02f, 0.009f, 0.0156f, 0.001f, 0.011f, 0.014f, 0.002f};
    view_heatmap p = {
        .tensor = "out", .rows = 2, .cols = 6, .cells = light, .max = 0.0156, .max_abs = 9.765625e-4,
        .tolerance = 0.0626, .outside = zero_outside, .elements = 12, .valid_rows = 2, .valid_cols = 6,
        .shape = {2, 6}, .block_rows = 1, .block_cols = 1,
    };
    canvas_resize(&c, 5, 44);
    render_heatmap(&c, (crect){0, 0, 5, 44}, "vs golden", &p, 1, "");
    show("heatmap, a passing output: light", &c, 1);

    /* The one scale, as every heat map draws it. */
    printf("=== levels of 0, 1e-9, 0.01, 0.25, 0.5, 1, 1.0000002, 2, 4.9, 10, 11, 99, 1e4, 1e12, inf, nan:");
    double v[] = {0, 1e-9, 0.01, 0.25, 0.5, 1, 1.0000002, 2, 4.9, 10, 11, 99, 1e4, 1e12, INFINITY, NAN};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        printf(" %d'%c'%s", heat_level(v[i]), heat_level_char(heat_level(v[i])), heat_level_over(heat_level(v[i])) ? "!" : "");
    printf("\n");
    printf("=== shares of 0, 1e-5, 0.0156, 0.85, 1, 1.0000002, 3.2, 12, nan:");
    double sv[] = {0, 1e-5, 0.0156, 0.85, 1, 1.0000002, 3.2, 12, NAN};
    for (size_t i = 0; i < sizeof sv / sizeof sv[0]; i++) {
        char b[32];
        heat_format_share(sv[i], b, sizeof b);
        printf(" %s", b);
    }
    printf("\n");
    canvas_free(&c);
}

static void cores(void)
{
    view_core k[4] = {
        {"host", VIEW_CORE_DONE, NULL, 0, NULL, 0, -1},
        {"aic", VIEW_CORE_RUNNING, "mlp_fused_aic", 31, NULL, 1, -1},
        {"aiv0", VIEW_CORE_BLOCKED, "mlp_fused_aiv", 12, "tile.tpop_from_aic", 0, -1},
        {"aiv1", VIEW_CORE_IDLE, NULL, 0, NULL, 0, -1},
    };
    view_queue q[3] = {
        {"aic->aiv", 0, 0, 2, 4},
        {"aic->aiv", 0, 1, 4, 4},
        {"aiv->aic", 1, 0, 0, -1},
    };
    canvas c;
    canvas_init(&c, 10, 60);
    render_cores(&c, (crect){0, 0, 10, 60}, k, 4, q, 3, 0);
    show("cores and queues", &c, 1);
    canvas_resize(&c, 3, 40);
    render_cores(&c, (crect){0, 0, 3, 40}, NULL, 0, NULL, 0, 0);
    show("cores, not running", &c, 0);
    canvas_free(&c);
}

static void queue_rows(void)
{
    /* Steps 10..29, two a column: a queue met at step 12 filling to its
     * limit of 2 (red) and draining; one met later, never used (dots);
     * one never met (blank); the largest depth in a column wins. */
    view_queue_depth a[] = {{12, 0}, {13, 1}, {16, 2}, {17, 1}, {22, 0}, {23, 1}, {23, 0}};
    view_queue_depth b[] = {{20, 0}};
    tui_queue_row rows[3] = {
        {"c2v0", a, sizeof a / sizeof a[0], 2},
        {"v2c0", b, 1, 0},
        {"x", NULL, 0, 0},
    };
    canvas c;
    canvas_init(&c, 3, 20);
    render_queue_rows(&c, (crect){0, 0, 3, 20}, 10, 2, 10, rows, 3);
    show("queue rows", &c, 1);
    canvas_free(&c);
}

static void displays(void)
{
    view_display d[2] = {
        {1, "out", "fp32 [16, 64] min -1.2 max 3.4 mean 0.01 nan 0 inf 0", 1},
        {2, "x__tile[0:2]", "fp32 [2, 64] min 0 max 1 mean 0.5 nan 0 inf 0", 0},
    };
    canvas c;
    canvas_init(&c, 3, 70);
    render_displays(&c, (crect){0, 0, 3, 70}, d, 2, 0);
    show("watch", &c, 1);
    render_displays(&c, (crect){0, 0, 3, 70}, NULL, 0, 0);
    show("watch, empty", &c, 0);
    canvas_free(&c);
}

static void passes(void)
{
    view_pass p[3];
    memset(p, 0, sizeof p);
    const char *names[3] = {"frontend", "ConvertToSSA", "ExpandMixedKernel"};
    int index[3] = {0, 4, 22};
    view_verdict verdict[3] = {VIEW_VERDICT_PASS, VIEW_VERDICT_PASS, VIEW_VERDICT_FAIL};
    double diff[3] = {0, 1.5e-7, 0.75};
    double margin[3] = {0, 2.4e-6, 8.5}; /* the worst element's share of its tolerance */
    for (int i = 0; i < 3; i++) {
        p[i].index = index[i];
        p[i].name = names[i];
        p[i].ir_changed = i == 0 ? -1 : 1;
        p[i].verdict = verdict[i];
        p[i].noutputs = 1;
        p[i].output_names[0] = "out";
        p[i].max_abs_diff[0] = diff[i];
        p[i].margin = margin[i];
        p[i].same_as = i == 1 ? 0 : -1; /* the file has pass 0's bytes */
    }
    canvas c;
    canvas_init(&c, 4, 60);
    render_passes(&c, (crect){0, 0, 4, 60}, p, 3, 2, 1, 0, 1);
    show("passes with verdicts", &c, 1);
    /* Two outputs: a column each, named in the header; NaN is "not known". */
    for (int i = 0; i < 3; i++) {
        p[i].noutputs = 2;
        p[i].output_names[1] = "lse";
        p[i].max_abs_diff[1] = i == 1 ? NAN : diff[i] * 2;
    }
    p[1].margin = NAN;
    render_passes(&c, (crect){0, 0, 4, 60}, p, 3, 0, 0, 0, 0);
    show("passes, two outputs", &c, 0);
    canvas_free(&c);
}

static void status(void)
{
    canvas c;
    canvas_init(&c, 1, 80);
    render_status(&c, (crect){0, 0, 1, 80}, "mlp-broken | pass 0 frontend | rtol 0.05 atol 0.05", NULL, NULL, 0,
                  "src", "source");
    show("status, idle", &c, 0);
    render_status(&c, (crect){0, 0, 1, 80}, NULL, "continue", "pass 22 ExpandMixedKernel: 40960 statements", 1,
                  "src", "source");
    show("status, busy, interrupted", &c, 0);
    canvas_free(&c);
}

static void layouts(void)
{
    /* Where each layout puts its panes, narrow (stacked) and wide (side by
     * side), and zoom. */
    int sizes[][2] = {{80, 24}, {200, 60}};
    for (size_t k = 0; k < 2; k++) {
        for (int l = 0; l < LAYOUT_COUNT; l++) {
            tui t;
            memset(&t, 0, sizeof t);
            t.cols = sizes[k][0];
            t.rows = sizes[k][1];
            t.layout = l;
            t.focus = PANE_SOURCE;
            tui_layout_apply(&t);
            printf("=== layout %s at %dx%d:", tui_layout_name(l), t.cols, t.rows);
            for (int i = 0; i < PANE_COUNT; i++)
                if (t.visible[i])
                    printf(" %s %d,%d %dx%d", tui_pane_name((tui_pane_id)i), t.rect[i].y, t.rect[i].x,
                           t.rect[i].w, t.rect[i].h);
            printf("\n");
        }
    }
    tui t;
    memset(&t, 0, sizeof t);
    t.cols = 80, t.rows = 24, t.layout = LAYOUT_DIFF, t.focus = PANE_HEATMAP, t.zoom = 1;
    tui_layout_apply(&t);
    printf("=== zoom heatmaps at 80x24: %d,%d %dx%d, console %d,%d %dx%d\n", t.rect[PANE_HEATMAP].y,
           t.rect[PANE_HEATMAP].x, t.rect[PANE_HEATMAP].w, t.rect[PANE_HEATMAP].h, t.rect[PANE_CONSOLE].y,
           t.rect[PANE_CONSOLE].x, t.rect[PANE_CONSOLE].w, t.rect[PANE_CONSOLE].h);
}

static void text(void)
{
    /* UTF-8 in and out, tabs, control characters, malformed bytes, clipping. */
    canvas c;
    canvas_init(&c, 4, 20);
    crect all = {0, 0, 4, 20};
    canvas_puts(&c, all, 0, 0, "a\xe2\x80\x94" "b \xe2\x94\x82 caf\xc3\xa9", ST_NORMAL);
    canvas_puts(&c, all, 1, 0, "\tx\ty\x01z\x7f", ST_NORMAL);
    canvas_puts(&c, all, 2, 0, "bad \xff\xc3( end", ST_NORMAL);
    canvas_puts(&c, (crect){3, 5, 1, 6}, 0, -2, "clipped-both-ends", ST_BAD);
    show("text", &c, 1);
    canvas_free(&c);
}

/* The compare pane: four aligned rows, one of each kind (the same file,
 * other files with the same outputs, the first differing pass, a pass in B
 * only); the first difference is marked '>' and highlighted (ST_STOP, its
 * '!' in ST_BAD), the cursor row styled when focused, B-only dimmed. */
static void compare_rows(void)
{
    view_compare_pair p[4] = {
        {"Simplify", "05_after_Simplify", "05_after_Simplify", "a/05.py", "b/05.py", 1, 1, 0, 1, 0},
        {"FlattenCallExpr", "07_after_FlattenCallExpr", "07_after_FlattenCallExpr", "a/07.py", "b/07.py", 1, 1, 0, 0, 0},
        {"InitMemRef", "32_after_InitMemRef", "32_after_InitMemRef", "a/32.py", "b/32.py", 1, 0, 1, 0, 0},
        {"LowerCompositeOpsV2", NULL, "13_after_LowerCompositeOpsV2", NULL, "b/13.py", 0, 1, 0, 0, 0},
    };
    view_compare v = {"build-b", p, 4, 2, -1, 29, 31, "main_incore_0", "t__tile", "matched by region", 1};
    canvas c;
    canvas_init(&c, 5, 72);
    render_compare(&c, (crect){0, 0, 5, 72}, &v, 1, 0, 1);
    show("compare pane", &c, 1);
    canvas_free(&c);
    canvas_init(&c, 2, 72);
    render_compare(&c, (crect){0, 0, 2, 72}, NULL, 0, 0, 0);
    show("compare pane, no compare", &c, 0);
    canvas_free(&c);
}

/* A multi-rank run (issue 34): the cores pane groups by rank; the timeline
 * has a row per rank and core. Rank 0's host runs 3 statements and parks
 * at a wait (steps 1-4); rank 1's host runs, notifies (step 7, '*'); rank
 * 0's wait completes on rank 1's notify at step 8 ('1': the notifier's
 * rank) and a | joins the rows between in that column (rank 0's AIV0 row,
 * blank there); rank 0's AIV0 ran at step 2. 10 columns for steps 1..10:
 * one step a column. */
static void ranks(void)
{
    view_core k[4] = {
        {"host", VIEW_CORE_BLOCKED, "wait_for", 27, "pld.system.wait", 0, 0},
        {"aiv0", VIEW_CORE_DONE, "kern", 5, NULL, 0, 0},
        {"host", VIEW_CORE_RUNNING, "ping", 22, NULL, 1, 1},
        {"host", VIEW_CORE_IDLE, NULL, 0, NULL, 0, 2},
    };
    canvas c;
    canvas_init(&c, 9, 60);
    render_cores(&c, (crect){0, 0, 9, 60}, k, 4, NULL, 0, 0);
    show("cores of 3 ranks", &c, 0);
    view_tl_event ev[] = {
        {1, 0, VIEW_TL_STMT, 0, 15, 0, -1},
        {2, 2, VIEW_TL_STMT, 0, 5, 0, -1},
        {3, 0, VIEW_TL_STMT, 0, 16, 0, -1},
        {4, 0, VIEW_TL_BLOCKED, 0, 27, 0, -1},
        {5, 0, VIEW_TL_STMT, 0, 21, 1, -1},
        {6, 0, VIEW_TL_STMT, 0, 21, 1, -1},
        {7, 0, VIEW_TL_STMT, 'n', 22, 1, -1},
        {8, 0, VIEW_TL_STMT, 'w', 27, 0, 1},
        {9, 0, VIEW_TL_STMT, 0, 28, 0, -1},
        {10, 0, VIEW_TL_DONE, 0, 28, 0, -1},
    };
    canvas_resize(&c, 6, 16);
    uint64_t per = 0;
    int cols = render_timeline(&c, (crect){0, 0, 6, 16}, ev, sizeof ev / sizeof ev[0], 10, 0, -1, -1, &per);
    show("timeline of 2 ranks, notify -> wait", &c, 1);
    printf("columns %d, %llu a column\n", cols, (unsigned long long)per);
    canvas_free(&c);
}

int main(void)
{
    layouts();
    text();
    heatmaps();
    cores();
    ranks();
    queue_rows();
    displays();
    passes();
    compare_rows();
    status();
    return 0;
}
