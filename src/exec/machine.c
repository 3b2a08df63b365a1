/* The machine: cores with explicit frame stacks, the step API, group runs
 * and the deterministic scheduler (semantics.md §5, §6.6). */
#include "exec/comm.h"
#include "exec/machine_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/mem.h"
#include "exec/inspect.h"
#include "exec/region.h"
#include "exec/schedule.h"
#include "exec/op_util.h"
#include "exec/write_log.h"
#include "ir/resolve.h"
#include "ir/walk.h"

static const char *const core_names[EXEC_NCORES] = {"host", "AIC", "AIV0", "AIV1"};

const char *machine_core_name(int id)
{
    return (unsigned)id < EXEC_NCORES ? core_names[id] : "?";
}

void machine_options_init(machine_options *o)
{
    memset(o, 0, sizeof *o);
    o->profile = EXEC_PROFILE_T2;
    o->check_shapes = 1;
    o->sched = EXEC_SCHED_FIXED;
    o->max_depth = 1000; /* Python's default recursion limit, as REF */
    o->slot_depth = 0;
    o->memcheck = 1;
    o->mem_target = MEM_TARGET_910B;
    o->mem_addressed = -1;
    o->mem_yields_move = -1;
}

static const ir_span *inst_span(const xinst *in);

/* Names the statement being executed when an allocation fails. */
static void machine_where(const void *ctx, char *buf, size_t size)
{
    const machine *m = ctx;
    const core *c = m->running;
    if (!c || c->depth <= 0) {
        snprintf(buf, size, "running %s", m->p->path);
        return;
    }
    const xframe *f = &c->frames[c->depth - 1];
    const ir_span *sp = inst_span(&f->fn->code[f->pc]);
    snprintf(buf, size, "running %s:%u:%u in %s on %s", m->p->path, sp ? sp->line : 0, sp ? sp->col : 0,
             f->fn->name, core_names[c->id]);
}

machine *machine_new(const xprogram *p, const machine_options *o)
{
    machine *m = xcalloc(1, sizeof *m);
    m->p = p;
    if (o)
        m->opt = *o;
    else
        machine_options_init(&m->opt);
    if (m->opt.max_depth <= 0)
        m->opt.max_depth = 1000;
    m->rng = m->opt.seed ? m->opt.seed : 0x9E3779B97F4A7C15ull;
    xrt_init(&m->global_rt);
    xrt_init(&m->grp.rt);
    for (int i = 0; i < EXEC_NCORES; i++) {
        core *c = &m->cores[i];
        c->calls = xcalloc(p->nfuncs ? p->nfuncs : 1, sizeof *c->calls);
        c->id = i;
        c->lane = i == EXEC_CORE_AIV1 ? 1 : 0;
        c->state = CORE_IDLE;
        c->rt = &m->global_rt;
        c->ctx.m = m;
        c->ctx.core = c;
        c->ctx.profile = m->opt.profile;
    }
    if (m->opt.provenance)
        m->prov = exec_prov_new();
    if (m->opt.semantics == EXEC_SEM_DEVICE)
        m->taskgraph = exec_tasks_new();
    if (m->opt.memcheck)
        m->mem = exec_memcheck_new(&m->opt, p);
    if (m->opt.semantics == EXEC_SEM_DEVICE)
        m->race = exec_gmrace_new();
    m->where_token = mem_where_push_fn(machine_where, m);
    return m;
}


void machine_free(machine *m)
{
    if (!m)
        return;
    for (int i = 0; i < EXEC_NCORES; i++) {
        machine_core_clear(&m->cores[i]);
        free(m->cores[i].frames);
        free(m->cores[i].calls);
        strbuf_free(&m->cores[i].ctx.err);
    }
    spmd_barrier_clear(&m->bar);
    xrt_free(&m->global_rt);
    xrt_free(&m->grp.rt);
    strbuf_free(&m->error);
    strbuf_free(&m->play_err);
    free(m->ref_note);
    for (int i = 0; i < EXEC_SEMDIFF_COUNT; i++)
        free(m->differs[i]);
    exec_tasks_free(m->taskgraph);
    exec_prov_free(m->prov);
    exec_memcheck_free(m->mem);
    exec_gmrace_free(m->race);
    exec_write_log_free(m->wlog);
    mem_where_pop(m->where_token);
    free(m);
}

void machine_set_write_hook(machine *m, machine_write_hook fn, void *ud)
{
    m->hook = fn;
    m->hook_ud = ud;
}

void machine_set_gm_hook(machine *m, machine_gm_hook fn, void *ud)
{
    m->gm_hook = fn;
    m->gm_hook_ud = ud;
}

void machine_set_read_hook(machine *m, machine_read_hook fn, void *ud)
{
    m->read_hook = fn;
    m->read_hook_ud = ud;
}

/* An op's operand for the read hook: a tensor, or the tensors of a list. */
static void note_read(machine *m, const core *c, const value *v)
{
    if (v->kind == VAL_TENSOR && v->u.t)
        m->read_hook(m->read_hook_ud, c->id, v->u.t);
    else if (v->kind == VAL_TUPLE && v->u.tuple)
        for (uint32_t i = 0; i < v->u.tuple->n; i++)
            if (v->u.tuple->items[i].kind == VAL_TENSOR && v->u.tuple->items[i].u.t)
                m->read_hook(m->read_hook_ud, c->id, v->u.tuple->items[i].u.t);
}

const char *machine_error(const machine *m)
{
    return strbuf_str(&m->error);
}

int machine_error_is_ref(const machine *m)
{
    return m->error_ref;
}

const char *machine_ref_note(const machine *m)
{
    return m->ref_note;
}

const char *machine_ref_differs(const machine *m, int id)
{
    return id >= 0 && id < EXEC_SEMDIFF_COUNT ? m->differs[id] : NULL;
}

/* Device semantics met difference id at sp: the first of each kind is kept
 * for the report ("REF differs here"). */
static void note_differs(machine *m, const ir_span *sp, int id, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void note_differs(machine *m, const ir_span *sp, int id, const char *fmt, ...)
{
    if (m->opt.semantics != EXEC_SEM_DEVICE || id < 0 || id >= EXEC_SEMDIFF_COUNT || m->differs[id])
        return;
    strbuf nb = STRBUF_INIT;
    strbuf_printf(&nb, "%u:%u: ", sp ? sp->line : 0, sp ? sp->col : 0);
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(&nb, fmt, ap);
    va_end(ap);
    m->differs[id] = strbuf_detach(&nb);
}

int machine_finished(const machine *m)
{
    return m->finished;
}

const value *machine_result(const machine *m)
{
    return &m->cores[EXEC_CORE_HOST].result;
}

uint64_t machine_steps(const machine *m)
{
    return m->steps;
}

/* ---- errors ------------------------------------------------------------- */

static const ir_span *inst_span(const xinst *in)
{
    return in && in->stmt ? &in->stmt->span : NULL;
}

/* Records an error of core c; the message is ctx->err (or msg). */
static ptodb_status core_error(machine *m, core *c, const xinst *in, ptodb_status st)
{
    exec_ctx *ctx = &c->ctx;
    const ir_span *sp = ctx->fail_at ? &ctx->fail_at->span : inst_span(in);
    const char *fname = c->depth > 0 ? c->frames[c->depth - 1].fn->name : "?";
    strbuf msg = STRBUF_INIT;
    strbuf_printf(&msg, "%s:%u:%u: in %s: %s%s", m->p->path, sp ? sp->line : 0, sp ? sp->col : 0,
                  fname, ctx->ref_fail ? "REF would fail here: " : "",
                  ctx->err_set ? strbuf_str(&ctx->err) : ptodb_status_message(st));
    strbuf_clear(&m->error);
    if (m->grp.active && c->in_group && !m->grp.direct) {
        strbuf_printf(&m->error, "Mixed-kernel execution failed in %s (lane=", fname);
        if (c->id == EXEC_CORE_AIC)
            strbuf_puts(&m->error, "None");
        else
            strbuf_printf(&m->error, "%d", c->lane);
        strbuf_printf(&m->error, ") for %s [core %s]\n", m->grp.g->name, core_names[c->id]);
    }
    strbuf_puts(&m->error, strbuf_str(&msg));
    strbuf_free(&msg);
    m->error_ref = ctx->ref_fail;
    c->state = CORE_FAILED;
    return st == PTODB_OK || st == PTODB_BLOCKED ? PTODB_ERR_RUNTIME : st;
}

static ptodb_status efail(exec_ctx *ctx, const xexpr *x, int ref, ptodb_status st, const char *fmt,
                          ...) __attribute__((format(printf, 5, 6)));

static ptodb_status efail(exec_ctx *ctx, const xexpr *x, int ref, ptodb_status st, const char *fmt, ...)
{
    if (!ctx->err_set) {
        va_list ap;
        va_start(ap, fmt);
        strbuf_clear(&ctx->err);
        strbuf_vprintf(&ctx->err, fmt, ap);
        va_end(ap);
        ctx->err_set = 1;
        ctx->ref_fail = ref;
        ctx->fail_at = x ? x->src : NULL;
    }
    return st;
}

/* ---- frames ------------------------------------------------------------- */

static const char *py_type_name(const value *v)
{
    switch (v->kind) {
    case VAL_NONE: return "<class 'NoneType'>";
    case VAL_BOOL: return "<class 'bool'>";
    case VAL_INT: return "<class 'int'>";
    case VAL_FLOAT: return "<class 'float'>";
    case VAL_TUPLE: return "<class 'tuple'>";
    case VAL_STR: return "<class 'str'>";
    default: return "<class 'object'>";
    }
}

/* REF's check_shapes assertions (semantics.md §2.4). full = 0: parameter
 * entry (isinstance + dtype only). */
static ptodb_status check_type(exec_ctx *ctx, const exec_type *t, const char *name, const value *v,
                               int full, const xexpr *at)
{
    if (!t || (t->kind != EXEC_TYPE_TENSOR && t->kind != EXEC_TYPE_TILE))
        return PTODB_OK;
    if (v->kind != VAL_TENSOR)
        return efail(ctx, at, 1, PTODB_ERR_RUNTIME,
                     "AssertionError: Expected %s to be a Tensor, got %s", name, py_type_name(v));
    const tensor *x = v->u.t;
    if (full && t->ndim >= 0) {
        int all_static = 1;
        for (int d = 0; d < t->ndim; d++)
            if (t->dims[d] < 0)
                all_static = 0;
        int bad = 0;
        if (all_static) {
            if (x->ndim != t->ndim)
                bad = 1;
            for (int d = 0; d < t->ndim && !bad; d++)
                if (x->shape[d] != t->dims[d])
                    bad = 1;
            if (bad) {
                strbuf e = STRBUF_INIT, g = STRBUF_INIT;
                for (int d = 0; d < t->ndim; d++)
                    strbuf_printf(&e, "%s%lld", d ? ", " : "", (long long)t->dims[d]);
                if (t->ndim == 1)
                    strbuf_putc(&e, ',');
                for (int d = 0; d < x->ndim; d++)
                    strbuf_printf(&g, "%s%lld", d ? ", " : "", (long long)x->shape[d]);
                efail(ctx, at, 1, PTODB_ERR_SHAPE,
                      "AssertionError: Shape mismatch for %s: expected (%s), got torch.Size([%s])",
                      name, strbuf_str(&e), strbuf_str(&g));
                strbuf_free(&e);
                strbuf_free(&g);
                return PTODB_ERR_SHAPE;
            }
        } else {
            if (x->ndim != t->ndim)
                return efail(ctx, at, 1, PTODB_ERR_SHAPE,
                             "AssertionError: Rank mismatch for %s: expected %dD, got %dD", name,
                             t->ndim, x->ndim);
            for (int d = 0; d < t->ndim; d++)
                if (t->dims[d] >= 0 && x->shape[d] != t->dims[d])
                    return efail(ctx, at, 1, PTODB_ERR_SHAPE,
                                 "AssertionError: Dim %d mismatch for %s: expected %lld, got %lld", d,
                                 name, (long long)t->dims[d], (long long)x->shape[d]);
        }
    }
    if (t->ir_dtype >= 0 && x->dtype != t->dtype)
        return efail(ctx, at, 1, PTODB_ERR_RUNTIME,
                     "AssertionError: Dtype mismatch for %s: expected %s, got %s", name,
                     dtype_torch_name(t->dtype), dtype_torch_name(x->dtype));
    return PTODB_OK;
}

/* Under device semantics REF's check_shapes assertions are not the
 * device's: the device has no such check, a buffer is what the IR's type
 * says it is. A value whose shape or dtype differs from its declared type is
 * noted (semantics.h, check-shapes) and, where the bytes allow, seen as the
 * type: the same elements in the declared shape (an alias FoldNoOpReshape
 * left, a gemv's [16, N] with valid [1, N]), a same-width signed integer
 * read as the unsigned type it declares (the harness passes UINT16/UINT32 as
 * int16/int32 bits; PyPTO src/ir/core/dtype.h), another dtype converted. The
 * run goes on; only the outputs' comparison with golden is a verdict. */
static ptodb_status device_conform(machine *m, exec_ctx *ctx, const ir_span *sp, const exec_type *t,
                                   value *v, ptodb_status st)
{
    if (st == PTODB_OK || m->opt.semantics != EXEC_SEM_DEVICE || !ctx->err_set)
        return st;
    note_differs(m, sp, EXEC_SEMDIFF_CHECK_SHAPES, "the value has another shape or dtype than its type says "
                 "(REF would fail: %s)", strbuf_str(&ctx->err));
    strbuf_clear(&ctx->err);
    ctx->err_set = 0;
    ctx->ref_fail = 0;
    ctx->fail_at = NULL;
    if (v->kind != VAL_TENSOR)
        return PTODB_OK;
    tensor *x = v->u.t, *y = NULL;
    ptodb_status vs = PTODB_OK;
    int all_static = t->ndim >= 0;
    for (int d = 0; d < t->ndim && all_static; d++)
        all_static = t->dims[d] >= 0;
    if (all_static && tensor_shape_numel(t->ndim, t->dims) == tensor_shape_numel(x->ndim, x->shape) &&
        (t->ndim != x->ndim || memcmp(t->dims, x->shape, (size_t)x->ndim * sizeof *x->shape) != 0)) {
        y = tensor_reshape(x, t->ndim, t->dims, &vs);
        if (y) {
            /* the same bytes in the declared shape: the value stays where its
             * source lies, so a view of it (a tile.slice) is placed on its
             * source's tile. FoldNoOpReshape folds a reshape only when both
             * sides share one MemRef base and buffer signature, and leaves
             * `lhs = src` (pypto src/ir/transforms/
             * fold_no_op_reshape_pass.cpp:37-73) */
            y->mem_tile = x->mem_tile;
            y->mem_gen = x->mem_gen;
            y->mem_core = x->mem_core;
            value_clear(v);
            *v = value_tensor(y);
            x = y;
        }
    }
    if (t->ir_dtype >= 0 && x->dtype != t->dtype) {
        int ubytes = kernel_unsigned_bytes(t->ir_dtype);
        int zext = (ubytes == 4 && x->dtype == DTYPE_INT32) || (ubytes == 2 && x->dtype == DTYPE_INT16);
        y = tensor_cast(x, t->dtype);
        if (y && zext) {
            /* the same bits, unsigned: add 2^w to the negative ones */
            int64_t wrap = (int64_t)1 << (8 * ubytes);
            int64_t n = tensor_shape_numel(y->ndim, y->shape);
            if (t->dtype == DTYPE_INT64) {
                int64_t *p = tensor_data(y);
                for (int64_t i = 0; i < n; i++)
                    p[i] += p[i] < 0 ? wrap : 0;
            } else if (t->dtype == DTYPE_INT32) {
                int32_t *p = tensor_data(y);
                for (int64_t i = 0; i < n; i++)
                    p[i] += p[i] < 0 ? (int32_t)wrap : 0;
            }
        }
        if (y) {
            value_clear(v);
            *v = value_tensor(y);
        }
    }
    return PTODB_OK;
}

/* Pushes a frame for fn; takes ownership of args. */
static ptodb_status frame_push(machine *m, core *c, const xfunc *fn, value *args, uint32_t nargs)
{
    exec_ctx *ctx = &c->ctx;
    if (nargs != fn->nparams) {
        for (uint32_t i = 0; i < nargs; i++)
            value_clear(&args[i]);
        return efail(ctx, NULL, 1, PTODB_ERR_RUNTIME,
                     "TypeError: %s() takes %u positional arguments but %u were given", fn->name,
                     fn->nparams, nargs);
    }
    if (fn->src->external_source) {
        /* the kernel's body is C++ (pl.function(external_source=...)), not
         * IR: running its `pass` placeholder would leave its outputs as they
         * were, a silent wrong answer */
        const char *path = fn->src->external_source->u.str.value;
        const char *base = path ? strrchr(path, '/') : NULL;
        for (uint32_t i = 0; i < nargs; i++)
            value_clear(&args[i]);
        return efail(ctx, NULL, 0, PTODB_ERR_UNSUPPORTED,
                     "%s is an external kernel: its body is the C++ file %s (external_source=), not IR, so no pass "
                     "dump says what it computes; ptodb does not run C++ kernels",
                     fn->name, base ? base + 1 : path ? path : "?");
    }
    if (c->depth >= m->opt.max_depth) {
        for (uint32_t i = 0; i < nargs; i++)
            value_clear(&args[i]);
        return efail(ctx, NULL, 0, PTODB_ERR_RUNTIME,
                     "RecursionError: call depth exceeds %d frames on core %s (calling %s)",
                     m->opt.max_depth, core_names[c->id], fn->name);
    }
    if (c->depth == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 8;
        c->frames = xreallocarray(c->frames, (size_t)c->cap, sizeof *c->frames);
    }
    if (c->depth == 0 && c->kept) {
        machine_frame_free(&c->frames[0]); /* the last run's frame, kept until now */
        c->kept = 0;
    }
    if (m->mem)
        exec_memcheck_call(m->mem, c, fn, c->depth ? c->frames[c->depth - 1].fn : NULL);
    xframe *f = &c->frames[c->depth];
    memset(f, 0, sizeof *f);
    f->fn = fn;
    f->block_idx = c->depth > 0 ? c->frames[c->depth - 1].block_idx : 0;
    f->block_num = c->depth > 0 ? c->frames[c->depth - 1].block_num : 1;
    f->activation = c->calls[fn - m->p->funcs]++;
    f->slots = xcalloc(fn->nslots ? fn->nslots : 1, sizeof(value));
    f->loops = fn->nloops ? xcalloc(fn->nloops, sizeof(xloop)) : NULL;
    c->depth++;
    for (uint32_t i = 0; i < nargs; i++)
        f->slots[fn->src->params[i].slot] = args[i];
    if (m->opt.check_shapes)
        for (uint32_t i = 0; i < nargs; i++) {
            ptodb_status st = check_type(ctx, &fn->param_types[i], fn->slot_names[fn->src->params[i].slot],
                                         &f->slots[fn->src->params[i].slot], 0, NULL);
            st = device_conform(m, ctx, &fn->src->params[i].span, &fn->param_types[i],
                                &f->slots[fn->src->params[i].slot], st);
            if (st != PTODB_OK)
                return st;
        }
    if (fn->ndyn_binds && (!fn->dyn_device_only || m->opt.semantics == EXEC_SEM_DEVICE)) {
        f->dyns = xcalloc(m->p->ndyns, sizeof(value));
        for (uint32_t i = 0; i < fn->ndyn_binds; i++) {
            const xdyn_bind *b = &fn->dyn_binds[i];
            const value *pv = &f->slots[fn->src->params[b->param].slot];
            if (pv->kind != VAL_TENSOR || b->axis >= pv->u.t->ndim)
                continue;
            int64_t e = pv->u.t->shape[b->axis], v = e;
            switch (b->how) {
            case XDYN_BARE: break;
            case XDYN_MINUS_C: v = e - b->c; break;
            case XDYN_PLUS_C: v = e + b->c; break;
            case XDYN_C_MINUS: v = b->c - e; break;
            case XDYN_DIV_C: /* Python's floor division */
                v = e / b->c - ((e % b->c != 0) && ((e < 0) != (b->c < 0)));
                break;
            case XDYN_MUL_C: v = e * b->c; break;
            }
            f->dyns[b->dyn] = value_int(v);
        }
    }
    return PTODB_OK;
}

/* v's tensor replaced by an alias of its own (tensor_alias), so that its
 * attributes change without changing another variable's; NULL when no
 * alias could be made (v unchanged). */
static tensor *own_alias(value *v)
{
    ptodb_status vs;
    tensor *w = tensor_alias(v->u.t, &vs);
    if (!w)
        return NULL;
    tensor_unref(v->u.t);
    v->u.t = w;
    return w;
}

/* Device semantics: an elementwise, unary or cast result keeps its first
 * operand's valid region (PyPTO's type deduction: tile_view.valid_shape =
 * GetValidShape(lhs), pypto src/ir/op/tile_ops/elementwise.cpp, unary.cpp:
 * 162-165), also where no annotation says so (a call nested in a store's
 * argument); REF's torch result has none. */
/* the ops whose result takes its first operand's valid region */
static int inherits_valid(int op)
{
    return exec_elementwise_reuses_dead_operand(op) || exec_unary_reuses_dead_operand(op) ||
           op == IR_OP_TILE_CAST || op == IR_OP_TENSOR_CAST;
}

static void inherit_valid(int op, const value *src, const tensor *before, value *out)
{
    if (!inherits_valid(op))
        return;
    if (src->kind != VAL_TENSOR || out->kind != VAL_TENSOR || !src->u.t || !out->u.t)
        return;
    /* the operand as it was before the op: an op that wrote its result into
     * this operand's buffer (machine_options.reuse_dead) cleared its valid
     * region, as a fresh result's; the result keeps it all the same, or
     * --batch (which reuses) and a session (which does not) would see
     * other regions and tell two passes apart differently */
    const tensor *s = before ? before : src->u.t;
    tensor *x = out->u.t;
    if ((x == src->u.t && !before) || x->valid_ndim >= 0 || s->valid_ndim != s->ndim || x->ndim != s->ndim ||
        memcmp(x->shape, s->shape, (size_t)x->ndim * sizeof *x->shape) != 0)
        return;
    if (x->refcount > 1 && !(x = own_alias(out)))
        return;
    tensor_copy_attrs(x, s);
    x->valid_declared = 1;
}

/* Device semantics: a tile matmul's or gemv's result has the valid region
 * [lhs's valid rows, rhs's valid columns] (PyPTO's type deduction of
 * tile.matmul/gemv: a [1, K] x [K, N] gemv is a [16, N] tile with valid
 * [1, N]), also nested in a store's argument where no annotation says so. */
static void matmul_valid(int op, const value *pos, uint32_t np, value *out)
{
    int acc = op == IR_OP_TILE_MATMUL_ACC || op == IR_OP_TILE_GEMV_ACC;
    if (!(acc || op == IR_OP_TILE_MATMUL || op == IR_OP_TILE_MATMUL_BIAS || op == IR_OP_TILE_GEMV ||
          op == IR_OP_TILE_GEMV_BIAS))
        return;
    uint32_t l = acc ? 1 : 0, r = l + 1;
    if (np <= r || pos[l].kind != VAL_TENSOR || pos[r].kind != VAL_TENSOR || out->kind != VAL_TENSOR ||
        !out->u.t || out->u.t->ndim != 2 || out->u.t->valid_ndim >= 0)
        return;
    const tensor *L = pos[l].u.t, *R = pos[r].u.t;
    if (!L || !R || L->ndim != 2 || R->ndim != 2 || (L->valid_ndim != 2 && R->valid_ndim != 2))
        return;
    tensor *x = out->u.t;
    int64_t vr = L->valid_ndim == 2 && L->valid[0] >= 0 ? L->valid[0] : L->shape[0];
    int64_t vc = R->valid_ndim == 2 && R->valid[1] >= 0 ? R->valid[1] : R->shape[1];
    if (vr > x->shape[0] || vc > x->shape[1] || (vr == x->shape[0] && vc == x->shape[1]))
        return;
    if (x->refcount > 1 && !(x = own_alias(out)))
        return;
    x->valid_ndim = 2;
    x->valid[0] = vr;
    x->valid[1] = vc;
    x->full_ndim = 2;
    x->full[0] = x->shape[0];
    x->full[1] = x->shape[1];
    x->valid_declared = 1;
}

/* ---- expressions -------------------------------------------------------- */

static ptodb_status eval(machine *m, core *c, xframe *f, const xexpr *x, value *out);

/* The pass's index from its file's name ("22_after_X.py": 22), or -1. */
static int pass_index_of(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    int n = 0, k = 0;
    while (b[k] >= '0' && b[k] <= '9' && k < 6)
        n = n * 10 + (b[k++] - '0');
    return k && b[k] == '_' ? n : -1;
}

/* The op's GM access raced (exec/gmrace.h): the statement fails with the
 * race's line, the tensor named by the operand that holds its bytes. */
static ptodb_status race_fail(machine *m, core *c, const xframe *f, const xexpr *x, const value *pos, uint32_t np)
{
    uint64_t s = exec_gmrace_storage(m->race);
    const char *name = NULL;
    const tensor *whole = NULL;
    for (uint32_t i = 0; i < np && !whole; i++) {
        const xexpr *ax = x->args[i];
        if (pos[i].kind != VAL_TENSOR || !pos[i].u.t || !pos[i].u.t->storage || pos[i].u.t->storage->id != s)
            continue;
        whole = pos[i].u.t;
        if (ax->kind == XE_SLOT && f->fn->slot_names && ax->id >= 0 && (uint32_t)ax->id < f->fn->nslots)
            name = f->fn->slot_names[ax->id];
    }
    strbuf msg = STRBUF_INIT;
    exec_gmrace_describe(m->race, name, name ? whole : NULL, pass_index_of(m->p->path), &msg);
    ptodb_status st = efail(&c->ctx, x, 0, PTODB_ERR_RUNTIME, "%s", strbuf_str(&msg));
    strbuf_free(&msg);
    return st;
}

static ptodb_status eval_op(machine *m, core *c, xframe *f, const xexpr *x, value *out)
{
    value posbuf[12], kwbuf[8];
    value *pos = x->nargs <= 12 ? posbuf : xcalloc(x->nargs, sizeof(value));
    value *kw = x->nkw <= 8 ? kwbuf : xcalloc(x->nkw, sizeof(value));
    ptodb_status st = PTODB_OK;
    uint32_t np = 0, nk = 0;
    for (; np < x->nargs; np++) {
        st = eval(m, c, f, x->args[np], &pos[np]);
        if (st != PTODB_OK)
            goto done;
    }
    for (; nk < x->nkw; nk++) {
        st = eval(m, c, f, x->kw[nk], &kw[nk]);
        if (st != PTODB_OK)
            goto done;
    }
    op_args a;
    a.op = x->id;
    a.pos = pos;
    a.npos = x->nargs;
    a.kw_ids = x->kw_ids;
    a.kw = kw;
    a.nkw = x->nkw;
    a.result_type = x->rtype;
    /* a multi-rank op's operands are descriptors (a window named to reach a
     * peer's): the op reports what it really reads (exec/comm.h) */
    const ir_op_info *oinfo = m->read_hook ? ir_op_info_get(x->id) : NULL;
    if (m->read_hook && !(oinfo && ir_op_family_multi_rank(oinfo->family))) {
        for (uint32_t i = 0; i < np; i++)
            note_read(m, c, &pos[i]);
        for (uint32_t i = 0; i < nk; i++)
            note_read(m, c, &kw[i]);
    }
    /* provenance from the operands as they are before the op runs (an op
     * writing an operand in place drops that operand's) */
    uint64_t prov_h = 0;
    const value *prov_pass = NULL;
    if (m->prov)
        prov_h = exec_prov_op_hash(m->prov, x, pos, np, kw, nk, &prov_pass);
    if (m->mem)
        exec_memcheck_operands(m->mem, m, c, f, x, pos, np, kw, nk);
    *out = value_none();
    c->ctx.ref_note = NULL;
    c->ctx.differs_id = -1;
    if (c->replay && x->id == IR_OP_TILE_STORE && np >= 3) {
        /* lane 1 of a no-split dual dispatch replays the body: its stores
         * are dropped and pass their destination through (pypto
         * src/ir/transforms/split_vector_kernel_pass.cpp:398-431) */
        *out = value_copy(&pos[2]);
    } else {
        /* the first operand's valid region before the op (a reuse clears
         * it), kept only where inherit_valid reads it: a whole tensor's copy
         * at every op was a cache miss of its own */
        tensor first;
        const tensor *first_before = NULL;
        if (m->opt.reuse_dead && m->opt.semantics == EXEC_SEM_DEVICE && np > 0 && pos[0].kind == VAL_TENSOR &&
            pos[0].u.t && pos[0].u.t->valid_ndim >= 0 && inherits_valid(x->id)) {
            first = *pos[0].u.t;
            first_before = &first;
        }
        c->ctx.raced = 0;
        st = x->fn(&c->ctx, &a, out);
        if (c->ctx.raced && st == PTODB_OK)
            st = race_fail(m, c, f, x, pos, np);
        c->ctx.raced = 0;
        if (st == PTODB_OK && m->opt.semantics == EXEC_SEM_DEVICE && np > 0) {
            inherit_valid(x->id, &pos[0], first_before, out);
            matmul_valid(x->id, pos, np, out);
        }
    }
    if (c->ctx.differs_id >= 0 && st == PTODB_OK)
        note_differs(m, x->src ? &x->src->span : NULL, c->ctx.differs_id, "%s", c->ctx.differs_what);
    if (m->mem && st == PTODB_OK)
        exec_memcheck_op_done(m->mem, c, f, x, pos, np, out);
    if (m->prov && st == PTODB_OK)
        exec_prov_set_result(m->prov, c->id, m->steps, prov_h, prov_pass, out);
    if (c->ctx.ref_note && st == PTODB_OK && !m->ref_note) {
        strbuf nb = STRBUF_INIT;
        if (x->src)
            strbuf_printf(&nb, "%u:%u: ", x->src->span.line, x->src->span.col);
        strbuf_puts(&nb, c->ctx.ref_note);
        m->ref_note = strbuf_detach(&nb);
    }
    if (st == PTODB_OK && ((out->kind == VAL_TENSOR && !out->u.t) ||
                           (out->kind == VAL_TUPLE && !out->u.tuple))) {
        out->kind = VAL_NONE;
        st = exec_fail(&c->ctx, PTODB_ERR_RUNTIME, "op returned an empty value (ptodb bug)");
    }
    if (st != PTODB_OK && st != PTODB_BLOCKED) {
        exec_ctx *ctx = &c->ctx;
        const ir_op_info *info = ir_op_info_get(x->id);
        if (ctx->err_set && !ctx->fail_at) {
            /* prefix the op name */
            strbuf t = STRBUF_INIT;
            const char *name = info ? info->name : "op";
            size_t nl = strlen(name);
            const char *e0 = strbuf_str(&ctx->err);
            if (strncmp(e0, name, nl) == 0 && e0[nl] == ':')
                strbuf_puts(&t, e0); /* the op already named itself */
            else
                strbuf_printf(&t, "%s: %s", name, e0);
            strbuf_clear(&ctx->err);
            strbuf_puts(&ctx->err, strbuf_str(&t));
            strbuf_free(&t);
            ctx->fail_at = x->src;
            const char *e = strbuf_str(&ctx->err);
            /* torch-side failures are REF's too */
            if (strstr(e, "Error:") || strstr(e, "RuntimeError"))
                ctx->ref_fail = 1;
        } else if (!ctx->err_set) {
            efail(ctx, x, 0, st, "%s failed: %s", info ? info->name : "op", ptodb_status_message(st));
        }
        value_clear(out);
    }
done:
    for (uint32_t i = 0; i < np; i++)
        value_clear(&pos[i]);
    for (uint32_t i = 0; i < nk; i++)
        value_clear(&kw[i]);
    if (pos != posbuf)
        free(pos);
    if (kw != kwbuf)
        free(kw);
    return st;
}

static ptodb_status eval(machine *m, core *c, xframe *f, const xexpr *x, value *out)
{
    exec_ctx *ctx = &c->ctx;
    ptodb_status st;
    switch (x->kind) {
    case XE_CONST:
        *out = x->cval;
        return PTODB_OK;
    case XE_SLOT: {
        const value *v = &f->slots[x->id];
        if (v->kind == VAL_UNBOUND)
            return efail(ctx, x, 1, PTODB_ERR_RUNTIME, "NameError: name '%s' is not defined",
                         (uint32_t)x->id < f->fn->src->nslots ? f->fn->slot_names[x->id] : "?");
        if (x->dead_after && m->opt.reuse_dead) {
            /* the last read of this value (program.c's liveness): the
             * op's argument takes the frame's reference, and a later read
             * (a liveness bug) fails with a NameError instead of seeing a
             * buffer the op may have reused */
            *out = *v;
            f->slots[x->id].kind = VAL_UNBOUND;
            f->slots[x->id].u.i = 0;
            return PTODB_OK;
        }
        *out = value_copy(v);
        return PTODB_OK;
    }
    case XE_DYN:
        if (!f->dyns || f->dyns[x->id].kind == VAL_UNBOUND)
            return efail(ctx, x, 1, PTODB_ERR_RUNTIME, "NameError: name '%s' is not defined",
                         m->p->mod->program->dyns[x->id].name->text);
        *out = f->dyns[x->id];
        return PTODB_OK;
    case XE_OP:
        return eval_op(m, c, f, x, out);
    case XE_BIN: {
        value a, b;
        if ((st = eval(m, c, f, x->args[0], &a)) != PTODB_OK)
            return st;
        if ((st = eval(m, c, f, x->args[1], &b)) != PTODB_OK) {
            value_clear(&a);
            return st;
        }
        st = exec_scalar_binop(ctx, x->op, &a, &b, out);
        value_clear(&a);
        value_clear(&b);
        if (st != PTODB_OK && !ctx->fail_at) {
            ctx->fail_at = x->src;
            ctx->ref_fail = strstr(strbuf_str(&ctx->err), "Error") != NULL;
        }
        return st;
    }
    case XE_AND:
    case XE_OR: {
        value a;
        if ((st = eval(m, c, f, x->args[0], &a)) != PTODB_OK)
            return st;
        int t = value_truthy(&a);
        if (t < 0) {
            value_clear(&a);
            return efail(ctx, x, 1, PTODB_ERR_RUNTIME,
                         "RuntimeError: Boolean value of Tensor with more than one value is ambiguous");
        }
        if ((x->kind == XE_AND && !t) || (x->kind == XE_OR && t)) {
            *out = a;
            return PTODB_OK;
        }
        value_clear(&a);
        return eval(m, c, f, x->args[1], out);
    }
    case XE_UN: {
        value a;
        if ((st = eval(m, c, f, x->args[0], &a)) != PTODB_OK)
            return st;
        st = exec_scalar_unop(ctx, x->op, &a, out);
        value_clear(&a);
        if (st != PTODB_OK && !ctx->fail_at) {
            ctx->fail_at = x->src;
            ctx->ref_fail = 1;
        }
        return st;
    }
    case XE_MIN:
    case XE_MAX: {
        if (x->nargs != 2)
            return efail(ctx, x, 0, PTODB_ERR_UNSUPPORTED, "min/max need two arguments");
        value a, b, r;
        if ((st = eval(m, c, f, x->args[0], &a)) != PTODB_OK)
            return st;
        if ((st = eval(m, c, f, x->args[1], &b)) != PTODB_OK) {
            value_clear(&a);
            return st;
        }
        /* min(a, b): b if b < a else a; max: b if b > a else a */
        st = exec_scalar_binop(ctx, x->kind == XE_MIN ? IR_BINOP_LT : IR_BINOP_GT, &b, &a, &r);
        if (st != PTODB_OK) {
            value_clear(&a);
            value_clear(&b);
            if (!ctx->fail_at)
                ctx->fail_at = x->src;
            return st;
        }
        int t = value_truthy(&r);
        value_clear(&r);
        if (t) {
            *out = b;
            value_clear(&a);
        } else {
            *out = a;
            value_clear(&b);
        }
        return PTODB_OK;
    }
    case XE_ABS: {
        value a;
        if ((st = eval(m, c, f, x->args[0], &a)) != PTODB_OK)
            return st;
        switch (a.kind) {
        case VAL_BOOL: *out = value_int(a.u.b); break;
        case VAL_INT:
            if (a.u.i == INT64_MIN)
                return efail(ctx, x, 0, PTODB_ERR_RUNTIME, "integer overflow in abs()");
            *out = value_int(a.u.i < 0 ? -a.u.i : a.u.i);
            break;
        case VAL_FLOAT: *out = value_float(fabs(a.u.f)); break;
        case VAL_TENSOR:
            if (a.u.t->ndim == 0) {
                tensor *r = tensor_zeros(a.u.t->dtype, 0, NULL, NULL);
                if (dtype_is_float(a.u.t->dtype))
                    tensor_set(r, NULL, fabs(tensor_get(a.u.t, NULL)));
                else {
                    int64_t v = tensor_get_i64(a.u.t, NULL);
                    tensor_set_i64(r, NULL, v < 0 ? (int64_t)(0 - (uint64_t)v) : v);
                }
                value_clear(&a);
                *out = value_tensor(r);
                break;
            }
            /* fall through */
        default:
            value_clear(&a);
            return efail(ctx, x, 1, PTODB_ERR_RUNTIME, "TypeError: bad operand type for abs()");
        }
        return PTODB_OK;
    }
    case XE_CAST: {
        value a;
        if ((st = eval(m, c, f, x->args[0], &a)) != PTODB_OK)
            return st;
        if (a.kind != VAL_TENSOR && m->opt.semantics == EXEC_SEM_DEVICE &&
            (a.kind == VAL_INT || a.kind == VAL_FLOAT || a.kind == VAL_BOOL)) {
            /* the device converts a scalar (a loop index, an int the host
             * passed) as it converts a scalar register */
            value dv0 = value_enum(x->id);
            dtype_id dt0;
            double v0;
            if (value_as_dtype(&dv0, &dt0) == 0 && value_as_double(&a, &v0) == 0) {
                tensor *r0 = tensor_zeros(a.kind == VAL_INT ? DTYPE_INT64 : DTYPE_FP64, 0, NULL, NULL);
                if (a.kind == VAL_INT)
                    tensor_set_i64(r0, NULL, a.u.i);
                else
                    tensor_set(r0, NULL, v0);
                tensor *r = tensor_cast(r0, dt0);
                tensor_unref(r0);
                note_differs(m, &x->src->span, EXEC_SEMDIFF_SCALAR_CAST,
                             "pl.cast converts a Python number to a scalar of its dtype (REF would fail: "
                             "AttributeError: 'int' object has no attribute 'to')");
                *out = value_tensor(r);
                return PTODB_OK;
            }
        }
        if (a.kind != VAL_TENSOR) {
            const char *tn = a.kind == VAL_INT ? "int" : a.kind == VAL_FLOAT ? "float"
                             : a.kind == VAL_BOOL ? "bool" : value_kind_name((value_kind)a.kind);
            value_clear(&a);
            return efail(ctx, x, 1, PTODB_ERR_RUNTIME,
                         "AttributeError: '%s' object has no attribute 'to'", tn);
        }
        value dv = value_enum(x->id);
        dtype_id dt;
        if (value_as_dtype(&dv, &dt) != 0) {
            value_clear(&a);
            return efail(ctx, x, 0, PTODB_ERR_RUNTIME, "pl.cast: not a dtype");
        }
        tensor *r = tensor_cast(a.u.t, dt);
        value_clear(&a);
        *out = value_tensor(r);
        return PTODB_OK;
    }
    case XE_TUPLE: {
        value t = value_tuple_new(x->nargs);
        for (uint32_t i = 0; i < x->nargs; i++) {
            if ((st = eval(m, c, f, x->args[i], &t.u.tuple->items[i])) != PTODB_OK) {
                t.u.tuple->items[i] = value_none();
                value_clear(&t);
                return st;
            }
        }
        *out = t;
        return PTODB_OK;
    }
    case XE_INDEX: {
        value a;
        if ((st = eval(m, c, f, x->args[0], &a)) != PTODB_OK)
            return st;
        if (a.kind != VAL_TUPLE || x->id < 0 || (uint32_t)x->id >= a.u.tuple->n) {
            int is_t = a.kind == VAL_TUPLE;
            value_clear(&a);
            return efail(ctx, x, 1, PTODB_ERR_RUNTIME, "%s",
                         is_t ? "IndexError: tuple index out of range"
                              : "TypeError: object is not subscriptable");
        }
        *out = value_copy(&a.u.tuple->items[x->id]);
        value_clear(&a);
        return PTODB_OK;
    }
    case XE_LANE:
        *out = value_int(c->lane);
        return PTODB_OK;
    case XE_MANUAL_SCOPE:
        if (m->taskgraph)
            exec_tasks_scope(m->taskgraph);
        *out = value_none();
        return PTODB_OK;
    case XE_SYSREC: {
        xrt *rt = c->rt;
        int64_t k = x->cval.u.i;
        int who = c->id == EXEC_CORE_AIV0 ? 1 : c->id == EXEC_CORE_AIV1 ? 2 : 0;
        if (x->id == IR_OP_SYSTEM_FENCE || x->id == IR_OP_SYSTEM_CACHEINVALID) {
            const exec_comm *w = m->opt.comm;
            if (w && w->note_marker) {
                /* peeked, not evaluated: REF never evaluates the operands
                 * of these ops (semantics.md §3.10) */
                const value *v = x->nargs ? &f->slots[x->args[0]->id] : NULL;
                const tensor *t = v && v->kind == VAL_TENSOR ? v->u.t : NULL;
                int kind = x->id == IR_OP_SYSTEM_FENCE ? EXEC_MARK_FENCE
                           : k                         ? EXEC_MARK_INVALIDATE_REGION
                                                       : EXEC_MARK_INVALIDATE_ALL;
                w->note_marker(w->ud, w->rank, kind, t, (int)x->src->span.line, (int)x->src->span.col);
            }
            *out = value_none();
            return PTODB_OK;
        }
        if (x->id == IR_OP_SYSTEM_AIC_INITIALIZE_PIPE || x->id == IR_OP_SYSTEM_AIV_INITIALIZE_PIPE) {
            rt->pipe[who].set = 1;
            rt->pipe[who].dir_mask = (int)(k & 0xff);
            rt->pipe[who].slot_size = (int)((k >> 8) & 0xffffff);
            rt->pipe[who].slot_num = (int)((k >> 32) & 0xffff);
        } else if (x->id == IR_OP_SYSTEM_TFREE_TO_AIC) {
            rt->tfree_to_aic[c->lane & 1]++;
        } else {
            rt->tfree_to_aiv++;
        }
        *out = value_none();
        return PTODB_OK;
    }
    case XE_FAIL:
    default:
        return efail(ctx, x, x->ref_fail, x->ref_fail ? PTODB_ERR_RUNTIME : PTODB_ERR_UNSUPPORTED,
                     "%s", x->msg ? x->msg : "unsupported expression");
    }
}

/* range() argument: int, bool or a 0-d integer tensor. */
static ptodb_status range_int(exec_ctx *ctx, const xexpr *x, const value *v, int64_t *out)
{
    switch (v->kind) {
    case VAL_INT: *out = v->u.i; return PTODB_OK;
    case VAL_BOOL: *out = v->u.b; return PTODB_OK;
    case VAL_TENSOR:
        if (v->u.t->ndim == 0 && !dtype_is_float(v->u.t->dtype)) {
            *out = tensor_get_i64(v->u.t, NULL);
            return PTODB_OK;
        }
        return efail(ctx, x, 1, PTODB_ERR_RUNTIME,
                     "TypeError: only integer tensors of a single element can be converted to an index");
    case VAL_FLOAT:
        return efail(ctx, x, 1, PTODB_ERR_RUNTIME,
                     "TypeError: 'float' object cannot be interpreted as an integer");
    default:
        return efail(ctx, x, 1, PTODB_ERR_RUNTIME, "TypeError: '%s' object cannot be interpreted as an integer",
                     value_kind_name((value_kind)v->kind));
    }
}

static void slot_set(xframe *f, int32_t slot, value v)
{
    value_clear(&f->slots[slot]);
    f->slots[slot] = v;
}

/* Device semantics: a tile result (and a tensor whose TensorView declares
 * one) has the valid region its type declares
 * (EXEC_SEMDIFF_VALID_SHAPE); REF's op results carry none. A shared tensor
 * object gets a view of its own, so no other variable changes. */
static void device_valid_shape(const exec_type *t, value *v)
{
    if ((t->kind != EXEC_TYPE_TILE && t->kind != EXEC_TYPE_TENSOR) || t->mem_valid_ndim <= 0 || v->kind != VAL_TENSOR)
        return;
    tensor *x = v->u.t;
    if (x->ndim != t->mem_valid_ndim || x->ndim != t->ndim)
        return;
    int same = x->valid_ndim == t->mem_valid_ndim, inside = 1;
    for (int d = 0; d < x->ndim; d++) {
        if (t->mem_valid[d] < 0)
            return; /* a symbolic extent: the value's own (tile.load, set_validshape) */
        if (same && x->valid[d] != t->mem_valid[d])
            same = 0;
        if (t->mem_valid[d] > x->shape[d])
            inside = 0;
    }
    if (same || !inside)
        return;
    int had = x->valid_ndim >= 0;
    if (x->refcount > 1 && !(x = own_alias(v)))
        return;
    x->valid_ndim = t->mem_valid_ndim;
    memcpy(x->valid, t->mem_valid, sizeof x->valid);
    if (x->full_ndim < 0) {
        x->full_ndim = x->ndim;
        memcpy(x->full, x->shape, sizeof x->full);
    }
    if (!had) /* REF's has none: a store of it is where the two part (kernel_store_region) */
        x->valid_declared = 1;
}

/* Device semantics: the annotation of in with its symbolic valid extents
 * evaluated in frame f (before the op runs, so an operand the op takes
 * over is still there), into *out. A valid shape is what the type says
 * (pto-isa: an op iterates over dst.GetValidRow/GetValidCol, which the
 * tile's declaration sets); after SplitVectorKernel an idle lane's extents
 * are expressions of its subblock index that come out 0. */
static ptodb_status eval_valid_type(machine *m, core *c, xframe *f, const xinst *in, exec_type *out)
{
    *out = in->types[0];
    for (int d = 0; d < out->mem_valid_ndim; d++) {
        if (!in->valid_x[d])
            continue;
        value dv;
        ptodb_status st = eval(m, c, f, in->valid_x[d], &dv);
        if (st != PTODB_OK) {
            /* an extent the annotation names but nothing binds (PyPTO's
             * printer keeps a pre-inlining name there: pypto-lib's hc_pre
             * after InlineFunctions) is no error of the program: the
             * extent is left to the value, as before the types were read */
            exec_ctx *ctx = &c->ctx;
            strbuf_clear(&ctx->err);
            ctx->err_set = 0;
            ctx->ref_fail = 0;
            ctx->fail_at = NULL;
            out->mem_valid_ndim = 0;
            return PTODB_OK;
        }
        int64_t k;
        int bad = value_as_int(&dv, &k) != 0;
        value_clear(&dv);
        if (bad) { /* not a number: leave the extent to the value */
            out->mem_valid_ndim = 0;
            return PTODB_OK;
        }
        out->mem_valid[d] = k < 0 ? 0 : k;
    }
    return PTODB_OK;
}

/* Assigns v (owned) to slot with REF's type check; under device semantics
 * a mismatch is a note and the value is seen as its type (device_conform). */
static ptodb_status assign(machine *m, core *c, xframe *f, const xinst *in, uint32_t i, value v)
{
    if (in->types && i == 0 && m->opt.semantics == EXEC_SEM_DEVICE)
        device_valid_shape(&in->types[0], &v);
    if (m->opt.check_shapes && in->types && i == 0) {
        const char *name = in->names ? in->names[i] : "?";
        ptodb_status st = check_type(&c->ctx, &in->types[0], name, &v, 1, NULL); /* at the statement */
        st = device_conform(m, &c->ctx, inst_span(in), &in->types[0], &v, st);
        if (st != PTODB_OK) {
            value_clear(&v);
            return st;
        }
    }
    slot_set(f, in->slots[i], v);
    return PTODB_OK;
}

/* ---- groups ------------------------------------------------------------- */

/* What a group run starts: the AIC kernel (or none), the AIV kernel (or
 * none) on 1 or 2 lanes, and how the lanes behave. */
typedef struct launch {
    const xfunc *g;       /* named in reports: the Group, or the kernel called */
    const xfunc *aic, *aiv;
    int lanes;            /* AIV lanes: 1 or 2 (ignored without aiv) */
    int split_aiv;        /* a split_aiv kernel on two lanes, no AIC (REF's path too) */
    int dual_nosplit;     /* split=0 pipe ops involve both lanes */
    int whole;            /* the one AIV core is the whole vector side (device) */
    int replay;           /* lane 1 stores nothing (device, 910B) */
    int twin_lanes;       /* both lanes run one body on the same data (gmrace.h) */
    int64_t depth;        /* queue depth, -1: the --slot-depth default */
    int slot_num;         /* the pipes' slot_num (--slot-depth pipe) */
} launch;

/* The GM race check (exec/gmrace.h) of the group run just started by
 * host: its cores' clocks start, and its accesses are checked when more
 * than one thread runs (cores of the group, or blocks of an SPMD launch).
 * A call inside an SPMD launch's body is known by its call site (the
 * host's innermost frame and pc) and how many times its block made it: the
 * blocks' calls of one site are one runtime task. sync_events: a kernel
 * with cross-core events the machine does not order by; nothing of it is
 * checked. */
static void race_launch(machine *m, const core *host, int twin, int sync_events)
{
    group_run *g = &m->grp;
    g->race_instance = 0;
    for (int k = 0; k < g->ncores; k++)
        gmrace_clock_start(&m->cores[g->order[k]].race_clock, g->order[k]);
    const xframe *hf = host->depth > 0 ? &host->frames[host->depth - 1] : NULL;
    int spmd = m->race_spmd && hf && hf->block_num > 1;
    if (!m->race || !hf || sync_events || (g->ncores < 2 && !spmd)) {
        if (m->race)
            exec_gmrace_idle(m->race);
        return;
    }
    uint64_t site = (uint64_t)(hf->fn - m->p->funcs) << 32 ^ (uint64_t)hf->pc << 8 ^ (uint64_t)host->depth;
    g->race_instance = spmd ? m->race_spmd : ++m->race_serial;
    g->race_block = spmd ? hf->block_idx : 0;
    g->race_twin = twin;
    g->race_rec = exec_gmrace_launch(m->race, g->race_instance, site, g->race_block, twin);
}

/* 1 when parameter i of kernel fn (NULL: none) is Out or InOut. */
static int param_written(const xfunc *fn, uint32_t i)
{
    return fn && i < fn->nparams && fn->src->params[i].dir != IR_DIR_IN;
}

/* The launch's arguments that its kernels take only as In parameters (no
 * Out or InOut argument shares their storage): their reads cannot race
 * (exec_gmrace_read_only). */
static void race_read_only(machine *m, const launch *L, const value *args, uint32_t nargs)
{
    uint64_t *ids = xmalloc((nargs ? nargs : 1) * sizeof *ids);
    uint32_t n = 0;
    for (uint32_t i = 0; i < nargs; i++) {
        if (args[i].kind != VAL_TENSOR || !args[i].u.t || !args[i].u.t->storage)
            continue;
        uint64_t id = args[i].u.t->storage->id;
        int written = 0;
        for (uint32_t j = 0; j < nargs && !written; j++)
            written = (param_written(L->aic, j) || param_written(L->aiv, j)) && args[j].kind == VAL_TENSOR &&
                      args[j].u.t && args[j].u.t->storage && args[j].u.t->storage->id == id;
        if (!written)
            ids[n++] = id;
    }
    exec_gmrace_read_only(m->race, ids, n);
    free(ids);
}

static ptodb_status launch_start(machine *m, core *host, const launch *L, value *args, uint32_t nargs)
{
    group_run *g = &m->grp;
    exec_ctx *ctx = &host->ctx;
    if (g->active || host->in_group) {
        for (uint32_t i = 0; i < nargs; i++)
            value_clear(&args[i]);
        return efail(ctx, NULL, 0, PTODB_ERR_UNSUPPORTED,
                     "a group call inside a running group is not supported (%s)", L->g->name);
    }
    g->active = 1;
    g->split_aiv = L->split_aiv;
    g->g = L->g;
    g->bind_aic_pc = g->bind_aiv_pc = g->resume_pc = -1;
    g->fork = 0;
    g->direct = 0;
    xrt_reset(&g->rt);
    g->lanes = L->aiv ? L->lanes : 0;
    g->rt.dual_nosplit = L->dual_nosplit;
    g->ncores = 0;
    int aiv_first = m->opt.sched == EXEC_SCHED_AIV_FIRST;
    if (L->aic && !aiv_first)
        g->order[g->ncores++] = EXEC_CORE_AIC;
    if (L->aiv)
        g->order[g->ncores++] = EXEC_CORE_AIV0;
    if (L->aiv && L->lanes == 2)
        g->order[g->ncores++] = EXEC_CORE_AIV1;
    if (L->aic && aiv_first)
        g->order[g->ncores++] = EXEC_CORE_AIC;
    g->cur = 0;
    g->started = 0;
    int64_t depth = m->opt.slot_depth;
    if (depth < 0)
        depth = L->depth >= 0 ? L->depth : L->slot_num;
    xrt_set_limit(&g->rt, depth > 0 && depth < UINT32_MAX ? (uint32_t)depth : 0);
    ptodb_status st = PTODB_OK;
    for (int k = 0; k < g->ncores; k++) {
        core *c = &m->cores[g->order[k]];
        machine_core_clear(c);
        c->in_group = 1;
        c->rt = &g->rt;
        c->state = CORE_READY;
        c->whole = c->id == EXEC_CORE_AIV0 && L->whole;
        c->replay = c->id == EXEC_CORE_AIV1 && L->replay;
        c->ctx.err_set = 0;
        c->ctx.fail_at = NULL;
        c->ctx.ref_fail = 0;
        value *cp = xmalloc((nargs ? nargs : 1) * sizeof(value));
        for (uint32_t i = 0; i < nargs; i++)
            cp[i] = value_copy(&args[i]);
        const xfunc *fn = c->id == EXEC_CORE_AIC ? L->aic : L->aiv;
        ptodb_status s2 = frame_push(m, c, fn, cp, nargs);
        free(cp);
        if (c->depth > 0 && host->depth > 0) { /* the group runs the host's SPMD block */
            c->frames[0].block_idx = host->frames[host->depth - 1].block_idx;
            c->frames[0].block_num = host->frames[host->depth - 1].block_num;
        }
        if (s2 != PTODB_OK && st == PTODB_OK) {
            st = s2;
            core_error(m, c, NULL, s2);
        }
    }
    host->state = CORE_WAIT_GROUP;
    race_launch(m, host, L->twin_lanes, (L->aic && L->aic->sync_events) || (L->aiv && L->aiv->sync_events));
    if (g->race_instance)
        race_read_only(m, L, args, nargs);
    for (uint32_t i = 0; i < nargs; i++)
        value_clear(&args[i]);
    return st == PTODB_OK ? PTODB_OK : PTODB_ERR_RUNTIME;
}

/* REF's group call (semantics.md §6.1): G_aic and G_aiv by name, or a
 * split_aiv kernel on two lanes. */
static ptodb_status group_start(machine *m, core *host, const xfunc *callee, value *args,
                                uint32_t nargs, int split_aiv)
{
    launch L;
    memset(&L, 0, sizeof L);
    L.g = callee;
    L.split_aiv = split_aiv;
    L.depth = -1;
    if (split_aiv) {
        L.aiv = callee;
        L.lanes = 2;
        L.depth = 0;
        L.twin_lanes = 1; /* the cube part on both lanes */
    } else {
        L.aic = &m->p->funcs[callee->group.aic];
        L.aiv = &m->p->funcs[callee->group.aiv];
        L.lanes = callee->group.lanes;
        L.dual_nosplit = callee->group.split == 0 && callee->group.dual;
        L.twin_lanes = L.dual_nosplit;
        L.slot_num = callee->group.slot_num;
    }
    return launch_start(m, host, &L, args, nargs);
}

/* ---- device semantics: how the runtime launches kernels ----------------- */

/* The AIV side of a launch of kernel aiv under device semantics:
 *  - a split kernel SplitVectorKernel has not halved yet (a split mode from
 *    its func_attr or its pipe ops, neither split_aiv nor dual_aiv_dispatch:
 *    split_vector_kernel_pass.cpp:667-681 halves it into two lanes later)
 *    runs as one core over the whole tile (whole);
 *  - dual_aiv_dispatch or split_aiv: both lanes (orchestration_codegen.cpp
 *    :2796-2822, 2876; SplitVectorKernel stamps dual_aiv_dispatch on every
 *    split_aiv kernel: split_vector_kernel_pass.cpp:637-661);
 *  - else lane 0 alone.
 * On Ascend910B a no-split dual-dispatch kernel's lane 1 is a replay
 * (split_vector_kernel_pass.cpp:58-64, 398-456). */
static void dev_aiv_side(const machine *m, const xfunc *aiv, launch *L)
{
    int split = aiv->attr_split != 0 || (aiv->split_mask & ~1u) != 0;
    L->whole = split && !aiv->split_aiv && !aiv->attr_dual;
    L->lanes = !L->whole && (aiv->split_aiv || aiv->attr_dual) ? 2 : 1;
    L->dual_nosplit = L->lanes == 2;
    L->replay = L->lanes == 2 && !aiv->split_aiv && !split && m->opt.mem_target != MEM_TARGET_950;
    L->twin_lanes = L->lanes == 2 && (aiv->split_aiv || !split);
}

/* The slot_num of a launch's pipes (--slot-depth pipe): its kernels'. */
static int launch_slot_num(const launch *L)
{
    int a = L->aic ? L->aic->slot_num : 0, v = L->aiv ? L->aiv->slot_num : 0;
    return a > v ? a : v;
}

/* A call the device runs as a launch, not in line: under device semantics,
 * from the host (not a kernel), of an AIC or AIV kernel, or of a Group
 * whose callees include one. */
static int dev_launches(const machine *m, const core *c, const xfunc *callee)
{
    if (m->opt.semantics != EXEC_SEM_DEVICE || c->in_group)
        return 0;
    if (callee->type == IR_EV_FUNCTION_TYPE_AIC || callee->type == IR_EV_FUNCTION_TYPE_AIV)
        return 1;
    return callee->type == IR_EV_FUNCTION_TYPE_GROUP && (callee->dev.aic >= 0 || callee->dev.aiv >= 0);
}

/* The notes of a launch where REF runs otherwise (semantics.h): a Group
 * REF does not pair by name the same way, a kernel REF runs once where the
 * device runs two lanes, a lane-1 replay, a whole-tile split kernel. */
static void dev_note(machine *m, const ir_span *sp, const launch *L)
{
    const xfunc *g = L->g;
    if (g->type == IR_EV_FUNCTION_TYPE_GROUP) {
        int same = g->is_group && L->aic == &m->p->funcs[g->group.aic] && L->aiv == &m->p->funcs[g->group.aiv];
        if (!same)
            note_differs(m, sp, EXEC_SEMDIFF_KERNEL_DISPATCH,
                         "the Group %s launches %s%s%s by their types (REF would compute: no %s_aic/%s_aiv pair by "
                         "name, so the body runs in line on one thread)",
                         g->name, L->aic ? L->aic->name : "", L->aic && L->aiv ? " and " : "",
                         L->aiv ? L->aiv->name : "", g->name, g->name);
    } else if (L->aiv && L->lanes == 2) {
        note_differs(m, sp, EXEC_SEMDIFF_KERNEL_DISPATCH,
                     "the dual-dispatch kernel %s runs on both AIV lanes (REF would compute: one run, as lane 0)",
                     g->name);
    }
    if (L->replay)
        note_differs(m, sp, EXEC_SEMDIFF_NOSPLIT_REPLAY,
                     "lane 1 of the no-split dual-dispatch kernel %s replays the pipe handshakes and stores nothing "
                     "(REF would compute: both lanes run the whole body, every store twice)",
                     L->aiv->name);
    if (L->whole)
        note_differs(m, sp, EXEC_SEMDIFF_SPLIT_WHOLE,
                     "the split kernel %s, not halved yet, runs as one vector core over the whole tile (REF would "
                     "compute: two lanes each run the full-shape body on a half)",
                     L->aiv->name);
}

/* A direct call of an AIC or AIV kernel from the host: one task on the cube
 * core or on the vector lanes (args owned). */
static ptodb_status dev_call_kernel(machine *m, core *host, const xinst *in, const xfunc *callee, value *args,
                                    uint32_t nargs)
{
    launch L;
    memset(&L, 0, sizeof L);
    L.g = callee;
    L.depth = -1;
    if (callee->type == IR_EV_FUNCTION_TYPE_AIC) {
        L.aic = callee;
    } else {
        L.aiv = callee;
        dev_aiv_side(m, callee, &L);
    }
    L.slot_num = launch_slot_num(&L);
    dev_note(m, inst_span(in), &L);
    ptodb_status st = launch_start(m, host, &L, args, nargs);
    m->grp.direct = 1;
    return st;
}

/* The Group frame just pushed on the host launches its kernels: the AIC
 * callee on the cube core, the AIV callee on its lanes, both given the
 * arguments of the body's first kernel call (evaluated in that frame). */
static ptodb_status dev_launch_group(machine *m, core *host)
{
    xframe *f = &host->frames[host->depth - 1];
    const xfunc *gf = f->fn;
    const xgroup_dev *d = &gf->dev;
    const xinst *first = &gf->code[d->first_pc];
    launch L;
    memset(&L, 0, sizeof L);
    L.g = gf;
    L.depth = -1;
    L.aic = d->aic >= 0 ? &m->p->funcs[d->aic] : NULL;
    L.aiv = d->aiv >= 0 ? &m->p->funcs[d->aiv] : NULL;
    if (L.aiv)
        dev_aiv_side(m, L.aiv, &L);
    L.slot_num = launch_slot_num(&L);
    value *args = xmalloc((first->nvals ? first->nvals : 1) * sizeof(value));
    uint32_t n = 0;
    ptodb_status st = PTODB_OK;
    for (; n < first->nvals; n++) {
        st = eval(m, host, f, first->vals[n], &args[n]);
        if (st != PTODB_OK)
            break;
    }
    if (st != PTODB_OK) {
        for (uint32_t i = 0; i < n; i++)
            value_clear(&args[i]);
        free(args);
        return st;
    }
    dev_note(m, inst_span(first), &L);
    st = launch_start(m, host, &L, args, n);
    free(args);
    m->grp.bind_aic_pc = d->aic_pc;
    m->grp.bind_aiv_pc = d->aiv_pc;
    m->grp.resume_pc = d->resume_pc;
    return st;
}

/* A copy of frame src for core c (its values shared by reference, as the
 * lanes of a kernel share its arguments). */
static void frame_clone(machine *m, core *c, const xframe *src)
{
    if (c->depth == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 8;
        c->frames = xreallocarray(c->frames, (size_t)c->cap, sizeof *c->frames);
    }
    if (c->depth == 0 && c->kept) {
        machine_frame_free(&c->frames[0]);
        c->kept = 0;
    }
    const xfunc *fn = src->fn;
    xframe *f = &c->frames[c->depth++];
    *f = *src;
    f->activation = c->calls[fn - m->p->funcs]++;
    f->local_steps = 0;
    f->slots = xcalloc(fn->nslots ? fn->nslots : 1, sizeof(value));
    for (uint32_t i = 0; i < fn->nslots; i++)
        f->slots[i] = value_copy(&src->slots[i]);
    f->loops = NULL;
    if (fn->nloops) {
        f->loops = xmalloc(fn->nloops * sizeof *f->loops);
        memcpy(f->loops, src->loops, fn->nloops * sizeof *f->loops);
    }
    f->dyns = NULL;
    if (src->dyns) {
        f->dyns = xcalloc(m->p->ndyns, sizeof(value));
        for (uint32_t i = 0; i < m->p->ndyns; i++)
            f->dyns[i] = value_copy(&src->dyns[i]);
    }
}

/* Device semantics: the host reaches the XI_FORK of a CORE_GROUP scope
 * holding a pl.split_aiv region (program.c forks_lanes): AIV lanes 0 and 1
 * each run the scope on a copy of the host's frame, as the split_aiv InCore
 * kernel OutlineIncoreScopes makes of it runs (both lanes, each its own
 * get_subblock_idx, the cube part computed by both, tile.aiv_shard and
 * tile.aic_gather between them); the host then goes on after the scope with
 * lane 0's variables. */
static ptodb_status fork_start(machine *m, core *host, const xinst *in)
{
    group_run *g = &m->grp;
    xframe *hf = &host->frames[host->depth - 1];
    g->active = 1;
    g->split_aiv = 1;
    g->g = hf->fn;
    g->bind_aic_pc = g->bind_aiv_pc = -1;
    g->resume_pc = in->target + 1;
    g->fork = 1;
    g->direct = 1;
    xrt_reset(&g->rt);
    g->lanes = 2;
    g->rt.dual_nosplit = 1;
    g->ncores = 0;
    g->order[g->ncores++] = EXEC_CORE_AIV0;
    g->order[g->ncores++] = EXEC_CORE_AIV1;
    g->cur = 0;
    g->started = 0;
    xrt_set_limit(&g->rt, m->opt.slot_depth > 0 && m->opt.slot_depth < UINT32_MAX ? (uint32_t)m->opt.slot_depth : 0);
    for (int k = 0; k < g->ncores; k++) {
        core *c = &m->cores[g->order[k]];
        machine_core_clear(c);
        c->in_group = 1;
        c->rt = &g->rt;
        c->state = CORE_READY;
        c->ctx.err_set = 0;
        c->ctx.fail_at = NULL;
        c->ctx.ref_fail = 0;
        frame_clone(m, c, hf);
        c->frames[0].pc = hf->pc + 1;
    }
    host->state = CORE_WAIT_GROUP;
    race_launch(m, host, 1, 0);
    note_differs(m, inst_span(in), EXEC_SEMDIFF_SPLIT_AIV_SCOPE,
                 "the CORE_GROUP scope holding a pl.split_aiv region runs on both AIV lanes (REF would compute: the "
                 "region once, as lane 0)");
    return PTODB_OK;
}

static int core_runnable(core *c)
{
    if (c->at_barrier)
        return 0; /* until its launch's other blocks reach the syncall */
    if (c->state == CORE_READY)
        return 1;
    if (c->state != CORE_BLOCKED)
        return 0;
    for (int i = 0; i < c->nwait; i++) {
        const xqueue *q = c->wait[i];
        if (c->wait_room ? (q->limit && q->n >= q->limit) : q->n == 0)
            return 0;
    }
    return 1;
}

static ptodb_status group_finish(machine *m, exec_event *ev);

/* ---- one statement ------------------------------------------------------ */

static void fill_event(machine *m, core *c, const xinst *in, exec_event *ev, exec_event_kind k)
{
    ev->kind = k;
    ev->core = c->id;
    ev->file = m->p->path;
    const ir_span *sp = inst_span(in);
    ev->line = sp ? (int)sp->line : 0;
    ev->col = sp ? (int)sp->col : 0;
    ev->func = c->depth > 0 ? c->frames[c->depth - 1].fn->name : NULL;
}

/* A submitted task's result: its outputs, then its TaskId (PTO2TaskId's raw
 * (ring << 32) | local: every task here is ring 0's, numbered in submission
 * order). v owned. */
static value submit_result(machine *m, const xframe *f, const xinst *in, value v)
{
    /* a pl.spmd_submit is one task run by core_num blocks (one PTO2TaskId):
     * its blocks share the id, the next task's comes after its last block */
    int more_blocks = in->loop >= 0 && f->loops[in->loop].cur < f->loops[in->loop].stop;
    uint32_t n = v.kind == VAL_TUPLE ? v.u.tuple->n : v.kind == VAL_NONE ? 0 : 1;
    value t = value_tuple_new(n + 1);
    for (uint32_t i = 0; i < n; i++)
        t.u.tuple->items[i] = v.kind == VAL_TUPLE ? value_copy(&v.u.tuple->items[i]) : value_copy(&v);
    t.u.tuple->items[n] = value_int((int64_t)(m->next_task & 0xffffffffu));
    if (!more_blocks)
        m->next_task++;
    value_clear(&v);
    return t;
}

/* A task of a manual scope starts: its deps= and its tensor parameters
 * (args, the call's evaluated arguments) go to the race check
 * (exec/tasks.h). */
static ptodb_status submit_begin(machine *m, core *c, xframe *f, const xinst *in, const xfunc *callee,
                                 const value *args, uint32_t nargs)
{
    if (!m->taskgraph)
        return PTODB_OK;
    int64_t deps[64];
    uint32_t nd = 0;
    for (uint32_t i = 0; i < in->ndeps; i++) {
        value v;
        ptodb_status st = eval(m, c, f, in->deps[i], &v);
        if (st != PTODB_OK)
            return st;
        const value *items = v.kind == VAL_TUPLE ? v.u.tuple->items : &v;
        uint32_t n = v.kind == VAL_TUPLE ? v.u.tuple->n : 1;
        for (uint32_t k = 0; k < n && nd < 64; k++) {
            if (items[k].kind == VAL_INT) /* None (task_invalid) adds no edge */
                deps[nd++] = items[k].u.i;
            else if (items[k].kind == VAL_TENSOR && items[k].u.t && items[k].u.t->dtype == DTYPE_UINT64 &&
                     items[k].u.t->ndim == 1) {
                /* a TASK_ID array (ops_array.c): each valid id is an edge */
                const tensor *arr = items[k].u.t;
                for (int64_t j = 0; j < arr->shape[0] && nd < 64; j++) {
                    uint64_t raw = ((const uint64_t *)tensor_data(arr))[j * arr->strides[0]];
                    if (raw != UINT64_MAX)
                        deps[nd++] = (int64_t)raw;
                }
            }
        }
        value_clear(&v);
    }
    const ir_span *sp = in->e && in->e->src ? &in->e->src->span : NULL;
    exec_tasks_begin(m->taskgraph, (int64_t)(m->next_task & 0xffffffffu), callee->name, sp ? (int)sp->line : 0,
                     in->manual, deps, nd);
    for (uint32_t i = 0; i < nargs && i < callee->nparams; i++)
        if (args[i].kind == VAL_TENSOR && args[i].u.t)
            exec_tasks_name(m->taskgraph, args[i].u.t, callee->src->params[i].name->text);
    return PTODB_OK;
}

/* Binds a callee's return value into the caller's pending CALL. */
static ptodb_status bind_call_result(machine *m, core *c, value v)
{
    xframe *f = &c->frames[c->depth - 1];
    const xinst *in = &f->fn->code[f->pc];
    ptodb_status st = PTODB_OK;
    if (in->kind == XI_CALL && in->call_mode == XCALL_SUBMIT) {
        v = submit_result(m, f, in, v);
        strbuf why = STRBUF_INIT;
        if (m->taskgraph && exec_tasks_end(m->taskgraph, &why)) {
            value_clear(&v);
            st = efail(&c->ctx, in->e, 0, PTODB_ERR_RUNTIME, "%s", strbuf_str(&why));
            strbuf_free(&why);
            return st;
        }
        strbuf_free(&why);
    }
    if (in->kind == XI_CALL && in->nslots == 1)
        st = assign(m, c, f, in, 0, v);
    else
        value_clear(&v);
    if (st == PTODB_OK) {
        f->pc++;
        f->local_steps++;
    }
    return st;
}

/* A tile.load's tile (provenance on), and a tensor.slice of global memory:
 * named by the GM region it read, as the debugger's program points name it
 * (exec_region_of). A slice of a tensor the function computed keeps the
 * op's provenance. */
static void prov_load_leaf(machine *m, core *c, const xinst *in, value *v)
{
    exec_region g;
    if (v->kind != VAL_TENSOR || !v->u.t || !in->stmt || exec_region_stmt_kind(in->stmt) != EXEC_REGION_LOAD)
        return;
    if (!exec_region_of(m, c->id, in->stmt, &g)) {
        if (in->e && in->e->kind == XE_OP && in->e->id == IR_OP_TILE_LOAD)
            v->u.t->prov = 0;
        return;
    }
    exec_prov_set_leaf(m->prov, c->id, m->steps, &g, v->u.t);
}

/* ---- the recorded schedule (exec/schedule.h) ------------------------------ */

/* A replay's refusal at line `fline` of the file: kept in play_err, which
 * becomes the run's error. */
static void play_refuse(machine *m, uint32_t fline, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void play_refuse(machine *m, uint32_t fline, const char *fmt, ...)
{
    if (m->play_err.len)
        return;
    strbuf_printf(&m->play_err, "%s:%u: schedule replay: ", m->sched_play->path ? m->sched_play->path : "?",
                  (unsigned)fline);
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(&m->play_err, fmt, ap);
    va_end(ap);
}

/* The replay's decision of this kind at the current step, or NULL (the
 * fixed schedule's choice then). */
/* The index of the replay's first decision at or after step (cached). */
static size_t play_cursor(machine *m, uint64_t step)
{
    const exec_sched_pass *p = m->sched_play;
    size_t i = m->play_cur;
    if (i > p->n || (i > 0 && p->d[i - 1].step >= step) || (i < p->n && p->d[i].step < step))
        i = m->play_cur = exec_sched_pass_find(p, step);
    return i;
}

static const exec_decision *play_take(machine *m, int kind)
{
    const exec_sched_pass *p = m->sched_play;
    size_t i = play_cursor(m, m->steps);
    if (i < p->n && p->d[i].step == m->steps && p->d[i].kind == kind) {
        m->play_used = 1;
        return &p->d[i];
    }
    return NULL;
}

static const char *const end_what[] = {"", "finished", "failed", "was saved"};

/* Before a step of a replay: the recording must go on past it. */
static ptodb_status play_before(machine *m)
{
    const exec_sched_pass *p = m->sched_play;
    m->play_used = 0;
    if (m->play_err.len)
        return PTODB_ERR_FORMAT;
    /* a run fails in its last step or at the choice after it (a deadlock) */
    if (m->steps < p->end_step || (p->end == EXEC_SCHED_END_FAILED && m->steps == p->end_step))
        return PTODB_OK;
    if (p->end == EXEC_SCHED_END_STOPPED)
        play_refuse(m, p->end_line, "the recording stops at step %llu (it was saved there): the run cannot be "
                                    "replayed further",
                    (unsigned long long)p->end_step);
    else
        play_refuse(m, p->end_line, "the recorded run %s at step %llu; this one goes on", end_what[p->end],
                    (unsigned long long)p->end_step);
    return PTODB_ERR_FORMAT;
}

/* After step `step` of a replay: its decision was taken, and a run that
 * finished did so where the recorded one did. */
static void play_after(machine *m, uint64_t step)
{
    const exec_sched_pass *p = m->sched_play;
    size_t i = play_cursor(m, step);
    if (!m->play_used && i < p->n && p->d[i].step == step) {
        const exec_decision *d = &p->d[i];
        if (d->kind == EXEC_DECIDE_CORE)
            play_refuse(m, d->file_line, "the recording runs %s at step %llu (line %d); here no group's cores "
                                         "take turns at that step",
                        core_names[d->core], (unsigned long long)step, (int)d->line);
        else
            play_refuse(m, d->file_line, "the recording launches blocks at step %llu (line %d); here that step "
                                         "is no SPMD launch",
                        (unsigned long long)step, (int)d->line);
    }
    if (p->end == EXEC_SCHED_END_FAILED && m->steps > p->end_step && !m->play_err.len)
        play_refuse(m, p->end_line, "the recorded run failed at step %llu; this one goes on",
                    (unsigned long long)p->end_step);
    if (m->finished && !m->play_err.len && (p->end != EXEC_SCHED_END_FINISHED || m->steps != p->end_step)) {
        size_t k = play_cursor(m, m->steps);
        if (k < p->n)
            play_refuse(m, p->d[k].file_line, "the run finished at step %llu, before this decision (step %llu)",
                        (unsigned long long)m->steps, (unsigned long long)p->d[k].step);
        else
            play_refuse(m, p->end_line, "the recorded run %s at step %llu; this one finished at step %llu",
                        end_what[p->end], (unsigned long long)p->end_step, (unsigned long long)m->steps);
    }
}

void machine_schedule_record(machine *m, exec_sched_pass *rec)
{
    m->sched_rec = rec;
    if (rec)
        exec_sched_pass_reach(rec, m->steps);
}

void machine_schedule_replay(machine *m, const exec_sched_pass *play)
{
    m->sched_play = play;
    m->play_cur = 0;
    strbuf_clear(&m->play_err);
}

int machine_schedule_replaying(const machine *m)
{
    return m->sched_play != NULL;
}

/* ---- SPMD launches (semantics.h, EXEC_SEMDIFF_SPMD) ------------------------ */

static uint64_t rng_next(machine *m);

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* A launch of L->stop blocks starts: under ref one block (REF's
 * get_block_idx is 0); under device every block, in order, or in a seeded
 * order (i -> (a*i + c) mod N, a prime to N) under --schedule random. */
static ptodb_status spmd_launch(machine *m, core *c, xframe *f, const xinst *in, xloop *L)
{
    int64_t n = L->stop;
    if (n < 1 || n > (int64_t)1 << 20)
        return efail(&c->ctx, in->vals[1], 0, PTODB_ERR_RUNTIME,
                     "an SPMD launch of %lld blocks: expected 1 to 1048576", (long long)n);
    if (c->in_group || f->block_num > 1)
        return efail(&c->ctx, in->vals[1], 0, PTODB_ERR_UNSUPPORTED,
                     "an SPMD launch inside a running launch or group is not supported");
    L->outer_block = f->block_idx;
    L->outer_blocks = f->block_num;
    L->cur = 0;
    L->step = 1;
    L->order_a = 1;
    L->order_c = 0;
    if (m->opt.semantics == EXEC_SEM_REF) {
        L->stop = 1;
        return PTODB_OK;
    }
    if (n > 1)
        note_differs(m, in->e && in->e->src ? &in->e->src->span : inst_span(in), EXEC_SEMDIFF_SPMD,
                     "a launch of %lld blocks runs every block (REF would compute block 0's part only: its "
                     "get_block_idx is 0)",
                     (long long)n);
    const ir_span *sp = inst_span(in);
    int line = sp ? (int)sp->line : 0;
    if (m->sched_play) {
        const exec_decision *d = play_take(m, EXEC_DECIDE_BLOCKS);
        if (d && (d->core != c->id || d->line != line || d->blocks != n)) {
            play_refuse(m, d->file_line,
                        "the recorded launch is of %lld blocks on %s at line %d; here step %llu launches %lld "
                        "blocks on %s at line %d",
                        (long long)d->blocks, core_names[d->core], (int)d->line, (unsigned long long)m->steps,
                        (long long)n, core_names[c->id], line);
            return efail(&c->ctx, NULL, 0, PTODB_ERR_FORMAT, "%s", strbuf_str(&m->play_err));
        }
        if (d) {
            L->order_a = (uint64_t)d->a;
            L->order_c = (uint64_t)d->c;
        }
    } else if (m->opt.sched == EXEC_SCHED_RANDOM && n > 1) {
        uint64_t a;
        do
            a = 1 + rng_next(m) % (uint64_t)n;
        while (gcd_u64(a, (uint64_t)n) != 1);
        L->order_a = a;
        L->order_c = rng_next(m) % (uint64_t)n;
    }
    if (m->sched_rec && (L->order_a != 1 || L->order_c != 0)) {
        exec_decision d = {.step = m->steps, .kind = EXEC_DECIDE_BLOCKS, .core = (int8_t)c->id, .line = line,
                           .blocks = n, .a = (int64_t)L->order_a, .c = (int64_t)L->order_c};
        exec_sched_pass_record(m->sched_rec, &d);
    }
    /* its FOR_NEXT follows the FOR_INIT (program.c, spmd_open) */
    spmd_barrier_start(m, c, c->depth - 1, f->pc + 1, in->loop);
    m->race_spmd = ++m->race_serial; /* its blocks' calls are compared (gmrace.h) */
    return PTODB_OK;
}

/* The next block of a launch: the frame runs it (and a pl.spmd loop's
 * variable is its index), or the launch is over and the frame's block is
 * what it was before. 1 when a block parked at a syncall resumed instead. */
static int spmd_next(machine *m, core *c, xframe *f, const xinst *in, xloop *L)
{
    if (L->cur >= L->stop && spmd_barrier_resume(m, c))
        return 1; /* a block parked at a syncall goes on (exec/barrier.c) */
    if (L->cur < L->stop) {
        uint64_t n = (uint64_t)L->stop;
        int64_t b = (int64_t)((L->order_a * (uint64_t)L->cur + L->order_c) % n);
        f->block_idx = b;
        f->block_num = L->stop;
        if (in->slots[0] >= 0)
            slot_set(f, in->slots[0], value_int(b));
        L->cur++;
        f->pc++;
    } else {
        f->block_idx = L->outer_block;
        f->block_num = L->outer_blocks;
        f->pc = (uint32_t)in->target;
        m->race_spmd = 0;
    }
    return 0;
}

/* self.f(args..., device=d) in the host orchestrator of a multi-rank
 * program: f is queued on device d by the world above (exec/comm.h), the
 * host goes on; the call's value, if any, is None. Takes the args. */
static ptodb_status host_dispatch(machine *m, core *c, xframe *f, const xinst *in, value *args, uint32_t n)
{
    exec_ctx *ctx = &c->ctx;
    const exec_comm *w = m->opt.comm;
    value dv;
    ptodb_status st = eval(m, c, f, in->device, &dv);
    int64_t dev = 0;
    if (st == PTODB_OK && value_as_int(&dv, &dev) != 0)
        st = efail(ctx, in->e, 0, PTODB_ERR_RUNTIME, "device= of a dispatch must be an int, got another value");
    if (st == PTODB_OK && (!w || !w->dispatch))
        st = efail(ctx, in->e, 0, PTODB_ERR_UNSUPPORTED,
                   "self.%s(..., device=%lld) dispatches to a device of a multi-rank program: run the case with "
                   "its ranks.txt and data/in/rank<R>/ (docs/multirank.md)",
                   m->p->funcs[in->callee].name, (long long)dev);
    /* the device sees its arguments as its parameters declare them: a
     * scalar with the parameter's dtype (a 0-d tensor), a buffer with the
     * declared static shape when the element counts agree (a window
     * allocated [64] and taken as [1, 64]) */
    const xfunc *callee = &m->p->funcs[in->callee];
    for (uint32_t i = 0; st == PTODB_OK && i < n && i < callee->nparams; i++) {
        const exec_type *pt = &callee->param_types[i];
        if (pt->kind == EXEC_TYPE_SCALAR && pt->ir_dtype >= 0 &&
            (args[i].kind == VAL_INT || args[i].kind == VAL_FLOAT || args[i].kind == VAL_BOOL)) {
            double v;
            value_as_double(&args[i], &v);
            tensor *t = tensor_scalar(pt->dtype, v);
            if (args[i].kind == VAL_INT)
                tensor_set_i64(t, NULL, args[i].u.i);
            args[i] = value_tensor(t);
        } else if (pt->kind == EXEC_TYPE_TENSOR && args[i].kind == VAL_TENSOR && pt->ndim > 0) {
            const tensor *t = args[i].u.t;
            int fixed = 1, same = pt->ndim == t->ndim;
            for (int d = 0; d < pt->ndim; d++) {
                fixed &= pt->dims[d] >= 0;
                same &= d < t->ndim && pt->dims[d] == t->shape[d];
            }
            if (fixed && !same && tensor_shape_numel(pt->ndim, pt->dims) == tensor_numel(t) && tensor_is_contiguous(t)) {
                ptodb_status rs;
                tensor *r = tensor_reshape(t, pt->ndim, pt->dims, &rs);
                if (r) {
                    value_clear(&args[i]);
                    args[i] = value_tensor(r);
                }
            }
        }
    }
    int *dirs = xcalloc(n ? n : 1, sizeof *dirs);
    for (uint32_t i = 0; i < n && i < callee->nparams; i++)
        dirs[i] = callee->src->params[i].dir == IR_DIR_OUT     ? EXEC_ARG_OUT
                  : callee->src->params[i].dir == IR_DIR_INOUT ? EXEC_ARG_INOUT
                                                               : EXEC_ARG_IN;
    if (st == PTODB_OK) {
        char err[400] = "";
        const ir_span *sp = in->e && in->e->src ? &in->e->src->span : inst_span(in);
        st = w->dispatch(w->ud, dev, in->callee, args, dirs, n, sp ? (int)sp->line : 0, sp ? (int)sp->col : 0, err,
                         sizeof err);
        if (st != PTODB_OK)
            st = efail(ctx, in->e, 0, st, "%s", err);
    }
    free(dirs);
    value_clear(&dv);
    for (uint32_t i = 0; i < n; i++)
        value_clear(&args[i]);
    if (st == PTODB_OK && in->nslots == 1)
        slot_set(f, in->slots[0], value_none());
    return st;
}

static ptodb_status core_exec(machine *m, core *c, exec_event *ev)
{
    exec_ctx *ctx = &c->ctx;
    ctx->err_set = 0;
    ctx->fail_at = NULL;
    ctx->ref_fail = 0;
    ctx->nwait = 0;
    ctx->wait_room = 0;
    for (int guard = 0;; guard++) {
        xframe *f = &c->frames[c->depth - 1];
        const xinst *in = &f->fn->code[f->pc];
        ptodb_status st = PTODB_OK;
        value v;
        switch (in->kind) {
        case XI_ASSIGN: {
            exec_type vt;
            const exec_type *vtp = NULL;
            if (in->valid_x && m->opt.semantics == EXEC_SEM_DEVICE) {
                st = eval_valid_type(m, c, f, in, &vt);
                if (st != PTODB_OK)
                    break;
                vtp = &vt;
            }
            st = eval(m, c, f, in->e, &v);
            if (st == PTODB_OK && vtp)
                device_valid_shape(vtp, &v);
            if (st == PTODB_OK && m->prov)
                prov_load_leaf(m, c, in, &v);
            if (st == PTODB_OK && m->mem)
                exec_memcheck_assigned(m->mem, m, c, f, in, &v);
            if (st == PTODB_OK)
                st = assign(m, c, f, in, 0, v);
            if (st == PTODB_OK && m->prov)
                exec_prov_assigned(m->prov, c->id, m->steps, in->stmt, &f->slots[in->slots[0]]);
            if (st == PTODB_OK)
                f->pc++;
            break;
        }
        case XI_EXPR:
            /* a syncall in an SPMD launch parks its block (exec/barrier.c) */
            if (in->e && in->e->kind == XE_OP && in->e->id == IR_OP_SYSTEM_SYNCALL &&
                m->opt.semantics == EXEC_SEM_DEVICE) {
                if (c->in_group) /* a barrier of every core of the launch (exec/gmrace.h) */
                    gmrace_clock_barrier(&c->race_clock, c->id);
                if (spmd_barrier_park(m, c))
                    break;
                if (spmd_barrier_group_waits(m, c)) {
                    /* a group core waits there; the block parks with its
                     * group when no core of it can go on (step_any) */
                    f->pc++;
                    c->at_barrier = 1;
                    ctx->nwait = 0;
                    snprintf(ctx->wait_what, sizeof ctx->wait_what, "syncall");
                    snprintf(ctx->wait_op, sizeof ctx->wait_op, "syncall");
                    snprintf(ctx->wait_args, sizeof ctx->wait_args, "the launch's other blocks");
                    st = PTODB_BLOCKED;
                    break;
                }
            }
            st = eval(m, c, f, in->e, &v);
            if (st == PTODB_OK) {
                value_clear(&v);
                f->pc++;
            }
            break;
        case XI_JUMP:
            f->pc = (uint32_t)in->target;
            break;
        case XI_BRANCH: {
            st = eval(m, c, f, in->e, &v);
            if (st != PTODB_OK)
                break;
            int t = value_truthy(&v);
            value_clear(&v);
            if (t < 0) {
                st = efail(ctx, in->e, 1, PTODB_ERR_RUNTIME,
                           "RuntimeError: Boolean value of Tensor with more than one value is ambiguous");
                break;
            }
            if (m->opt.invert_if_line && in->stmt && in->stmt->kind == IR_STMT_IF &&
                (int)in->stmt->span.line == m->opt.invert_if_line)
                t = !t;
            f->pc = t ? f->pc + 1 : (uint32_t)in->target;
            break;
        }
        case XI_FOR_INIT: {
            for (uint32_t i = 0; i < in->nslots && st == PTODB_OK; i++) {
                st = eval(m, c, f, in->vals[3 + i], &v);
                if (st == PTODB_OK)
                    slot_set(f, in->slots[i], v);
            }
            if (st != PTODB_OK)
                break;
            xloop *L = &f->loops[in->loop];
            /* where the iter_args live: their init values' tiles (Group A of
             * PyPTO's InitMemRef; exec_memcheck_yield_carry) */
            for (uint32_t i = 0; i < XLOOP_CARRIES; i++) {
                const value *iv = i < in->nslots && in->slots[i] >= 0 ? &f->slots[in->slots[i]] : NULL;
                L->carry_tile[i] = iv && iv->kind == VAL_TENSOR && iv->u.t ? iv->u.t->mem_tile : 0;
                L->carry_core[i] = iv && iv->kind == VAL_TENSOR && iv->u.t ? iv->u.t->mem_core : -1;
            }
            int64_t b[3] = {0, 0, 1};
            /* REF runs an SPMD scope once and never evaluates its width */
            int ref_spmd = in->spmd && m->opt.semantics == EXEC_SEM_REF;
            if (ref_spmd)
                b[1] = 1;
            for (int k = 0; k < 3 && st == PTODB_OK && !ref_spmd; k++) {
                if (!in->vals[k])
                    continue;
                st = eval(m, c, f, in->vals[k], &v);
                if (st == PTODB_OK) {
                    st = range_int(ctx, in->vals[k], &v, &b[k]);
                    value_clear(&v);
                }
            }
            if (st != PTODB_OK) {
                if (in->spmd)
                    ctx->ref_fail = 0; /* a launch width REF never reads */
                break;
            }
            if (b[2] == 0) {
                st = efail(ctx, in->vals[2], 1, PTODB_ERR_RUNTIME,
                           "ValueError: range() arg 3 must not be zero");
                break;
            }
            L->cur = b[0];
            L->stop = b[1];
            L->step = b[2];
            if (in->spmd) {
                st = spmd_launch(m, c, f, in, L);
                if (st != PTODB_OK)
                    break;
            }
            f->pc++;
            break;
        }
        case XI_FOR_NEXT: {
            xloop *L = &f->loops[in->loop];
            if (in->spmd) {
                /* a parked block resumes: the step ends there, so that
                 * the block stops at the statement after its syncall (or
                 * its group run goes on) before that statement runs */
                if (spmd_next(m, c, f, in, L)) {
                    fill_event(m, c, in, ev, EXEC_EV_STMT);
                    return PTODB_OK;
                }
                break;
            }
            if (L->step > 0 ? L->cur < L->stop : L->cur > L->stop) {
                if (in->slots[0] >= 0)
                    slot_set(f, in->slots[0], value_int(L->cur));
                if (__builtin_add_overflow(L->cur, L->step, &L->cur))
                    L->stop = L->cur; /* ends the loop */
                f->pc++;
            } else {
                f->pc = (uint32_t)in->target;
            }
            break;
        }
        case XI_YIELD:
            for (uint32_t i = 0; i < in->nvals && st == PTODB_OK; i++) {
                st = eval(m, c, f, in->vals[i], &v);
                if (st != PTODB_OK)
                    break;
                if (i == 0 && in->yield_type && m->mem)
                    exec_memcheck_yield(m->mem, m, c, f, in, &v);
                else if (!in->yield_type && m->mem && in->loop >= 0 && i < XLOOP_CARRIES &&
                         f->loops[in->loop].carry_tile[i])
                    exec_memcheck_yield_carry(m->mem, m, c, f, in, f->loops[in->loop].carry_tile[i],
                                              f->loops[in->loop].carry_core[i], &v);
                if (i < in->nslots)
                    st = assign(m, c, f, in, i, v);
                else
                    value_clear(&v);
            }
            if (st == PTODB_OK)
                f->pc++;
            break;
        case XI_COPY:
            for (uint32_t i = 0; i < in->nslots; i++)
                slot_set(f, in->slots2[i], value_copy(&f->slots[in->slots[i]]));
            f->pc++;
            break;
        case XI_FAIL:
            st = efail(ctx, NULL, in->ref_fail, PTODB_ERR_UNSUPPORTED, "%s", in->msg);
            break;
        case XI_FORK:
            if (m->opt.semantics == EXEC_SEM_DEVICE && !c->in_group && !m->grp.active) {
                fill_event(m, c, in, ev, EXEC_EV_CALL);
                return fork_start(m, c, in);
            }
            f->pc++; /* ref: the scope runs in line, once */
            break;
        case XI_JOIN:
            if (c->in_group && m->grp.fork && c->depth == 1) {
                fill_event(m, c, in, ev, EXEC_EV_RETURN);
                c->depth = 0;
                c->kept = 1;
                value_clear(&c->result);
                c->result = value_none();
                c->state = CORE_DONE;
                ev->kind = EXEC_EV_FINISHED;
                return PTODB_OK;
            }
            f->pc++;
            break;
        case XI_RETURN: {
            value r = value_none();
            if (in->nvals == 1) {
                st = eval(m, c, f, in->vals[0], &r);
            } else if (in->nvals > 1) {
                r = value_tuple_new(in->nvals);
                for (uint32_t i = 0; i < in->nvals && st == PTODB_OK; i++) {
                    st = eval(m, c, f, in->vals[i], &r.u.tuple->items[i]);
                    if (st != PTODB_OK)
                        r.u.tuple->items[i] = value_none();
                }
                if (st != PTODB_OK)
                    value_clear(&r);
            }
            if (st != PTODB_OK)
                break;
            fill_event(m, c, in, ev, EXEC_EV_RETURN);
            if (c->depth == 1) {
                c->depth = 0;
                c->kept = 1; /* a finished core's last frame stays inspectable */
            } else {
                machine_frame_free(&c->frames[--c->depth]);
            }
            if (c->depth == 0) {
                value_clear(&c->result);
                c->result = r;
                c->state = CORE_DONE;
                ev->kind = EXEC_EV_FINISHED;
                return PTODB_OK;
            }
            st = bind_call_result(m, c, r);
            if (st != PTODB_OK)
                return core_error(m, c, &c->frames[c->depth - 1].fn->code[c->frames[c->depth - 1].pc], st);
            return PTODB_OK;
        }
        case XI_CALL: {
            const xfunc *callee = &m->p->funcs[in->callee];
            if (in->call_mode == XCALL_SUBMIT) {
                if (m->opt.semantics == EXEC_SEM_REF) {
                    st = efail(ctx, in->e, 1, PTODB_ERR_RUNTIME, "%s", in->msg);
                    break;
                }
                note_differs(m, in->e && in->e->src ? &in->e->src->span : NULL, EXEC_SEMDIFF_SUBMIT,
                             "the submitted task %s runs (REF would fail: %s)", callee->name, in->msg);
            }
            value *args = xmalloc((in->nvals ? in->nvals : 1) * sizeof(value));
            uint32_t n = 0;
            for (; n < in->nvals; n++) {
                st = eval(m, c, f, in->vals[n], &args[n]);
                if (st != PTODB_OK)
                    break;
            }
            if (st == PTODB_OK && in->call_mode == XCALL_SUBMIT)
                st = submit_begin(m, c, f, in, callee, args, n);
            if (st == PTODB_OK && in->call_mode == XCALL_SUBMIT && in->pred) {
                /* predicate=: false retires the task without running it;
                 * its result is its outputs as they were, and its TaskId */
                value pv;
                st = eval(m, c, f, in->pred, &pv);
                int run = st == PTODB_OK ? value_truthy(&pv) : 1;
                if (st == PTODB_OK)
                    value_clear(&pv);
                if (st == PTODB_OK && run == 0) {
                    uint32_t nout = 0;
                    for (uint32_t i = 0; i < n && i < callee->nparams; i++)
                        nout += callee->src->params[i].dir != IR_DIR_IN;
                    value r = nout == 1 ? value_none() : value_tuple_new(nout);
                    for (uint32_t i = 0, k = 0; i < n && i < callee->nparams; i++)
                        if (callee->src->params[i].dir != IR_DIR_IN) {
                            if (nout == 1)
                                r = value_copy(&args[i]);
                            else
                                r.u.tuple->items[k++] = value_copy(&args[i]);
                        }
                    for (uint32_t i = 0; i < n; i++)
                        value_clear(&args[i]);
                    free(args);
                    fill_event(m, c, in, ev, EXEC_EV_CALL);
                    st = bind_call_result(m, c, r);
                    if (st != PTODB_OK)
                        return core_error(m, c, in, st);
                    return PTODB_OK;
                }
            }
            if (st != PTODB_OK) {
                for (uint32_t i = 0; i < n; i++)
                    value_clear(&args[i]);
                free(args);
                break;
            }
            if (in->device) {
                st = host_dispatch(m, c, f, in, args, n);
                free(args);
                if (st == PTODB_OK)
                    f->pc++;
                break;
            }
            if (dev_launches(m, c, callee)) {
                /* device semantics: the runtime's task, on the cores it names */
                fill_event(m, c, in, ev, EXEC_EV_CALL);
                if (callee->type == IR_EV_FUNCTION_TYPE_GROUP) {
                    st = frame_push(m, c, callee, args, n);
                    free(args);
                    if (st != PTODB_OK)
                        return core_error(m, c, in, st);
                    st = dev_launch_group(m, c);
                } else {
                    st = dev_call_kernel(m, c, in, callee, args, n);
                    free(args);
                }
                if (st != PTODB_OK) {
                    if (c->ctx.err_set)
                        return core_error(m, c, in, st);
                    return st; /* a group core's error is recorded */
                }
                ev->func = callee->name;
                return PTODB_OK;
            }
            /* a split_aiv kernel; under device semantics also an InCore
             * function holding any pl.split_aiv region, a task-parallel
             * mode=NONE one without shard ops included (the outliner stamps
             * it split_aiv: both lanes run it, 21-expand_mixed_kernel.md:256-259) */
            int regions = m->opt.semantics == EXEC_SEM_DEVICE && callee->region_any &&
                          callee->type == IR_EV_FUNCTION_TYPE_INCORE;
            int split_aiv = !callee->is_group && (callee->split_aiv || regions) && !c->in_group &&
                            callee->type != IR_EV_FUNCTION_TYPE_AIC &&
                            callee->type != IR_EV_FUNCTION_TYPE_AIV;
            if ((callee->is_group && !c->in_group) || split_aiv) {
                fill_event(m, c, in, ev, EXEC_EV_CALL);
                st = group_start(m, c, callee, args, n, split_aiv);
                free(args);
                if (st != PTODB_OK) {
                    if (c->ctx.err_set)
                        return core_error(m, c, in, st);
                    return st; /* a group core's error is recorded */
                }
                ev->func = callee->name;
                return PTODB_OK;
            }
            fill_event(m, c, in, ev, EXEC_EV_CALL);
            st = frame_push(m, c, callee, args, n);
            free(args);
            if (st != PTODB_OK) /* reported at the call, in the callee (its entry check) */
                return core_error(m, c, in, st);
            ev->func = callee->name;
            return PTODB_OK;
        }
        default:
            st = efail(ctx, NULL, 0, PTODB_ERR_RUNTIME, "bad instruction");
            break;
        }
        if (st == PTODB_BLOCKED) {
            fill_event(m, c, in, ev, EXEC_EV_BLOCKED);
            c->nwait = ctx->nwait;
            c->wait_room = ctx->wait_room;
            for (int i = 0; i < ctx->nwait; i++)
                c->wait[i] = ctx->wait[i];
            memcpy(c->wait_what, ctx->wait_what, sizeof c->wait_what);
            memcpy(c->wait_op, ctx->wait_op, sizeof c->wait_op);
            memcpy(c->wait_args, ctx->wait_args, sizeof c->wait_args);
            return PTODB_BLOCKED;
        }
        if (st != PTODB_OK)
            return core_error(m, c, in, st);
        if (in->is_stmt || guard > 100000) {
            c->frames[c->depth - 1].local_steps++;
            fill_event(m, c, in, ev, EXEC_EV_STMT);
            return PTODB_OK;
        }
    }
}

/* ---- scheduling ----------------------------------------------------------- */

static ptodb_status deadlock(machine *m)
{
    group_run *g = &m->grp;
    core *first = NULL;
    for (int k = 0; k < g->ncores; k++) {
        core *c = &m->cores[g->order[k]];
        if (c->state == CORE_BLOCKED && (!first || c->blocked_since < first->blocked_since))
            first = c;
    }
    strbuf_clear(&m->error);
    if (first) {
        const char *fn = first->depth ? first->frames[first->depth - 1].fn->name : "?";
        strbuf_printf(&m->error, "Mixed-kernel execution failed in %s (lane=", fn);
        if (first->id == EXEC_CORE_AIC)
            strbuf_puts(&m->error, "None");
        else
            strbuf_printf(&m->error, "%d", first->lane);
        if (first->wait_room)
            strbuf_printf(&m->error, ") for %s\nptodb: %s blocked (%s); pipe_state=", g->g->name,
                          first->wait_op, first->wait_args);
        else
            strbuf_printf(&m->error, ") for %s\nRuntimeError: %s timeout (%s); pipe_state=",
                          g->g->name, first->wait_op, first->wait_args);
        xrt_pipe_state(&g->rt, &m->error);
        strbuf_putc(&m->error, '\n');
    }
    strbuf_printf(&m->error,
                  "ptodb: deadlock in group %s: every live core is blocked (REF would hit its 10 s pop "
                  "timeout here)\n",
                  g->g->name);
    for (int k = 0; k < g->ncores; k++) {
        core *c = &m->cores[g->order[k]];
        strbuf_printf(&m->error, "  core %-4s lane %d: ", core_names[c->id], c->lane);
        if (c->state == CORE_DONE) {
            strbuf_puts(&m->error, "finished\n");
            continue;
        }
        xframe *f = &c->frames[c->depth - 1];
        const xinst *in = &f->fn->code[f->pc];
        const ir_span *sp = inst_span(in);
        strbuf_printf(&m->error, "blocked in %s at %s:%u:%u on %s (%s)\n", f->fn->name, m->p->path,
                      sp ? sp->line : 0, sp ? sp->col : 0, c->wait_op, c->wait_args);
    }
    strbuf_puts(&m->error, "  queues:\n");
    xrt_describe(&g->rt, &m->error);
    m->error_ref = 1;
    return PTODB_ERR_DEADLOCK;
}

static uint64_t rng_next(machine *m)
{
    m->rng ^= m->rng << 13;
    m->rng ^= m->rng >> 7;
    m->rng ^= m->rng << 17;
    return m->rng;
}

/* The core the fixed schedule runs next: the last one while it can run,
 * then the next runnable one in AIC, AIV0, AIV1 order (cyclic), or -1. A
 * recorded schedule keeps where a run did otherwise (exec/schedule.h). */
static int fixed_pick(machine *m)
{
    group_run *g = &m->grp;
    int ids[3], n = 0, from = 0;
    for (int id = EXEC_CORE_AIC; id < EXEC_NCORES; id++)
        for (int k = 0; k < g->ncores; k++)
            if (g->order[k] == id)
                ids[n++] = id;
    for (int k = 0; g->started && k < n; k++)
        if (ids[k] == g->order[g->cur])
            from = k;
    for (int k = 0; k < n; k++) {
        int id = ids[(from + k) % n];
        if (core_runnable(&m->cores[id]))
            return id;
    }
    return -1;
}

/* The statement core is about to run: its line (0 when none). */
static int core_line(const machine *m, int id)
{
    const core *c = &m->cores[id];
    if (c->depth < 1)
        return 0;
    const xframe *f = &c->frames[c->depth - 1];
    const ir_span *sp = inst_span(&f->fn->code[f->pc]);
    return sp ? (int)sp->line : 0;
}

/* Core id of the group runs the current step: the schedule's bookkeeping
 * (recorded when the fixed schedule would have run another; checked
 * against a replay). Returns -1 with play_err set when a replay refuses. */
static int group_take(machine *m, int id, int fixed)
{
    group_run *g = &m->grp;
    if (m->sched_rec && id != fixed) {
        exec_decision d = {.step = m->steps, .kind = EXEC_DECIDE_CORE, .core = (int8_t)id, .line = core_line(m, id)};
        exec_sched_pass_record(m->sched_rec, &d);
    }
    for (int k = 0; k < g->ncores; k++)
        if (g->order[k] == id)
            g->cur = k;
    g->started = 1;
    return id;
}

/* A replay's core for the current group step: the recorded one, checked,
 * or the fixed schedule's; -1 with play_err set when the file does not fit. */
static int play_group_core(machine *m, int fixed)
{
    const exec_decision *d = play_take(m, EXEC_DECIDE_CORE);
    if (!d)
        return fixed;
    int in = 0;
    for (int k = 0; k < m->grp.ncores; k++)
        in |= m->grp.order[k] == d->core;
    int line = in ? core_line(m, d->core) : 0;
    if (!in)
        play_refuse(m, d->file_line, "the recording runs %s at step %llu; the group running here (%s) has no %s",
                    core_names[d->core], (unsigned long long)m->steps, m->grp.g->name, core_names[d->core]);
    else if (!core_runnable(&m->cores[d->core]))
        play_refuse(m, d->file_line, "the recording runs %s at step %llu (line %d); here %s cannot run (%s)",
                    core_names[d->core], (unsigned long long)m->steps, (int)d->line, core_names[d->core],
                    m->cores[d->core].state == CORE_DONE ? "it has finished" : "it waits on a queue");
    else if (line != d->line)
        play_refuse(m, d->file_line, "the recording runs %s at step %llu at line %d; here %s is at line %d",
                    core_names[d->core], (unsigned long long)m->steps, (int)d->line, core_names[d->core], line);
    else
        return d->core;
    return -1;
}

/* Picks the group core to run next, or -1 (deadlock / all done). */
static int pick_group_core(machine *m)
{
    group_run *g = &m->grp;
    if (m->opt.sched == EXEC_SCHED_RANDOM) {
        int cand[3], n = 0;
        for (int k = 0; k < g->ncores; k++)
            if (core_runnable(&m->cores[g->order[k]]))
                cand[n++] = k;
        if (!n)
            return -1;
        g->cur = cand[rng_next(m) % (uint64_t)n];
        return g->order[g->cur];
    }
    for (int k = 0; k < g->ncores; k++) {
        int idx = (g->cur + k) % g->ncores;
        if (core_runnable(&m->cores[g->order[idx]])) {
            g->cur = idx;
            return g->order[idx];
        }
    }
    return -1;
}

/* The end of a fork: the host's frame takes lane 0's variables (lane 0's
 * frame, kept since it finished, is left empty). */
static void fork_take_slots(core *host, core *lane)
{
    xframe *hf = &host->frames[host->depth - 1];
    if (!lane->kept || lane->frames[0].fn != hf->fn)
        return;
    xframe *lf = &lane->frames[0];
    for (uint32_t i = 0; i < hf->fn->nslots; i++) {
        value_clear(&hf->slots[i]);
        hf->slots[i] = lf->slots[i];
        lf->slots[i] = value_none();
    }
}

/* Binds v (owned) to the target of the XI_CALL at pc of frame f (none: -1
 * or no target). */
static ptodb_status dev_bind(machine *m, core *c, xframe *f, int32_t pc, value v)
{
    if (pc < 0 || f->fn->code[pc].nslots != 1) {
        value_clear(&v);
        return PTODB_OK;
    }
    return assign(m, c, f, &f->fn->code[pc], 0, v);
}

static ptodb_status group_finish(machine *m, exec_event *ev)
{
    group_run *g = &m->grp;
    core *host = NULL;
    for (int i = 0; i < EXEC_NCORES; i++)
        if (m->cores[i].state == CORE_WAIT_GROUP)
            host = &m->cores[i];
    value r = value_copy(&m->cores[g->lanes ? EXEC_CORE_AIV0 : EXEC_CORE_AIC].result);
    for (int i = 0; i < EXEC_NCORES && g->fork; i++)
        if (m->cores[i].state == CORE_WAIT_GROUP)
            fork_take_slots(&m->cores[i], &m->cores[EXEC_CORE_AIV0]);
    value raic = g->resume_pc >= 0 && g->bind_aic_pc >= 0 ? value_copy(&m->cores[EXEC_CORE_AIC].result)
                                                           : value_none();
    for (int k = 0; k < g->ncores; k++) {
        core *c = &m->cores[g->order[k]];
        machine_core_clear(c);
        c->in_group = 0;
        c->rt = &m->global_rt;
    }
    xrt_reset(&g->rt);
    g->active = 0;
    g->race_instance = 0;
    if (m->race)
        exec_gmrace_idle(m->race);
    if (!host) {
        value_clear(&r);
        value_clear(&raic);
        return PTODB_OK;
    }
    host->state = CORE_READY;
    xframe *f = &host->frames[host->depth - 1];
    const xinst *in = &f->fn->code[f->pc];
    host->ctx.err_set = 0;
    host->ctx.fail_at = NULL;
    ptodb_status st;
    if (g->resume_pc >= 0) {
        /* a Group frame's launch: its kernel calls get their cores'
         * results, and the body goes on after them */
        st = dev_bind(m, host, f, g->bind_aic_pc, raic);
        if (st == PTODB_OK)
            st = dev_bind(m, host, f, g->bind_aiv_pc, r);
        else
            value_clear(&r);
        int32_t at = g->bind_aiv_pc >= 0 ? g->bind_aiv_pc : g->bind_aic_pc;
        in = &f->fn->code[at >= 0 ? (uint32_t)at : f->pc];
        if (st == PTODB_OK) {
            f->pc = (uint32_t)g->resume_pc;
            f->local_steps++;
        }
        g->resume_pc = g->bind_aic_pc = g->bind_aiv_pc = -1;
    } else {
        value_clear(&raic);
        st = bind_call_result(m, host, r);
    }
    fill_event(m, host, in, ev, EXEC_EV_RETURN);
    if (st != PTODB_OK)
        return core_error(m, host, in, st);
    return PTODB_OK;
}

/* A replay's refusal as the step's error. */
static ptodb_status play_fail(machine *m, exec_event *ev)
{
    strbuf_clear(&m->error);
    strbuf_puts(&m->error, strbuf_str(&m->play_err));
    m->error_ref = 0;
    ev->kind = EXEC_EV_ERROR;
    return PTODB_ERR_FORMAT;
}

static ptodb_status step_core_run(machine *m, core *c, exec_event *ev);

static ptodb_status step_core(machine *m, core *c, exec_event *ev)
{
    uint64_t step = m->steps;
    ptodb_status st = step_core_run(m, c, ev);
    if (m->sched_play) {
        play_after(m, step);
        if (m->play_err.len)
            return play_fail(m, ev);
    }
    return st;
}

static ptodb_status step_core_run(machine *m, core *c, exec_event *ev)
{
    if (c->state == CORE_BLOCKED)
        c->state = CORE_READY;
    m->running = c;
    ptodb_status st = core_exec(m, c, ev);
    m->running = NULL;
    m->steps++;
    if (st == PTODB_BLOCKED) {
        c->state = CORE_BLOCKED;
        c->blocked_since = m->block_seq++;
        return PTODB_OK;
    }
    if (st != PTODB_OK) {
        ev->kind = EXEC_EV_ERROR; /* a failed group is abandoned: machine_start resets it */
        return st;
    }
    if (ev->kind == EXEC_EV_FINISHED) {
        if (c->in_group) {
            int all = 1;
            for (int k = 0; k < m->grp.ncores; k++)
                if (m->cores[m->grp.order[k]].state != CORE_DONE)
                    all = 0;
            if (all) {
                exec_event ev2;
                st = group_finish(m, &ev2);
                if (st != PTODB_OK) {
                    ev->kind = EXEC_EV_ERROR;
                    return st;
                }
            }
        } else if (c->id == EXEC_CORE_HOST) {
            m->finished = 1;
        }
    }
    return PTODB_OK;
}

/* The run outlived opt.time_limit (PTODB_ERR_TIMEOUT) or was interrupted:
 * an error at the statement just done. */
static ptodb_status stopped_early(machine *m, exec_event *ev, ptodb_status why)
{
    strbuf_clear(&m->error);
    strbuf_printf(&m->error, "%s:%d:%d: in %s: ", ev->file ? ev->file : m->p->path, ev->line,
                  ev->col, ev->func ? ev->func : "?");
    if (why == PTODB_ERR_TIMEOUT)
        strbuf_printf(&m->error, "timeout: the pass ran longer than the time limit of %g s (--timeout)",
                      m->opt.time_limit);
    else
        strbuf_puts(&m->error, "interrupted");
    strbuf_printf(&m->error, "; stopped here after %llu statements", (unsigned long long)m->steps);
    m->error_ref = 0;
    ev->kind = EXEC_EV_ERROR;
    return why;
}

ptodb_status machine_start(machine *m, int fn, const value *args, uint32_t nargs)
{
    if (fn < 0 || (uint32_t)fn >= m->p->nfuncs)
        return PTODB_ERR_USAGE;
    for (int i = 0; i < EXEC_NCORES; i++) {
        machine_core_clear(&m->cores[i]);
        memset(m->cores[i].calls, 0, (m->p->nfuncs ? m->p->nfuncs : 1) * sizeof *m->cores[i].calls);
    }
    m->grp.active = 0;
    m->grp.race_instance = 0;
    m->race_spmd = 0;
    if (m->race)
        exec_gmrace_stale(m->race); /* nothing of an earlier run is compared */
    xrt_reset(&m->grp.rt);
    xrt_reset(&m->global_rt); /* a fresh run starts with empty queues */
    m->finished = 0;
    strbuf_clear(&m->error);
    m->error_ref = 0;
    if (m->opt.time_limit > 0)
        m->deadline = clock_seconds() + m->opt.time_limit;
    core *h = &m->cores[EXEC_CORE_HOST];
    value *cp = xmalloc((nargs ? nargs : 1) * sizeof(value));
    for (uint32_t i = 0; i < nargs; i++)
        cp[i] = value_copy(&args[i]);
    h->ctx.err_set = 0;
    h->ctx.fail_at = NULL;
    h->ctx.ref_fail = 0;
    h->state = CORE_READY;
    ptodb_status st = frame_push(m, h, &m->p->funcs[fn], cp, nargs);
    free(cp);
    if (m->prov && st == PTODB_OK) {
        /* the entry's tensors: named by their parameters */
        exec_prov_reset(m->prov);
        const xfunc *ef = &m->p->funcs[fn];
        for (uint32_t i = 0; i < nargs; i++) {
            value *pv = &h->frames[0].slots[ef->src->params[i].slot];
            if (pv->kind != VAL_TENSOR || !pv->u.t)
                continue;
            strbuf nb = STRBUF_INIT;
            ir_ssa_base_name(ef->src->params[i].name->text, &nb);
            exec_prov_set_param(m->prov, strbuf_str(&nb), pv->u.t);
            strbuf_free(&nb);
        }
    }
    if (st != PTODB_OK) {
        st = core_error(m, h, NULL, st);
        return st;
    }
    return PTODB_OK;
}

/* A recording after a step that started at `step`: how far the run got,
 * and how it ended when that is new (not a replay of its history). */
static void rec_note(machine *m, uint64_t step, const exec_event *ev, ptodb_status st)
{
    exec_sched_pass *r = m->sched_rec;
    int fresh = step >= r->reached;
    exec_sched_pass_reach(r, m->steps);
    if (!fresh || r->end != EXEC_SCHED_END_NONE)
        return;
    if (st == PTODB_ERR_INTERRUPTED || st == PTODB_ERR_TIMEOUT) /* not the program's doing */
        exec_sched_pass_end(r, m->steps, EXEC_SCHED_END_STOPPED);
    else if (ev->kind == EXEC_EV_ERROR)
        exec_sched_pass_end(r, m->steps, EXEC_SCHED_END_FAILED);
    else if (m->finished)
        exec_sched_pass_end(r, m->steps, EXEC_SCHED_END_FINISHED);
}

static ptodb_status step_any(machine *m, exec_event *ev);
static ptodb_status step_given(machine *m, int id, exec_event *ev);

ptodb_status machine_step(machine *m, exec_event *ev)
{
    uint64_t step = m->steps;
    ptodb_status st = step_any(m, ev);
    if (m->sched_rec)
        rec_note(m, step, ev, st);
    return st;
}

ptodb_status machine_step_core(machine *m, int id, exec_event *ev)
{
    uint64_t step = m->steps;
    ptodb_status st = step_given(m, id, ev);
    if (m->sched_rec)
        rec_note(m, step, ev, st);
    return st;
}

static ptodb_status step_any(machine *m, exec_event *ev)
{
    memset(ev, 0, sizeof *ev);
    if (m->finished) {
        ev->kind = EXEC_EV_DONE;
        return PTODB_OK;
    }
    if (m->sched_play && play_before(m) != PTODB_OK)
        return play_fail(m, ev);
    core *c;
    if (m->grp.active) {
        /* the fixed schedule's choice matters only to a recording (where
         * the run differs from it) or a replay: not asked otherwise (a walk
         * over the group's cores at every statement) */
        int fixed = m->sched_play || m->sched_rec ? fixed_pick(m) : -1;
        int id = m->sched_play ? play_group_core(m, fixed) : pick_group_core(m);
        if (m->play_err.len)
            return play_fail(m, ev);
        if (id < 0) {
            int parked = spmd_barrier_park_group(m);
            if (parked > 0) /* the block waits at a syncall: the next one runs */
                return step_any(m, ev);
            ev->kind = EXEC_EV_ERROR;
            if (parked < 0) {
                m->error_ref = 0;
                return PTODB_ERR_UNSUPPORTED;
            }
            return deadlock(m);
        }
        c = &m->cores[group_take(m, id, fixed)];
    } else {
        c = &m->cores[EXEC_CORE_HOST];
        if (c->state == CORE_BLOCKED && !core_runnable(c)) {
            /* a pop outside any group run: no other core can ever push */
            xframe *f = &c->frames[c->depth - 1];
            const ir_span *sp = inst_span(&f->fn->code[f->pc]);
            strbuf_clear(&m->error);
            strbuf_printf(&m->error,
                          "%s:%u:%u: in %s: RuntimeError: %s timeout (%s); pipe_state=", m->p->path,
                          sp ? sp->line : 0, sp ? sp->col : 0, f->fn->name, c->wait_op, c->wait_args);
            xrt_pipe_state(c->rt, &m->error);
            strbuf_printf(&m->error,
                          "\nptodb: deadlock: the host core (function %s) pops from an empty queue "
                          "outside any group run, so no other core can ever push to it\n  queues:\n",
                          f->fn->name);
            xrt_describe(c->rt, &m->error);
            m->error_ref = 1;
            ev->kind = EXEC_EV_ERROR;
            return PTODB_ERR_DEADLOCK;
        }
        if (c->state != CORE_READY && c->state != CORE_BLOCKED) {
            ev->kind = EXEC_EV_ERROR;
            if (!m->error.len)
                strbuf_puts(&m->error, "the machine is not running (no entry started)");
            return PTODB_ERR_USAGE;
        }
    }
    ptodb_status st = step_core(m, c, ev);
    /* every 4096 statements: a few ns per statement */
    if (st == PTODB_OK && (m->steps & 4095) == 0 && ev->kind != EXEC_EV_DONE) {
        if (m->opt.poll)
            m->opt.poll(m->opt.poll_ud, m->p->path, m->steps);
        if (m->opt.interrupt && *m->opt.interrupt)
            return stopped_early(m, ev, PTODB_ERR_INTERRUPTED);
        if (m->opt.time_limit > 0 && clock_seconds() > m->deadline)
            return stopped_early(m, ev, PTODB_ERR_TIMEOUT);
    }
    return st;
}

static ptodb_status step_given(machine *m, int id, exec_event *ev)
{
    memset(ev, 0, sizeof *ev);
    if (id < 0 || id >= EXEC_NCORES)
        return PTODB_ERR_USAGE;
    core *c = &m->cores[id];
    if (c->state == CORE_BLOCKED && !core_runnable(c)) {
        xframe *f = &c->frames[c->depth - 1];
        fill_event(m, c, &f->fn->code[f->pc], ev, EXEC_EV_BLOCKED);
        return PTODB_OK;
    }
    if (!core_runnable(c))
        return PTODB_ERR_USAGE;
    if (m->sched_play && play_before(m) != PTODB_OK)
        return play_fail(m, ev);
    if (c->in_group) {
        int fixed = m->sched_play || m->sched_rec ? fixed_pick(m) : -1;
        if (m->sched_play) {
            /* a replay runs the recorded core: another is refused, as usage */
            int want = play_group_core(m, fixed);
            if (m->play_err.len)
                return play_fail(m, ev);
            if (want != id) {
                m->play_used = 0;
                strbuf_clear(&m->error);
                strbuf_printf(&m->error, "the replayed schedule runs %s at step %llu, not %s", core_names[want],
                              (unsigned long long)m->steps, core_names[id]);
                return PTODB_ERR_USAGE;
            }
        }
        group_take(m, id, fixed);
    }
    return step_core(m, c, ev);
}

ptodb_status machine_run(machine *m)
{
    exec_event ev;
    for (;;) {
        ptodb_status st = machine_step(m, &ev);
        if (st != PTODB_OK)
            return st;
        if (ev.kind == EXEC_EV_DONE)
            return PTODB_OK;
    }
}

/* ---- the memory model (memcheck.c) -------------------------------------- */

uint64_t machine_mem_faults(const machine *m)
{
    return exec_memcheck_faults(m->mem);
}

const char *machine_mem_report(const machine *m)
{
    return exec_memcheck_report(m->mem);
}

const char *machine_mem_last(const machine *m)
{
    return exec_memcheck_last(m->mem);
}

int machine_mem_take_fault(machine *m)
{
    return exec_memcheck_take_pending(m->mem);
}

void machine_mem_format_map(const machine *m, int core_id, strbuf *out)
{
    if (!m->mem) {
        strbuf_puts(out, "no memory model: memcheck is off (--memcheck=on)\n");
        return;
    }
    if (core_id < 0 || core_id >= EXEC_NCORES) {
        strbuf_puts(out, "no such core\n");
        return;
    }
    const mem_core *mc = exec_memcheck_core_of(m->mem, &m->cores[core_id]);
    if (!mc) {
        strbuf_printf(out, "core %s runs no kernel: no on-chip memory to show\n", machine_core_name(core_id));
        return;
    }
    static const char *const names[3] = {"AIC", "AIV0", "AIV1"};
    const mem_core *all = exec_memcheck_core(m->mem, EXEC_CORE_AIC);
    strbuf_printf(out, "memory of %s (%s):\n", names[mc - all], mem_target_name(mc->target));
    size_t before = out->len;
    mem_core_format_map(mc, out);
    if (out->len == before)
        strbuf_puts(out, "  no tile placed yet\n");
}

mem_core *machine_mem_core(machine *m, int core_id)
{
    return (mem_core *)exec_memcheck_core(m->mem, core_id);
}

