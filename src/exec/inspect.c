#include "exec/inspect.h"

#include <ctype.h>
#include <string.h>

#include "exec/machine_int.h"
#include "exec/program.h"
#include "ir/walk.h"

const char *inspect_core_state_name(inspect_core_state s)
{
    static const char *const names[] = {"idle", "ready", "blocked", "waiting", "done", "failed"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

static const core *get_core(const machine *m, int c)
{
    return c >= 0 && c < EXEC_NCORES ? &m->cores[c] : NULL;
}

inspect_core_state inspect_core(const machine *m, int c)
{
    const core *k = get_core(m, c);
    if (!k)
        return INSPECT_CORE_IDLE;
    switch (k->state) {
    case CORE_READY: return INSPECT_CORE_READY;
    case CORE_BLOCKED: return INSPECT_CORE_BLOCKED;
    case CORE_WAIT_GROUP: return INSPECT_CORE_WAITING;
    case CORE_DONE: return INSPECT_CORE_DONE;
    case CORE_FAILED: return INSPECT_CORE_FAILED;
    default: return INSPECT_CORE_IDLE;
    }
}

int inspect_depth(const machine *m, int c)
{
    const core *k = get_core(m, c);
    return k ? k->depth : 0;
}

size_t inspect_parked_blocks(const machine *m)
{
    return m->bar.active ? m->bar.n - m->bar.first : 0;
}

int inspect_has_last_frame(const machine *m, int c)
{
    const core *k = get_core(m, c);
    return k && k->depth == 0 && k->kept;
}

static const xframe *get_frame(const machine *m, int c, int level)
{
    const core *k = get_core(m, c);
    if (level == INSPECT_LAST_FRAME)
        return k && k->depth == 0 && k->kept ? &k->frames[0] : NULL;
    if (!k || level < 0 || level >= k->depth)
        return NULL;
    return &k->frames[k->depth - 1 - level];
}

/* Slots the user can name: the resolver's (params + body names); the
 * lowering appends hidden temps after them. */
static int named_slots(const xfunc *fn)
{
    return fn->src ? (int)fn->src->nslots : 0;
}

/* The statement a stop at pc names: past the jumps and copies the lowering
 * adds (after a pl.yield_, the jump back to the loop head), so a stop there
 * names the `for` it goes to, never line 0. NULL past the code's end. */
static const ir_stmt *stmt_from(const xfunc *fn, uint32_t pc)
{
    for (int hops = 0; hops < 64 && pc < fn->ncode && !fn->code[pc].stmt; hops++)
        pc = fn->code[pc].kind == XI_JUMP ? (uint32_t)fn->code[pc].target : pc + 1;
    return pc < fn->ncode ? fn->code[pc].stmt : NULL;
}

int inspect_frame_get(const machine *m, int c, int level, inspect_frame *out)
{
    memset(out, 0, sizeof *out);
    const xframe *f = get_frame(m, c, level);
    if (!f)
        return 0;
    out->func = f->fn->name;
    out->ir = f->fn->src;
    out->file = m->p->path;
    /* the statement about to run */
    out->stmt = stmt_from(f->fn, f->pc);
    /* at an implicit return (a function without `return`): its last statement */
    for (uint32_t k = f->fn->ncode; !out->stmt && k > 0; k--)
        out->stmt = f->fn->code[k - 1].stmt;
    if (out->stmt) {
        out->line = (int)out->stmt->span.line;
        out->col = (int)out->stmt->span.col;
    }
    /* where the call's first stop was (a pl.func_attr line is no statement) */
    const ir_stmt *first = stmt_from(f->fn, 0);
    out->first_line = first ? (int)first->span.line : 0;
    out->nparams = (int)f->fn->nparams;
    out->nslots = named_slots(f->fn);
    out->activation = f->activation;
    out->local_steps = f->local_steps;
    out->block_idx = f->block_idx;
    out->block_num = f->block_num > 0 ? f->block_num : 1;
    return 1;
}

int inspect_slot(const machine *m, int c, int level, int i, const char **name, const value **val)
{
    const xframe *f = get_frame(m, c, level);
    if (!f || i < 0 || i >= named_slots(f->fn))
        return 0;
    *name = f->fn->src->slot_names[i]->text;
    *val = &f->slots[i];
    return 1;
}

static size_t base_len(const char *name)
{
    const char *p = strstr(name, "__");
    return p ? (size_t)(p - name) : strlen(name);
}

/* x__ssa_v3, x__iter_v1_2, ...: versions of the variable x, as opposed to
 * x__tile or x__gm_pipe_buffer, other variables made from x. */
static int is_version_name(const char *name, size_t base)
{
    static const char *const kinds[] = {"ssa_v", "rv_v", "iter_v", "idx_v", "phi_v", "tmp_v"};
    const char *suffix = name + base + 2;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        size_t n = strlen(kinds[k]);
        if (strncmp(suffix, kinds[k], n) != 0)
            continue;
        const char *p = suffix + n;
        for (;;) {
            if (!isdigit((unsigned char)*p))
                return 0;
            while (isdigit((unsigned char)*p))
                p++;
            if (*p == '\0')
                return 1;
            if (*p++ != '_')
                return 0;
        }
    }
    return 0;
}

int inspect_find_slot(const machine *m, int c, int level, const char *name)
{
    const xframe *f = get_frame(m, c, level);
    if (!f)
        return -1;
    int n = named_slots(f->fn);
    if (f->fn->slot_by_name_cap) {
        /* the first slot of that name, by the function's index of them */
        uint32_t cap = f->fn->slot_by_name_cap;
        for (uint32_t k = (uint32_t)exec_name_hash(name) & (cap - 1); f->fn->slot_by_name[k]; k = (k + 1) & (cap - 1)) {
            int i = (int)f->fn->slot_by_name[k] - 1;
            if (i < n && strcmp(f->fn->src->slot_names[i]->text, name) == 0)
                return i;
        }
    } else {
        for (int i = 0; i < n; i++)
            if (strcmp(f->fn->src->slot_names[i]->text, name) == 0)
                return i;
    }
    /* "x" is the latest assigned version of x (x__ssa_vN, x__iter_vN, ...;
     * slots are numbered in order of first appearance), else the latest
     * assigned other variable made from x (x__tile). */
    size_t len = strlen(name);
    int version = -1, other = -1;
    for (int i = 0; i < n; i++) {
        const char *sn = f->fn->src->slot_names[i]->text;
        if (base_len(sn) != len || strncmp(sn, name, len) != 0 || f->slots[i].kind == VAL_UNBOUND)
            continue;
        if (sn[len] && is_version_name(sn, len))
            version = i;
        else
            other = i;
    }
    return version >= 0 ? version : other;
}

int inspect_slot_matches(const machine *m, int c, int level, const char *name, int *out, int max)
{
    const xframe *f = get_frame(m, c, level);
    if (!f)
        return 0;
    int n = named_slots(f->fn), count = 0;
    size_t len = strlen(name);
    for (int i = 0; i < n; i++) {
        const char *sn = f->fn->src->slot_names[i]->text;
        if (base_len(sn) != len || strncmp(sn, name, len) != 0 || f->slots[i].kind == VAL_UNBOUND)
            continue;
        if (count < max)
            out[count] = i;
        count++;
    }
    return count;
}

typedef struct annot_search {
    int32_t slot;
    const ir_expr *annot;
} annot_search;

static void find_annotation(void *ctx, const ir_stmt *st)
{
    annot_search *a = ctx;
    if (!a->annot && (st->kind == IR_STMT_ASSIGN || st->kind == IR_STMT_YIELD) && st->u.assign.ntargets == 1 && st->u.assign.annot &&
        st->u.assign.targets[0].slot == a->slot)
        a->annot = st->u.assign.annot;
}

const ir_expr *inspect_slot_annotation(const machine *m, int c, int level, int slot)
{
    const xframe *f = get_frame(m, c, level);
    if (!f || slot < 0 || slot >= named_slots(f->fn))
        return NULL;
    const ir_func *fn = f->fn->src;
    if ((uint32_t)slot < fn->nparams)
        return fn->params[slot].annot;
    annot_search a = {slot, NULL};
    ir_walk_stmts(&fn->body, find_annotation, &a);
    return a.annot;
}

const char *inspect_waiting(const machine *m, int c)
{
    const core *k = get_core(m, c);
    if (!k || k->state != CORE_BLOCKED)
        return NULL;
    return k->wait_what[0] ? k->wait_what : NULL;
}

static void describe_queue(const machine *m, const xrt *rt, const xqueue *q, inspect_queue *e)
{
    memset(e, 0, sizeof *e);
    int exchange = q->name && strcmp(q->name, "aic_gather") == 0;
    e->direction = exchange ? "lane exchange" : q->to_aiv ? "aic->aiv" : "aiv->aic";
    e->split = q->split;
    e->lane = q->lane;
    e->depth = (int)q->n;
    e->limit = (int)q->limit;
    e->id = q;
    /* the producer's pipe: AIC pushes to AIV, an AIV lane to AIC */
    int pipe = q->to_aiv ? 0 : q->lane == 1 ? 2 : 1;
    if (!exchange && rt->pipe[pipe].set) {
        e->slot_num = rt->pipe[pipe].slot_num;
        e->slot_size = rt->pipe[pipe].slot_size;
    }
    for (int c = 0; c < EXEC_NCORES; c++) {
        const core *k = &m->cores[c];
        if (k->state == CORE_BLOCKED)
            for (int w = 0; w < k->nwait && w < 2; w++)
                if (k->wait[w] == q)
                    e->waiting |= 1u << c;
    }
}

const tensor *inspect_queue_item(const machine *m, const inspect_queue *q, int k)
{
    (void)m;
    const xqueue *x = q->id;
    if (!x || k < 0 || (uint32_t)k >= x->n || !x->cap)
        return NULL;
    const value *v = &x->items[(x->head + (uint32_t)k) % x->cap];
    return v->kind == VAL_TENSOR ? v->u.t : NULL;
}

/* The running group's queues touched so far, in one order (pipe by pipe,
 * then the lane exchanges): at most max into qs; returns how many there
 * are. */
static int touched_queues(const machine *m, const xrt **rtp, const xqueue **qs, int max)
{
    const xrt *rt = m->grp.active ? &m->grp.rt : &m->global_rt;
    *rtp = rt;
    int n = 0;
#define ADD_QUEUE(q)                                                                                                   \
    do {                                                                                                               \
        if ((q)->touched) {                                                                                            \
            if (n < max)                                                                                               \
                qs[n] = (q);                                                                                           \
            n++;                                                                                                       \
        }                                                                                                              \
    } while (0)
    for (int id = 0; id < XRT_NPIPES; id++) {
        const xpipe *p = &rt->p[id];
        ADD_QUEUE(&p->to_aiv);
        ADD_QUEUE(&p->to_aic);
        for (int l = 0; l < 2; l++) {
            ADD_QUEUE(&p->to_aiv_dual[l]);
            ADD_QUEUE(&p->to_aic_dual[l]);
        }
        for (int s = 1; s <= 4; s++)
            for (int l = 0; l < 2; l++) {
                ADD_QUEUE(&p->to_aiv_split[s][l]);
                ADD_QUEUE(&p->to_aic_split[s][l]);
            }
    }
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            ADD_QUEUE(&rt->gather[a][b]);
#undef ADD_QUEUE
    return n;
}

int inspect_queues(const machine *m, inspect_queue *out, int max)
{
    const xrt *rt;
    const xqueue *qs[256];
    int n = touched_queues(m, &rt, qs, max < 256 ? max : 256);
    for (int i = 0; i < n && i < max && i < 256; i++)
        describe_queue(m, rt, qs[i], &out[i]);
    return n;
}

int inspect_queue_items(const machine *m, int max_queues, const tensor **items, int *lanes, int max)
{
    const xrt *rt;
    const xqueue *qs[256];
    int nq = touched_queues(m, &rt, qs, max_queues < 256 ? max_queues : 256), n = 0;
    for (int i = 0; i < nq && i < max_queues && i < 256; i++) {
        const xqueue *x = qs[i];
        for (uint32_t k = 0; k < x->n && n < max; k++) {
            const value *v = x->cap ? &x->items[(x->head + k) % x->cap] : NULL;
            if (!v || v->kind != VAL_TENSOR || !v->u.t)
                continue;
            items[n] = v->u.t;
            lanes[n++] = x->lane;
        }
    }
    return n;
}
