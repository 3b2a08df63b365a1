/* Host parameters of a multi-rank case from the per-rank data: see
 * rank_bind.h. */
#include "config.h"

#include "data/rank_bind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"

static const case_tensor *find(const case_tensor *arr, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(arr[i].name, name) == 0)
            return &arr[i];
    return NULL;
}

/* The view of full without axis, at index r along it. */
static tensor *drop_axis_view(const tensor *full, int axis, int64_t r, ptodb_status *st)
{
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    int k = 0;
    for (int d = 0; d < full->ndim; d++) {
        if (d == axis)
            continue;
        shape[k] = full->shape[d];
        strides[k] = full->strides[d];
        k++;
    }
    return tensor_view(full, k, shape, strides, full->offset + r * full->strides[axis], st);
}

tensor *case_rank_slice(const case_rank_binding *b, int r, ptodb_status *st)
{
    if (!b->t || b->axis < 0 || b->axis >= b->t->ndim || r < 0 || r >= b->t->shape[b->axis]) {
        if (st)
            *st = PTODB_ERR_BOUNDS;
        return NULL;
    }
    return drop_axis_view(b->t, b->axis, r, st);
}

static int same_shape(int na, const int64_t *a, int nb, const int64_t *b)
{
    if (na != nb)
        return 0;
    for (int d = 0; d < na; d++)
        if (a[d] != b[d])
            return 0;
    return 1;
}

/* The rank axis of param p for slices of shape (nd, shape): see rank_bind.h. */
static int rank_axis(const case_param *p, int nranks, int nd, const int64_t *shape)
{
    if (p->ndim != nd + 1)
        return 0;
    /* an axis of extent P first, then a pl.dynamic one (the host code binds
     * the symbol from the host tensor's shape: distributed_codegen.cpp:
     * 454-513, so a dynamic axis can be the rank axis) */
    for (int a = 0; a < 2 * p->ndim; a++) {
        int ax = a % p->ndim;
        if (a < p->ndim ? p->shape[ax] != nranks : p->shape[ax] >= 0)
            continue;
        int64_t rest[TENSOR_MAX_DIMS];
        int k = 0;
        for (int d = 0; d < p->ndim; d++)
            if (d != ax)
                rest[k++] = p->shape[d];
        int ok = 1;
        for (int d = 0; d < nd; d++)
            ok &= rest[d] < 0 || rest[d] == shape[d];
        if (ok)
            return ax;
    }
    return 0;
}

static void rank_keys(const case_info *c, strbuf *sb)
{
    for (int r = 0; r < c->ranks.nranks; r++) {
        strbuf_printf(sb, "%srank%d: [", r ? ", " : "", r);
        for (size_t i = 0; i < c->rank_data[r].ninputs; i++)
            strbuf_printf(sb, "%s'%s'", i ? ", " : "", c->rank_data[r].inputs[i].name);
        strbuf_putc(sb, ']');
    }
}

static int static_shape(const case_param *p)
{
    if (p->ndim < 0)
        return 0;
    for (int d = 0; d < p->ndim; d++)
        if (p->shape[d] < 0)
            return 0;
    return 1;
}

/* One tensor parameter; returns 0 with an error reported when it cannot be bound. */
static int bind_one(const case_info *c, const case_param *p, case_rank_binding *b, diag_sink *sink)
{
    int P = c->ranks.nranks;
    char key[256];
    case_strip_ssa(p->name, key, sizeof key);
    const case_tensor *in[CASE_MAX_RANKS] = {0};
    int nin = 0, first = -1, gfirst = -1;
    for (int r = 0; r < P; r++) {
        const case_rank_data *rd = &c->rank_data[r];
        in[r] = find(rd->inputs, rd->ninputs, p->name);
        if (!in[r])
            in[r] = find(rd->inputs, rd->ninputs, key);
        b->golden[r] = find(rd->outputs, rd->noutputs, p->name);
        if (!b->golden[r])
            b->golden[r] = find(rd->outputs, rd->noutputs, key);
        if (in[r] && first < 0)
            first = r;
        if (b->golden[r] && gfirst < 0)
            gfirst = r;
        nin += in[r] != NULL;
    }
    b->key = xstrdup(first >= 0 ? in[first]->name : key);
    const tensor *proto = first >= 0 ? in[first]->t : gfirst >= 0 ? b->golden[gfirst]->t : NULL;
    if (nin && nin != P) {
        for (int r = 0; r < P; r++)
            if (!in[r])
                diag_report(sink, DIAG_ERROR, (diag_loc){c->root, 0, 0}, NULL,
                            "host parameter '%s': rank %d has no data/in/rank%d/%s.pt, rank %d has one", p->name,
                            r, r, key, first);
        return 0;
    }
    /* every slice of one shape and dtype: they are one host tensor */
    for (int r = 0; r < P; r++) {
        const case_tensor *s = nin ? in[r] : b->golden[r];
        if (!s || !proto)
            continue;
        if (s->t->dtype != proto->dtype || !same_shape(s->t->ndim, s->t->shape, proto->ndim, proto->shape)) {
            diag_report(sink, DIAG_ERROR, (diag_loc){s->path, 0, 0}, NULL,
                        "host parameter '%s': rank %d's slice is %s %dd, rank %d's %s %dd: not one host tensor",
                        p->name, r, dtype_name(s->t->dtype), s->t->ndim, nin ? first : gfirst,
                        dtype_name(proto->dtype), proto->ndim);
            return 0;
        }
    }
    ptodb_status st = PTODB_OK;
    /* the host tensor's type, for the allocation and its refusal */
    int64_t shape[TENSOR_MAX_DIMS];
    int nd = 0;
    dtype_id dt = DTYPE_FP32;
    if (proto) {
        b->axis = rank_axis(p, P, proto->ndim, proto->shape);
        if (proto->ndim + 1 > TENSOR_MAX_DIMS) {
            diag_report(sink, DIAG_ERROR, (diag_loc){c->root, 0, 0}, NULL,
                        "host parameter '%s': a slice of %d dims has no room for a rank axis", p->name, proto->ndim);
            return 0;
        }
        nd = proto->ndim + 1;
        dt = proto->dtype;
        for (int d = 0, k = 0; d < nd; d++)
            shape[d] = d == b->axis ? P : proto->shape[k++];
        b->t = tensor_zeros(dt, nd, shape, &st);
        b->zeros = nin == 0;
        for (int r = 0; b->t && r < P && nin; r++) {
            tensor *v = drop_axis_view(b->t, b->axis, r, &st);
            if (v)
                st = tensor_copy_into(v, in[r]->t);
            tensor_unref(v);
        }
    } else if (p->dir == CASE_PARAM_OUT && static_shape(p)) {
        b->axis = 0;
        for (int a = 0; a < p->ndim; a++)
            if (p->shape[a] == P) {
                b->axis = a;
                break;
            }
        nd = p->ndim;
        dt = p->dtype;
        memcpy(shape, p->shape, (size_t)nd * sizeof *shape);
        b->t = tensor_zeros(dt, nd, shape, &st);
        b->zeros = 1;
    } else {
        strbuf sb = STRBUF_INIT;
        rank_keys(c, &sb);
        diag_report(sink, DIAG_ERROR, (diag_loc){c->root, 0, 0}, NULL,
                    "Cannot resolve tensor for host parameter '%s' in any data/in/rank<R>/. Available keys: %s",
                    p->name, strbuf_str(&sb));
        strbuf_free(&sb);
        return 0;
    }
    if (!b->t) {
        /* a host tensor too large (a huge declared shape) or no memory: say
         * which, as the single-rank binding does (case.c) */
        char why[300];
        if (tensor_check_limit(dt, nd, shape, why, sizeof why) == 0)
            snprintf(why, sizeof why, "%s", ptodb_status_message(st));
        diag_report(sink, DIAG_ERROR, (diag_loc){c->root, 0, 0}, NULL, "host parameter '%s': %s", p->name, why);
        return 0;
    }
    return 1;
}

ptodb_status case_bind_ranks(const case_info *c, const case_param *params, size_t n, case_rank_binding *out,
                             diag_sink *sink)
{
    memset(out, 0, n * sizeof *out);
    ptodb_status st = PTODB_OK;
    if (!c->ranks.nranks) {
        diag_report(sink, DIAG_ERROR, (diag_loc){c->root, 0, 0}, NULL, "not a multi-rank case (no ranks.txt)");
        return PTODB_ERR_USAGE;
    }
    for (size_t i = 0; i < n; i++) {
        out[i].axis = -1;
        if (!params[i].is_tensor)
            continue;
        if (!bind_one(c, &params[i], &out[i], sink))
            st = PTODB_ERR_RESOLVE;
    }
    return st;
}

void case_rank_bindings_free(case_rank_binding *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(b[i].key);
        tensor_unref(b[i].t);
    }
}
