/* Looking at data: print, display, undisplay, diff, export, and the frame
 * listings of info (locals, args, display, frame). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/mem.h"
#include "data/npy.h"
#include "data/pt.h"
#include "tensor/heatgrid.h"
#include "debug/state/lookup.h"
#include "debug/run/point.h"
#include "debug/run/record.h"
#include "debug/state/session_impl.h"
#include "tensor/tensor_fmt.h"
#include "exec/compare.h"
#include "exec/inspect.h"
#include "ir/walk.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#undef CMD

/* Splits "name[sub]" into the name and the subscript (or ""). */
static int split_expr(session *s, const char *expr, char *name, size_t size, const char **sub)
{
    const char *p = expr;
    size_t n = 0;
    while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '.')) {
        if (n + 1 >= size)
            break;
        name[n++] = *p++;
    }
    name[n] = '\0';
    while (isspace((unsigned char)*p))
        p++;
    if (!n || (*p && *p != '[')) {
        session_errorf(s, "Expected a tensor name with an optional subscript, got \"%s\".", expr);
        return -1;
    }
    *sub = p;
    return 0;
}

/* Resolves "name[sub]" to a tensor (new reference), printing errors. */
static tensor *eval_tensor(session *s, const char *expr, const tensor **golden, char *name, size_t size)
{
    const char *sub;
    if (split_expr(s, expr, name, size, &sub) != 0)
        return NULL;
    tensor *t = session_lookup_tensor(s, name, golden, 0);
    if (!t || !*sub)
        return t;
    tensor *v = NULL;
    strbuf err = STRBUF_INIT;
    ptodb_status st = tensor_apply_subscript(t, sub, &v, &err);
    tensor_unref(t);
    if (st != PTODB_OK) {
        session_errorf(s, "%s", strbuf_str(&err));
        strbuf_free(&err);
        return NULL;
    }
    strbuf_free(&err);
    if (golden && *golden) {
        /* The same subscript on the golden keeps diff/conditions aligned. */
        *golden = NULL;
    }
    return v;
}

/* ---- diff --------------------------------------------------------------------------- */

static void unravel(const tensor *t, int64_t k, strbuf *out)
{
    int64_t idx[TENSOR_MAX_DIMS];
    for (int d = t->ndim - 1; d >= 0; d--) {
        idx[d] = t->shape[d] ? k % t->shape[d] : 0;
        k = t->shape[d] ? k / t->shape[d] : 0;
    }
    strbuf_putc(out, '[');
    for (int d = 0; d < t->ndim; d++)
        strbuf_printf(out, "%s%" PRId64, d ? ", " : "", idx[d]);
    strbuf_putc(out, ']');
}

/* Same dtype, shape and bytes: equal without looking at the values (a
 * frame's inputs are large and usually untouched). */
/* `diff pass N`: every tensor of the selected frame against the same
 * variable at the corresponding point of pass N. */
static ptodb_status diff_frame(session *s, int pass)
{
    run_state *r = &s->run;
    inspect_frame f;
    if (!r->active || r->finished || r->failed || !r->m || !inspect_frame_get(r->m, r->core, r->level, &f)) {
        session_errorf(s, "diff pass N needs a run stopped inside a pass (the point to compare at).");
        return PTODB_ERR_USAGE;
    }
    double rtol = session_get_double(s, SETTING_RTOL), atol = session_get_double(s, SETTING_ATOL);
    int ntensors = 0, nsame = 0, nwithin = 0, noutside = 0, nmissing = 0, said = 0;
    char **names = xcalloc(f.nslots ? (size_t)f.nslots : 1, sizeof *names);
    for (int i = 0; i < f.nslots; i++) {
        const char *name;
        const value *v;
        if (inspect_slot(r->m, r->core, r->level, i, &name, &v) && v->kind == VAL_TENSOR)
            names[i] = xstrdup(name);
    }
    ptodb_status st = PTODB_OK;
    for (int i = 0; i < f.nslots; i++) {
        if (!names[i])
            continue;
        ntensors++;
        tensor *a = session_lookup_tensor(s, names[i], NULL, 1);
        int errors = session_error_count(s);
        point_share own;
        tensor *b = a ? session_tensor_in_pass(s, pass, names[i], (said ? 0 : POINT_SAY_MATCH) | POINT_QUIET_MISSING,
                                               &own)
                      : NULL;
        if (b && own.ndim) { /* only the region the stop's core stored */
            tensor *part = point_share_of(a, &own);
            tensor_unref(a);
            a = part;
        }
        if (!b) {
            nmissing++;
            if (session_error_count(s) > errors) { /* no counterpart point at all: said once */
                tensor_unref(a);
                st = PTODB_ERR_NOT_FOUND;
                break;
            }
            session_printf(s, "  %s: no counterpart in pass %s\n", names[i], session_pass_stem(s, pass));
            tensor_unref(a);
            continue;
        }
        said = 1;
        if (tensor_same_bits(a, b)) {
            nsame++;
            tensor_unref(a);
            tensor_unref(b);
            continue;
        }
        exec_compare_result c;
        exec_compare(a, b, rtol, atol, session_profile(s), session_semantics(s) == EXEC_SEM_DEVICE, &c);
        if (c.error) {
            noutside++;
            session_printf(s, "  %s: cannot compare: %s\n", names[i], c.msg);
        } else if (c.max_abs_diff == 0 && c.mismatches == 0) {
            nsame++;
        } else {
            char num[64];
            exec_format_e6(c.max_abs_diff, num, sizeof num);
            if (c.pass)
                nwithin++;
            else
                noutside++;
            session_printf(s, "  %s: max_abs_diff %s, %s, %" PRId64 " of %" PRId64 " elements outside\n", names[i],
                           num, c.pass ? "within tolerance" : "OUTSIDE tolerance", c.mismatches, c.count);
        }
        tensor_unref(a);
        tensor_unref(b);
    }
    for (int i = 0; i < f.nslots; i++)
        free(names[i]);
    free(names);
    if (st == PTODB_OK)
        session_printf(s,
                       "diff pass %d: %d tensors of %s: %d equal (bit for bit, or max_abs_diff 0), %d within tolerance, %d outside, "
                       "%d without a counterpart\n",
                       s->kase.passes[pass].index, ntensors, f.func, nsame, nwithin, noutside, nmissing);
    return st;
}

ptodb_status cmd_DIFF(session *s, const char *args)
{
    char *words[4];
    char buf[1024];
    int n = session_split_words(args, words, 4, buf, sizeof buf);
    if (n == 2 && strcmp(words[0], "pass") == 0) {
        int p = session_find_pass(s, words[1]);
        return p < 0 ? PTODB_ERR_USAGE : diff_frame(s, p);
    }
    if (n < 1 || n > 3 || (n == 3 && strcmp(words[1], "pass") != 0)) {
        session_errorf(s, "Usage: diff TENSOR [golden | pass N | TENSOR2]");
        return PTODB_ERR_USAGE;
    }
    char name[256];
    const tensor *golden = NULL;
    tensor *a = eval_tensor(s, words[0], &golden, name, sizeof name);
    if (!a)
        return PTODB_ERR_NOT_FOUND;
    tensor *b = NULL;
    const char *bname;
    char pass_label[64];
    if (n == 3) {
        int p = session_find_pass(s, words[2]);
        if (p < 0) {
            tensor_unref(a);
            return PTODB_ERR_USAGE;
        }
        /* a subscript names its own elements: then the whole counterpart */
        point_share own = {0};
        b = session_tensor_in_pass(s, p, name, POINT_SAY_MATCH, strchr(words[0], '[') ? NULL : &own);
        if (!b) {
            tensor_unref(a);
            return PTODB_ERR_NOT_FOUND;
        }
        if (own.ndim) { /* only the region the stop's core stored */
            tensor *part = point_share_of(a, &own);
            tensor_unref(a);
            a = part;
        }
        snprintf(pass_label, sizeof pass_label, "pass %s", words[2]);
        bname = pass_label;
        /* the lane's share of the whole tensor first, then any subscript */
        tensor *whole = strchr(words[0], '[') ? session_lookup_tensor(s, name, NULL, 1) : tensor_ref(a);
        tensor *share = whole ? session_lane_share(s, whole, b, p) : NULL;
        if (whole)
            tensor_unref(whole);
        if (share) {
            tensor_unref(b);
            b = share;
        }
        if (strchr(words[0], '[')) {
            /* the same subscript on the other pass's tensor */
            tensor *v = NULL;
            strbuf err = STRBUF_INIT;
            if (tensor_apply_subscript(b, strchr(words[0], '['), &v, &err) != PTODB_OK) {
                session_errorf(s, "%s", strbuf_str(&err));
                strbuf_free(&err);
                tensor_unref(a);
                tensor_unref(b);
                return PTODB_ERR_USAGE;
            }
            strbuf_free(&err);
            tensor_unref(b);
            b = v;
        }
    } else if (n == 1 || strcmp(words[1], "golden") == 0) {
        const case_tensor *g = session_golden_for(s, name);
        if (!g) {
            session_errorf(s, "\"%s\" has no golden output (golden outputs: %s%s).", name,
                           s->kase.noutputs ? s->kase.outputs[0].name : "none",
                           s->kase.noutputs > 1 ? ", ..." : "");
            tensor_unref(a);
            return PTODB_ERR_NOT_FOUND;
        }
        b = tensor_ref(g->t);
        bname = "golden";
    } else {
        char name2[256];
        b = eval_tensor(s, words[1], NULL, name2, sizeof name2);
        if (!b) {
            tensor_unref(a);
            return PTODB_ERR_NOT_FOUND;
        }
        bname = words[1];
    }
    double rtol = session_get_double(s, SETTING_RTOL), atol = session_get_double(s, SETTING_ATOL);
    const case_tensor *g_out = bname && strcmp(bname, "golden") == 0 ? session_golden_for(s, name) : NULL;
    if (g_out)
        session_output_tols(s, g_out, &rtol, &atol); /* the validate line's tolerances */
    exec_compare_result r;
    size_t numel = (size_t)(tensor_numel(a) ? tensor_numel(a) : 1);
    uint8_t *bad = xcalloc(numel, 1);
    float *frac = xcalloc(numel, sizeof *frac);
    exec_compare_frac(a, b, rtol, atol, session_profile(s), session_semantics(s) == EXEC_SEM_DEVICE, &r, bad, frac);
    ptodb_status st = PTODB_OK;
    if (r.error) {
        session_errorf(s, "Cannot compare %s with %s: %s", words[0], bname, r.msg);
        st = PTODB_ERR_SHAPE;
    } else {
        strbuf sb = STRBUF_INIT;
        char num[64];
        exec_format_e6(r.max_abs_diff, num, sizeof num);
        char margin[32];
        heat_format_share(r.margin, margin, sizeof margin);
        strbuf_printf(&sb, "%s vs %s: max_abs_diff %s, %s (rtol %g, atol %g), the worst element at %s%s its tolerance\n",
                      words[0], bname, num, r.pass ? "within tolerance" : "OUTSIDE tolerance", rtol, atol, margin,
                      margin[strlen(margin) - 1] == 'x' ? "" : " of");
        strbuf_printf(&sb, "  mismatched %" PRId64 " of %" PRId64 " elements (%.2f%%)", r.mismatches,
                      r.count, r.count ? 100.0 * (double)r.mismatches / (double)r.count : 0.0);
        if (r.first_bad >= 0) {
            strbuf_puts(&sb, ", first at ");
            unravel(a, r.first_bad, &sb);
            strbuf_printf(&sb, ": %.6g vs %.6g", tensor_get_flat(a, r.first_bad),
                          tensor_get_flat(b, r.first_bad));
        }
        strbuf_putc(&sb, '\n');
        heatgrid g;
        if (heatgrid_compute(a, b, frac, bad, 8, 32, &g) == PTODB_OK) {
            heatgrid_render_text(&g, &sb);
            heatgrid_free(&g);
        }
        session_write(s, strbuf_str(&sb), sb.len);
        strbuf_free(&sb);
    }
    free(bad);
    free(frac);
    tensor_unref(a);
    tensor_unref(b);
    return st;
}

/* ---- export --------------------------------------------------------------------------- */

ptodb_status cmd_EXPORT(session *s, const char *args)
{
    char *words[4];
    char buf[2048];
    int n = session_split_words(args, words, 4, buf, sizeof buf);
    int force = n > 0 && strcmp(words[0], "-f") == 0;
    if (n - force != 2) {
        session_errorf(s, "Usage: export [-f] TENSOR FILE.npy|FILE.pt");
        return PTODB_ERR_USAGE;
    }
    const char *expr = words[force], *path = words[force + 1];
    size_t len = strlen(path);
    int npy = len > 4 && strcmp(path + len - 4, ".npy") == 0;
    int pt = len > 3 && strcmp(path + len - 3, ".pt") == 0;
    if (!npy && !pt) {
        session_errorf(s, "export writes .npy or .pt files, got \"%s\".", path);
        return PTODB_ERR_USAGE;
    }
    struct stat st_buf;
    if (!force && stat(path, &st_buf) == 0) {
        session_errorf(s, "%s exists; use export -f to overwrite it.", path);
        return PTODB_ERR_USAGE;
    }
    char name[256];
    tensor *t = eval_tensor(s, expr, NULL, name, sizeof name);
    if (!t)
        return PTODB_ERR_NOT_FOUND;
    diag_sink sink;
    diag_sink_init(&sink, 5);
    ptodb_status st = npy ? npy_save(path, t, &sink) : pt_save(path, t, &sink);
    session_print_diags(s, &sink);
    diag_sink_free(&sink);
    if (st == PTODB_OK) {
        strbuf sb = STRBUF_INIT;
        tensor_fmt_header(t, &sb);
        session_printf(s, "Wrote %s (%s) to %s.\n", expr, strbuf_str(&sb), path);
        strbuf_free(&sb);
    }
    tensor_unref(t);
    return st;
}

