/* What a name denotes at the current stop: a variable of the selected frame
 * (gdb's scope rules, with a note when a short name could mean several), an
 * input, a golden output, and the tolerances an output is validated with. */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "base/strbuf.h"
#include "debug/state/lookup.h"
#include "debug/state/session_impl.h"
#include "exec/inspect.h"
#include "exec/machine.h"
#include "ir/print.h"

void session_output_tols(const session *s, const case_tensor *o, double *rtol, double *atol)
{
    *rtol = o->rtol.source == CASE_TOL_MANIFEST ? o->rtol.value : session_get_double(s, SETTING_RTOL);
    *atol = o->atol.source == CASE_TOL_MANIFEST ? o->atol.value : session_get_double(s, SETTING_ATOL);
}

const case_tensor *session_golden_for(const session *s, const char *name)
{
    if (!s->have_case)
        return NULL;
    char buf[256];
    const char *base = case_strip_ssa(name, buf, sizeof buf);
    for (size_t k = 0; k < s->kase.noutputs; k++)
        if (strcmp(s->kase.outputs[k].name, base) == 0 || strcmp(s->kase.outputs[k].name, name) == 0)
            return &s->kase.outputs[k];
    return NULL;
}

int session_frame_value(session *s, const char *name, const char **slot_name, const value **val)
{
    run_state *r = &s->run;
    if (!r->active || !r->m)
        return 0;
    int depth = inspect_depth(r->m, r->core);
    for (int lv = r->level; lv < depth; lv++) {
        int slot = inspect_find_slot(r->m, r->core, lv, name);
        if (slot >= 0)
            return inspect_slot(r->m, r->core, lv, slot, slot_name, val);
    }
    return 0;
}

static void describe_value(const value *v, strbuf *out)
{
    char shape[128];
    if (v->kind == VAL_TENSOR) {
        tensor_format_shape(v->u.t->ndim, v->u.t->shape, shape, sizeof shape);
        strbuf_printf(out, "%s %s", dtype_name(v->u.t->dtype), shape);
    } else {
        strbuf_puts(out, value_kind_name(v->kind));
    }
}

int session_declared_type(session *s, const char *expr, strbuf *out)
{
    run_state *r = &s->run;
    if (!r->active || !r->m)
        return 0;
    for (const char *p = expr; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return 0;
    int depth = inspect_depth(r->m, r->core);
    for (int lv = r->level; lv < depth; lv++) {
        int slot = inspect_find_slot(r->m, r->core, lv, expr);
        if (slot < 0)
            continue;
        const ir_expr *annot = inspect_slot_annotation(r->m, r->core, lv, slot);
        if (!annot)
            return 0;
        ir_print_expr(annot, out);
        return 1;
    }
    return 0;
}

void session_name_alternatives(session *s, const char *name, const char *taken, strbuf *note)
{
    run_state *r = &s->run;
    if (!r->active || !r->m || strcmp(name, taken) == 0)
        return;
    int depth = inspect_depth(r->m, r->core);
    for (int lv = r->level; lv < depth; lv++) {
        int slots[16];
        int n = inspect_slot_matches(r->m, r->core, lv, name, slots, 16);
        if (n == 0)
            continue;
        if (n == 1)
            return;
        strbuf others = STRBUF_INIT;
        const value *tv = NULL;
        for (int k = 0; k < n && k < 16; k++) {
            const char *sn;
            const value *v;
            if (!inspect_slot(r->m, r->core, lv, slots[k], &sn, &v))
                continue;
            if (strcmp(sn, taken) == 0) {
                tv = v;
                continue;
            }
            strbuf_puts(&others, others.len ? ", " : "");
            strbuf_printf(&others, "%s (", sn);
            describe_value(v, &others);
            strbuf_putc(&others, ')');
        }
        if (tv) {
            strbuf_printf(note, "\"%s\" is %s (", name, taken);
            describe_value(tv, note);
            strbuf_printf(note, "); also in scope: %s.\n", strbuf_str(&others));
        }
        strbuf_free(&others);
        return;
    }
}

tensor *session_lookup_tensor(session *s, const char *name, const tensor **golden, int quiet)
{
    if (golden)
        *golden = NULL;
    if (!s->have_case) {
        if (!quiet)
            session_need_case(s);
        return NULL;
    }
    if (strncmp(name, "golden.", 7) == 0) {
        for (size_t k = 0; k < s->kase.noutputs; k++)
            if (strcmp(s->kase.outputs[k].name, name + 7) == 0)
                return tensor_ref(s->kase.outputs[k].t);
        if (!quiet)
            session_errorf(s, "No golden output named \"%s\".", name + 7);
        return NULL;
    }
    run_state *r = &s->run;
    if (r->active && r->m) {
        const char *n;
        const value *v;
        if (session_frame_value(s, name, &n, &v)) {
            if (v->kind == VAL_UNBOUND) {
                if (!quiet)
                    session_errorf(s, "\"%s\" has not been assigned yet.", n);
                return NULL;
            }
            if (v->kind != VAL_TENSOR) {
                if (!quiet)
                    session_errorf(s, "\"%s\" is not a tensor here (%s).", n, value_kind_name(v->kind));
                return NULL;
            }
            if (golden) {
                const case_tensor *g = session_golden_for(s, n);
                *golden = g ? g->t : NULL;
            }
            return tensor_ref(v->u.t);
        }
        /* The run's bound arguments, after the frames have gone. */
        for (size_t i = 0; i < r->nbinds; i++) {
            if (r->binds[i].t && r->binds[i].key && strcmp(r->binds[i].key, name) == 0) {
                if (golden) {
                    const case_tensor *g = session_golden_for(s, name);
                    *golden = g ? g->t : NULL;
                }
                return tensor_ref(r->binds[i].t);
            }
        }
    }
    for (size_t k = 0; k < s->kase.ninputs; k++)
        if (strcmp(s->kase.inputs[k].name, name) == 0)
            return tensor_ref(s->kase.inputs[k].t);
    if (!quiet)
        session_errorf(s, "No tensor \"%s\" in the current context.", name);
    return NULL;
}
