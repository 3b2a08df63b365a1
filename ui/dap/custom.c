/* The requests DAP lacks, named ptodb/...: the passes with their verdicts,
 * a pass's max_abs_diff heat grid (view_heatmap_get, the grid the TUI's
 * pane draws), a byte-capped slice of a tensor's elements; and evaluate's
 * viz(EXPR), Debug Visualizer's grid JSON for a heat map with no extension. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "dap_impl.h"
#include "debug/state/expr.h"
#include "tensor/tensor_fmt.h"
#include "debug/present/view.h"
#include "tensor/heatgrid.h"

static const char *verdict_name(view_verdict v)
{
    switch (v) {
    case VIEW_VERDICT_PASS: return "pass";
    case VIEW_VERDICT_FAIL: return "fail";
    case VIEW_VERDICT_ERROR: return "error";
    default: return "unknown";
    }
}

/* NaN (not known) as JSON null. */
static json_t *number_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

void dap_req_passes(dap_server *d, json_t *req, json_t *args)
{
    (void)args;
    if (!d->s) {
        dap_fail(d, req, "ptodb/passes before launch");
        return;
    }
    json_t *list = json_array();
    for (int i = 0; i < session_npasses(d->s); i++) {
        view_pass p;
        if (!view_pass_info(d->s, i, &p))
            continue;
        json_t *outs = json_array();
        for (int k = 0; k < p.noutputs; k++)
            json_array_append_new(outs, json_pack("{s:o, s:o}", "name", dap_str(p.output_names[k]), "maxAbsDiff",
                                                  number_or_null(p.max_abs_diff[k])));
        json_array_append_new(list, json_pack("{s:i, s:i, s:o, s:o, s:s, s:i, s:o}", "pass", i, "index", p.index,
                                              "name", dap_str(p.name), "stem", dap_str(p.stem), "verdict", verdict_name(p.verdict),
                                              "irChanged", p.ir_changed, "outputs", outs));
    }
    dap_respond(d, req, json_pack("{s:o, s:i, s:i}", "passes", list, "current", session_current_pass(d->s),
                                  "running", view_run_pass(d->s)));
}

void dap_req_heatmap(dap_server *d, json_t *req, json_t *args)
{
    if (!d->s) {
        dap_fail(d, req, "ptodb/heatmap before launch");
        return;
    }
    json_int_t output = json_integer_value(json_object_get(args, "output"));
    json_int_t rows = json_integer_value(json_object_get(args, "rows"));
    json_int_t cols = json_integer_value(json_object_get(args, "cols"));
    const char *mode = json_string_value(json_object_get(args, "mode"));
    rows = rows <= 0 ? 16 : rows > 128 ? 128 : rows;
    cols = cols <= 0 ? 32 : cols > 128 ? 128 : cols;
    view_heatmap h;
    view_heat_mode m = mode && strcmp(mode, "previous") == 0 ? VIEW_HEAT_VS_PREVIOUS : VIEW_HEAT_VS_GOLDEN;
    if (output < 0 || output > 1000 || !view_heatmap_get(d->s, (int)output, m, (int)rows, (int)cols, &h)) {
        dap_fail(d, req, "no heat map: %s%s", output < 0 || output > 1000 ? "bad output" : h.why ? h.why : "none",
                 output < 0 || output > 1000 ? ""
                 : h.fill == VIEW_FILL_RUN   ? "; running the pass fills it"
                 : h.fill == VIEW_FILL_RUN_PREVIOUS ? "; running the previous pass fills it"
                                                    : "");
        return;
    }
    json_t *cells = json_array(), *outside = json_array(), *colours = json_array();
    char *chars = xmalloc((size_t)h.rows * (size_t)h.cols + 1);
    for (int i = 0; i < h.rows * h.cols; i++) {
        json_array_append_new(cells, number_or_null(h.cells[i]));
        json_array_append_new(outside, json_integer(h.outside ? h.outside[i] : 0));
        chars[i] = heat_level_char(heat_level(h.cells[i]));
        json_array_append_new(colours, json_string(heat_level_colour(heat_level(h.cells[i]))));
    }
    chars[h.rows * h.cols] = '\0';
    json_t *body = json_pack("{s:o, s:i, s:i, s:o, s:o, s:o, s:o, s:I, s:I, s:[I,I], s:i, s:i, s:b}", "tensor",
                             dap_str(h.tensor ? h.tensor : ""), "rows", h.rows, "cols", h.cols, "cells", cells, "outside",
                             outside, "max", number_or_null(h.max), "tolerance", number_or_null(h.tolerance),
                             "outsideElements", (json_int_t)h.outside_elements, "elements",
                             (json_int_t)h.elements, "shape", (json_int_t)h.shape[0], (json_int_t)h.shape[1],
                             "blockRows", h.block_rows, "blockCols", h.block_cols, "live", h.live);
    /* the one heat scale (tensor/heatgrid.h), as the TUI's legend says it:
     * the cells are fractions of the tolerance, the chars the levels */
    json_object_set_new(body, "maxAbsDiff", number_or_null(h.max_abs));
    json_object_set_new(body, "chars", json_string(chars));
    json_object_set_new(body, "colours", colours);
    free(chars);
    json_object_set_new(body, "legend",
                        json_pack("{s:f, s:o, s:o, s:s, s:f, s:s}", "min", 0.0, "max", number_or_null(h.max),
                                  "tolerance", number_or_null(h.tolerance), "scale", "tolerance", "over", 1.0,
                                  "meaning", heat_legend()));
    dap_respond(d, req, body);
}

static void frame_select(dap_server *d, json_t *args)
{
    int core, level;
    json_t *fid = json_object_get(args, "frameId");
    if (json_is_integer(fid) && dap_frame_unpack((long)json_integer_value(fid), &core, &level) == 0)
        dap_select_frame(d, core, level);
}

void dap_req_tensor_slice(dap_server *d, json_t *req, json_t *args)
{
    const char *expr = json_string_value(json_object_get(args, "expression"));
    if (!d->s || !expr) {
        dap_fail(d, req, "ptodb/tensorSlice: 'expression' is required");
        return;
    }
    json_int_t max_bytes = json_integer_value(json_object_get(args, "maxBytes"));
    if (max_bytes <= 0 || max_bytes > DAP_RESPONSE_CAP)
        max_bytes = DAP_RESPONSE_CAP;
    frame_select(d, args);
    tensor *t = NULL;
    strbuf err = STRBUF_INIT;
    if (expr_eval(d->s, expr, &t, NULL, &err) != PTODB_OK) {
        dap_fail(d, req, "%s", strbuf_str(&err));
        strbuf_free(&err);
        return;
    }
    strbuf_free(&err);
    /* the elements in row-major order, as JSON numbers, until the bytes run out */
    json_t *values = json_array();
    int64_t n = tensor_numel(t), k = 0;
    size_t bytes = 0;
    int64_t idx[TENSOR_MAX_DIMS] = {0};
    for (; k < n; k++) {
        double v = tensor_get(t, idx);
        char buf[40];
        int len = snprintf(buf, sizeof buf, "%.9g", v);
        if (bytes + (size_t)len + 1 > (size_t)max_bytes)
            break;
        bytes += (size_t)len + 1;
        json_array_append_new(values, isfinite(v) ? json_real(v) : json_string(buf));
        tensor_next_index(t, idx);
    }
    json_t *shape = json_array();
    for (int i = 0; i < t->ndim; i++)
        json_array_append_new(shape, json_integer(t->shape[i]));
    dap_respond(d, req, json_pack("{s:s, s:o, s:o, s:I, s:I, s:b}", "dtype", dtype_name(t->dtype), "shape", shape,
                                  "values", values, "count", (json_int_t)k, "total", (json_int_t)n, "truncated",
                                  k < n));
    tensor_unref(t);
}

/* A colour from white (0) to red (1). */
static void heat_colour(double x, char *buf, size_t size)
{
    if (!(x >= 0))
        x = 0;
    if (x > 1)
        x = 1;
    int g = (int)lround(255 * (1 - x));
    snprintf(buf, size, "#ff%02x%02x", g, g);
}

void dap_eval_viz(dap_server *d, json_t *req, const char *expr)
{
    tensor *t = NULL;
    strbuf err = STRBUF_INIT;
    if (expr_eval(d->s, expr, &t, NULL, &err) != PTODB_OK) {
        dap_fail(d, req, "%s", strbuf_str(&err));
        strbuf_free(&err);
        return;
    }
    strbuf_free(&err);
    if (t->ndim > 2) {
        dap_fail(d, req, "viz: a 0-, 1- or 2-d tensor (subscript a larger one: viz(t[0]))");
        tensor_unref(t);
        return;
    }
    /* at most 32 x 32 elements (the top left), coloured by |value| over the
     * largest |value| shown */
    enum { VIZ_MAX = 32 };
    int64_t R = t->ndim == 2 ? t->shape[0] : 1, C = t->ndim >= 1 ? t->shape[t->ndim - 1] : 1;
    int64_t r_show = R < VIZ_MAX ? R : VIZ_MAX, c_show = C < VIZ_MAX ? C : VIZ_MAX;
    double top = 0;
    for (int64_t r = 0; r < r_show; r++)
        for (int64_t c = 0; c < c_show; c++) {
            int64_t idx[2] = {t->ndim == 2 ? r : c, c};
            double v = fabs(tensor_get(t, t->ndim == 0 ? NULL : idx));
            if (isfinite(v) && v > top)
                top = v;
        }
    json_t *rows = json_array();
    for (int64_t r = 0; r < r_show; r++) {
        json_t *cols = json_array();
        for (int64_t c = 0; c < c_show; c++) {
            int64_t idx[2] = {t->ndim == 2 ? r : c, c};
            const int64_t *ip = t->ndim == 0 ? NULL : idx;
            char text[64], colour[16];
            tensor_fmt_element(t, ip, 0, text, sizeof text);
            double v = fabs(tensor_get(t, ip));
            heat_colour(top > 0 ? v / top : 0, colour, sizeof colour);
            json_array_append_new(cols, json_pack("{s:s, s:s}", "content", text, "color", colour));
        }
        char label[32];
        snprintf(label, sizeof label, "%lld", (long long)r);
        json_array_append_new(rows, json_pack("{s:s, s:o}", "label", label, "columns", cols));
    }
    strbuf head = STRBUF_INIT;
    tensor_fmt_header(t, &head);
    if (R > r_show || C > c_show)
        strbuf_printf(&head, " (top left %lld x %lld shown)", (long long)r_show, (long long)c_show);
    json_t *grid = json_pack("{s:{s:b}, s:o, s:o}", "kind", "grid", 1, "text", dap_str(strbuf_str(&head)), "rows", rows);
    strbuf_free(&head);
    tensor_unref(t);
    char *text = json_dumps(grid, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(grid);
    dap_respond(d, req, json_pack("{s:s, s:i}", "result", text ? text : "{}", "variablesReference", 0));
    free(text);
}
