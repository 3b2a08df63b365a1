/* Provenance of a run's values (prov.h). */
#include "exec/prov.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "exec/machine_int.h"
#include "exec/op.h"
#include "exec/region.h"
#include "ir/resolve.h"

typedef enum { PN_OP = 1, PN_LOAD, PN_PARAM, PN_SHARE, PN_ITEM } pn_kind;

enum { PN_KIDS = 4 };

/* The lifted form of a value along dim d (prov.h, machine_prov_lift): l
 * names the computation with the leaves' extent along d left out, s the
 * offset along d where its element 0 sits; n the result's expected size
 * along d until the node is finished with the result's shape. */
typedef struct prov_lift {
    uint64_t l;                 /* 0: none */
    int64_t s, n;
} prov_lift;

typedef struct prov_node {
    uint64_t h;                 /* 0: an empty slot */
    prov_lift lift[PROV_LIFT_DIMS];
    uint64_t shape_h;           /* the shape the lifted forms are of (a reshape keeps h) */
    uint8_t lift_done;          /* lift[] finished with the result's shape */
    uint8_t kind;               /* pn_kind */
    uint8_t nkids;
    int16_t split, lane;        /* PN_SHARE */
    const char *op;             /* PN_OP: the catalogue's name (static) */
    char *leaf;                 /* PN_LOAD: "x[0:16, 0:64]"; PN_PARAM: the name */
    uint64_t kids[PN_KIDS];     /* tensor operands, the first PN_KIDS */
    uint32_t count[EXEC_NCORES];
} prov_node;

/* what op_lift does with an op, by op id (lift_class; 0: not yet asked) */
typedef enum {
    LIFT_NONE = 1,   /* mixes along both dims, or not known not to */
    LIFT_POINTWISE,  /* every operand at the same place, or broadcast */
    LIFT_REDUCE,     /* a max/min reduction: its first operand only */
    LIFT_SUM,        /* a row sum/product: first operand only, a contiguous row >= 8 */
    LIFT_MATMUL,     /* matmul(a, b) */
    LIFT_MATMUL_ACC  /* matmul_acc(acc, a, b) */
} lift_class;

struct exec_prov {
    uint8_t lift_class[IR_OP_COUNT];
    prov_node *nodes;           /* every node, in the order met (xpages_grow: never copied) */
    size_t n, capnodes;
    /* the nodes by h, open addressing (h 0: an empty slot): a small slot
     * each, so that the table's growth touches little memory */
    struct prov_slot { uint64_t h; size_t i; } *slots;
    size_t cap;
    prov_node pending;          /* the node exec_prov_op_hash made, for set_result */
    /* what each core's last assignment bound (machine_prov_just_made) */
    struct prov_made {
        uint64_t step, h;
        uint32_t k;
        int on;                 /* the core that computed it */
        const ir_stmt *st;
    } made[EXEC_NCORES];
    /* Every count increment of the run in order (hash, core), and how many
     * of them the counts hold now (cursor): a snapshot keeps the cursor, a
     * restore undoes or redoes the increments between (the run is
     * deterministic, so the log past the cursor is the run's future). */
    struct prov_inc { uint64_t h; int core; } *log;
    size_t nlog, caplog, cursor;
    /* the sum of count_term over the nodes, kept as counts change: the
     * state hash's, which must not scan the table at every moment */
    uint64_t count_sum;
};

/* ---- hashing: FNV-1a over a canonical byte form, then a 64-bit finaliser ---- */

#define FNV_OFFSET 1469598103934665603ull
#define FNV_PRIME 1099511628211ull

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * FNV_PRIME;
    return h;
}

static uint64_t fnv_u64(uint64_t h, uint64_t v)
{
    return fnv(h, &v, sizeof v);
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
    return fnv(h, s, strlen(s) + 1);
}

static uint64_t finish(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h ? h : 1; /* 0 means untracked */
}

/* ---- the node table -------------------------------------------------------------------- */

exec_prov *exec_prov_new(void)
{
    return xcalloc(1, sizeof(exec_prov));
}

void exec_prov_free(exec_prov *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->nodes[i].leaf);
    pages_free(p->nodes, p->capnodes, sizeof *p->nodes);
    free(p->slots);
    free(p->pending.leaf);
    free(p->log);
    free(p);
}

void exec_prov_reset(exec_prov *p)
{
    for (size_t i = 0; i < p->n; i++)
        memset(p->nodes[i].count, 0, sizeof p->nodes[i].count);
    p->count_sum = 0;
    memset(p->made, 0, sizeof p->made);
    p->nlog = p->cursor = 0;
}

static size_t slot_of(const exec_prov *p, uint64_t h)
{
    size_t j = (size_t)h & (p->cap - 1);
    while (p->slots[j].h && p->slots[j].h != h)
        j = (j + 1) & (p->cap - 1);
    return j;
}

static prov_node *find_node(const exec_prov *p, uint64_t h)
{
    if (!p || !p->cap || !h)
        return NULL;
    size_t j = slot_of(p, h);
    return p->slots[j].h ? &p->nodes[p->slots[j].i] : NULL;
}

/* The node of nd->h, added (taking nd->leaf) when new. */
static prov_node *put_node(exec_prov *p, prov_node *nd)
{
    if ((p->n + 1) * 2 > p->cap) {
        p->cap = p->cap ? p->cap * 2 : 256;
        free(p->slots);
        p->slots = xcalloc(p->cap, sizeof *p->slots);
        for (size_t i = 0; i < p->n; i++)
            p->slots[slot_of(p, p->nodes[i].h)] = (struct prov_slot){p->nodes[i].h, i};
    }
    size_t j = slot_of(p, nd->h);
    if (p->slots[j].h) {
        free(nd->leaf);
        nd->leaf = NULL;
        return &p->nodes[p->slots[j].i];
    }
    if (p->n == p->capnodes)
        p->nodes = xpages_grow(p->nodes, &p->capnodes, p->n + 1, sizeof *p->nodes);
    prov_node *n = &p->nodes[p->n];
    *n = *nd;
    memset(n->count, 0, sizeof n->count);
    nd->leaf = NULL;
    p->slots[j] = (struct prov_slot){nd->h, p->n++};
    return n;
}

/* A freshly computed value of node nd on core: its count there, and the
 * tensor's fields. */
static void lift_finish(prov_node *n, const tensor *t);

/* A node's part of the state hash: its counts on every core (0 while
 * they are all 0: a node a restored run has not met again yet is kept,
 * uncounted). */
static uint64_t count_term(const prov_node *nd)
{
    uint64_t x = nd->h;
    int any = 0;
    for (int c = 0; c < EXEC_NCORES; c++) {
        any |= nd->count[c] != 0;
        x = (x ^ nd->count[c]) * 0xff51afd7ed558ccdull;
        x ^= x >> 29;
    }
    return nd->h && any ? x : 0;
}

/* Every change of a count goes here, so that count_sum stays the sum. */
static void count_add(exec_prov *p, prov_node *nd, int cid, int delta)
{
    p->count_sum -= count_term(nd);
    nd->count[cid] = (uint32_t)((int64_t)nd->count[cid] + delta);
    p->count_sum += count_term(nd);
}

static void made_fresh(exec_prov *p, prov_node *nd, int cid, uint64_t step, tensor *t)
{
    prov_node *n = put_node(p, nd);
    if (!n->lift_done)
        lift_finish(n, t);
    t->prov = n->h;
    count_add(p, n, cid, 1);
    t->prov_k = n->count[cid];
    if (p->cursor < p->nlog && (p->log[p->cursor].h != n->h || p->log[p->cursor].core != cid))
        p->nlog = p->cursor; /* not the recorded future (a changed run): it ends here */
    if (p->cursor == p->nlog) {
        if (p->nlog == p->caplog) {
            p->caplog = p->caplog ? 2 * p->caplog : 1024;
            p->log = xreallocarray(p->log, p->caplog, sizeof *p->log);
        }
        p->log[p->nlog].h = n->h;
        p->log[p->nlog].core = cid;
        p->nlog++;
    }
    p->cursor++;
    t->prov_core = cid;
    (void)step;
}

/* ---- lifted forms: a lane's share (prov.h, machine_prov_lift) --------------------------- */

static int hash_value(prov_node *nd, uint64_t *h, const value *v);

static uint64_t shape_hash(const tensor *t)
{
    uint64_t h = fnv_u64(fnv(FNV_OFFSET, "shape", 5), (uint64_t)t->ndim);
    for (int e = 0; e < t->ndim; e++)
        h = fnv_u64(h, (uint64_t)t->shape[e]);
    return finish(h);
}

/* t's dims but d, into h: a lifted form holds every extent but the one the
 * lanes split */
static uint64_t other_dims(uint64_t h, const tensor *t, int d)
{
    h = fnv_u64(h, (uint64_t)t->ndim);
    for (int e = 0; e < t->ndim; e++)
        if (e != d)
            h = fnv_u64(h, (uint64_t)t->shape[e]);
    return h;
}

/* Operand t's lifted form along d: its own when its node has one of t's
 * shape (a reshape keeps the hash, not the rows), else t whole: its hash
 * and shape, at offset 0. 0 when t is untracked or has no dim d. */
static int operand_lift(const exec_prov *p, const tensor *t, int d, prov_lift *out)
{
    if (!t || !t->prov || t->ndim <= d)
        return 0;
    const prov_node *n = find_node(p, t->prov);
    if (n && n->lift_done && n->lift[d].l && n->shape_h == shape_hash(t)) {
        *out = n->lift[d];
        return 1;
    }
    uint64_t h = fnv_u64(fnv(FNV_OFFSET, "whole", 5), t->prov);
    out->l = finish(fnv_u64(other_dims(h, t, d), (uint64_t)t->shape[d]));
    out->s = 0;
    out->n = t->shape[d];
    return 1;
}

/* "add" and the others whose result element depends only on the operands'
 * elements at the same place (broadcast along a dim of size 1): every
 * element-wise op, and the row_* / col_* ops, which reduce or broadcast
 * along one dim and keep the other apart (the size test in op_lift tells
 * which dim they keep). */
static int lift_pointwise(const char *op)
{
    static const char *const names[] = {
        "add", "sub", "mul", "div", "maximum", "minimum", "and", "or", "xor", "shl", "shr", "rem", "fmod",
        "adds", "subs", "muls", "divs", "maximums", "minimums", "ands", "ors", "xors", "shls", "shrs", "rems",
        "fmods", "addc", "subc", "addsc", "subsc", "exp", "log", "sqrt", "rsqrt", "recip", "neg", "abs", "relu",
        "not", "cos", "sin", "cast", "cmp", "cmps", "sel", "sels", "lrelu", "prelu"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(op, names[i]) == 0)
            return 1;
    return strncmp(op, "row_", 4) == 0 || strncmp(op, "col_", 4) == 0;
}

/* The reductions read their first operand only (the second is scratch: a
 * lane's is smaller); a sum or product in the order torch's kernel takes,
 * which depends on the other dim's extent unless the reduced dim is
 * contiguous and at least a vector wide: rows only then; a column sum
 * never. */
static lift_class lift_class_of(const char *op)
{
    if (strcmp(op, "matmul") == 0)
        return LIFT_MATMUL;
    if (strcmp(op, "matmul_acc") == 0)
        return LIFT_MATMUL_ACC;
    if (strcmp(op, "col_sum") == 0 || strcmp(op, "col_prod") == 0 || !lift_pointwise(op))
        return LIFT_NONE;
    if (strcmp(op, "row_sum") == 0 || strcmp(op, "row_prod") == 0)
        return LIFT_SUM;
    if (strcmp(op, "row_max") == 0 || strcmp(op, "row_min") == 0 || strcmp(op, "col_max") == 0 ||
        strcmp(op, "col_min") == 0)
        return LIFT_REDUCE;
    return LIFT_POINTWISE;
}

/* The lifted forms of op `op` (of class cls) over its operands (prov.h),
 * but for the result's shape (lift_finish): into nd->lift, none where the
 * op mixes along the dim. kwsum: the kwargs, as in the hash. */
static void op_lift(const exec_prov *p, const char *op, lift_class cls, const value *pos, uint32_t npos,
                    uint64_t kwsum, prov_node *nd)
{
    /* the operands' roles: 1 split along d with the result, 2 as they are
     * (matmul's other operand, a vector broadcast along d) */
    int matmul = cls == LIFT_MATMUL ? 1 : cls == LIFT_MATMUL_ACC ? 2 : 0;
    if (cls == LIFT_NONE)
        return;
    int sum = cls == LIFT_SUM;
    if (sum || cls == LIFT_REDUCE)
        npos = npos ? 1 : 0;
    if (sum && (!npos || pos[0].kind != VAL_TENSOR || !pos[0].u.t || pos[0].u.t->ndim < 1 ||
                pos[0].u.t->strides[pos[0].u.t->ndim - 1] != 1 || pos[0].u.t->shape[pos[0].u.t->ndim - 1] < 8))
        return;
    for (int d = 0; d < PROV_LIFT_DIMS; d++) {
        int64_t n = -1;
        /* the result's size along d: the split operand's (matmul), else the
         * largest operand's */
        for (uint32_t i = 0; i < npos; i++) {
            if (pos[i].kind != VAL_TENSOR || !pos[i].u.t)
                continue;
            const tensor *t = pos[i].u.t;
            if (t->ndim <= d)
                goto none;
            if (!matmul && t->shape[d] > n)
                n = t->shape[d];
        }
        if (matmul) {
            /* rows: a's (the (matmul-1)th operand); columns: b's */
            uint32_t k = (uint32_t)matmul - 1 + (uint32_t)d;
            if (k >= npos || pos[k].kind != VAL_TENSOR || !pos[k].u.t || pos[k].u.t->ndim != 2)
                goto none;
            n = pos[k].u.t->shape[d];
        }
        if (n < 0)
            goto none;
        uint64_t l = fnv_u64(fnv_str(fnv(FNV_OFFSET, "lift", 4), op), (uint64_t)d);
        int64_t s = 0;
        int have_s = 0;
        for (uint32_t i = 0; i < npos; i++) {
            const value *v = &pos[i];
            if (v->kind != VAL_TENSOR) {
                prov_node scratch;
                memset(&scratch, 0, sizeof scratch);
                if (!hash_value(&scratch, &l, v))
                    goto none;
                continue;
            }
            const tensor *t = v->u.t;
            if (!t)
                goto none;
            int split;
            if (matmul) {
                /* matmul(a, b): a's rows, b's columns; matmul_acc(acc, a, b) */
                uint32_t a = (uint32_t)matmul - 1, b = a + 1;
                split = i < a ? 1 : i == a ? d == 0 : i == b ? d == 1 : 0;
                if (split && t->shape[d] != n)
                    goto none;
            } else {
                split = t->shape[d] == n;
                if (!split && t->shape[d] != 1)
                    goto none;
            }
            if (split) {
                prov_lift ol;
                if (!operand_lift(p, t, d, &ol) || (have_s && ol.s != s))
                    goto none;
                s = ol.s;
                have_s = 1;
                l = fnv_u64(fnv(l, "S", 1), ol.l);
            } else {
                if (!t->prov)
                    goto none;
                l = fnv_u64(fnv_u64(fnv(l, "I", 1), t->prov), shape_hash(t));
            }
        }
        if (!have_s)
            goto none;
        nd->lift[d].l = finish(fnv_u64(l, kwsum));
        nd->lift[d].s = s;
        nd->lift[d].n = n;
        continue;
    none:
        nd->lift[d].l = 0;
    }
}

/* The lifted forms of node n, whose first value is t: an op's with the
 * result's size along d checked and its other dims named. */
static void lift_finish(prov_node *n, const tensor *t)
{
    for (int d = 0; d < PROV_LIFT_DIMS; d++) {
        prov_lift *f = &n->lift[d];
        if (!f->l)
            continue;
        if (t->ndim <= d || t->shape[d] != f->n)
            f->l = 0;
        else
            f->l = finish(other_dims(f->l, t, d));
        f->n = 0;
    }
    n->shape_h = shape_hash(t);
    n->lift_done = 1;
}

/* A split's half (split 1: rows, 2: columns): along the split's dim, the
 * parent's lifted form (or the parent whole) shifted by the lane's offset;
 * none along the other dim. n holds the lane stride until share_lift_end. */
static void share_lift_begin(const exec_prov *p, const tensor *parent, int split, int64_t stride, prov_node *nd)
{
    memset(nd->lift, 0, sizeof nd->lift);
    nd->lift_done = 1;
    int d = split == 1 ? 0 : split == 2 ? 1 : -1;
    prov_lift pl;
    if (d < 0 || !operand_lift(p, parent, d, &pl))
        return;
    nd->lift[d].l = pl.l;
    nd->lift[d].s = pl.s;
    /* xcore_split: lane 1 starts at the stride, else at half the extent */
    nd->lift[d].n = stride > 0 ? stride : (parent->shape[d] + 1) / 2;
}

static void share_lift_end(prov_node *nd, int lane, const tensor *half)
{
    for (int d = 0; d < PROV_LIFT_DIMS; d++) {
        if (nd->lift[d].l)
            nd->lift[d].s += lane * nd->lift[d].n;
        nd->lift[d].n = 0;
    }
    nd->shape_h = shape_hash(half);
}

/* ---- op nodes -------------------------------------------------------------------------- */

/* kwargs that say where or how a value is kept, not what it is */
static int kw_affects_value(uint8_t kw)
{
    return kw != EXEC_KW_TARGET_MEMORY && kw != EXEC_KW_LAYOUT && kw != EXEC_KW_SCRATCH && kw != EXEC_KW_ID &&
           kw != EXEC_KW_BY_DEFINITION && kw != EXEC_KW_OTHER;
}

/* A value into the hash: 0 when it is a tensor with no provenance. */
static int hash_value(prov_node *nd, uint64_t *h, const value *v)
{
    double d;
    switch (v->kind) {
    case VAL_TENSOR:
        if (!v->u.t || !v->u.t->prov)
            return 0;
        *h = fnv_u64(fnv(*h, "T", 1), v->u.t->prov);
        if (nd->nkids < PN_KIDS)
            nd->kids[nd->nkids++] = v->u.t->prov;
        return 1;
    case VAL_INT:
    case VAL_FLOAT:
    case VAL_BOOL: {
        /* a number by value: 2 and 2.0 are one operand */
        value_as_double(v, &d);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        *h = fnv_u64(fnv(*h, "N", 1), bits);
        return 1;
    }
    case VAL_ENUM:
        *h = fnv_u64(fnv(*h, "E", 1), (uint64_t)(int64_t)v->u.e);
        return 1;
    case VAL_STR:
        *h = fnv_str(fnv(*h, "S", 1), v->u.s ? v->u.s : "");
        return 1;
    case VAL_TUPLE:
        *h = fnv(*h, "(", 1);
        for (uint32_t i = 0; v->u.tuple && i < v->u.tuple->n; i++)
            if (!hash_value(nd, h, &v->u.tuple->items[i]))
                return 0;
        *h = fnv(*h, ")", 1);
        return 1;
    default:
        *h = fnv(*h, "_", 1);
        return 1;
    }
}

/* "add" for tile.add and tensor.add: the tensor-level op and its tile form
 * are one op */
static const char *short_op(const char *name)
{
    if (strncmp(name, "tile.", 5) == 0)
        return name + 5;
    if (strncmp(name, "tensor.", 7) == 0)
        return name + 7;
    return name;
}

/* A pop: its tile already carries what the push gave it. */
static const value keep_as_is;

static uint64_t share_hash(uint64_t parent, int split, int64_t stride, int lane)
{
    uint64_t h = fnv(FNV_OFFSET, "share", 5);
    h = fnv_u64(h, parent);
    h = fnv_u64(h, (uint64_t)split);
    h = fnv_u64(h, (uint64_t)stride);
    h = fnv_u64(h, (uint64_t)lane);
    return finish(h);
}

static int64_t kw_int_or(const value *kw, const struct xexpr *x, int id, int64_t dflt)
{
    for (uint32_t i = 0; i < x->nkw; i++)
        if (x->kw_ids[i] == id && kw[i].kind == VAL_INT)
            return kw[i].u.i;
    return dflt;
}

uint64_t exec_prov_op_hash(exec_prov *p, const struct xexpr *x, const value *pos, uint32_t npos, const value *kw,
                           uint32_t nkw, const value **pass)
{
    prov_node *nd = &p->pending;
    free(nd->leaf);
    memset(nd, 0, sizeof *nd);
    *pass = NULL;
    switch (x->id) {
    case IR_OP_TILE_TPOP_FROM_AIC:
    case IR_OP_TILE_TPOP_FROM_AIV:
    case IR_OP_TILE_AIC_GATHER:
        /* the tile carries what the push gave it (the merge of two lanes'
         * tiles: exec_prov_merge) */
        *pass = &keep_as_is;
        return 0;
    case IR_OP_TILE_MOVE:
    case IR_OP_TILE_RESHAPE:
    case IR_OP_TENSOR_RESHAPE:
        /* the data as it was: a move between memories, a reshape (the
         * element order is unchanged) */
        if (npos && pos[0].kind == VAL_TENSOR)
            *pass = &pos[0];
        return 0;
    case IR_OP_TILE_AIV_SHARD: {
        int64_t s = kw_int_or(kw, x, EXEC_KW_SPLIT, 0), stride = kw_int_or(kw, x, EXEC_KW_LANE_STRIDE, 0);
        if (!npos || pos[0].kind != VAL_TENSOR || !pos[0].u.t->prov)
            return 0;
        if (s == 0) {
            *pass = &pos[0];
            return 0;
        }
        /* the lane is known only when the op runs: set_result */
        nd->kind = PN_SHARE;
        nd->split = (int16_t)s;
        nd->kids[0] = pos[0].u.t->prov;
        nd->nkids = 1;
        nd->h = (uint64_t)stride; /* kept until set_result */
        share_lift_begin(p, pos[0].u.t, (int)s, stride, nd);
        return 1;
    }
    default:
        break;
    }
    const ir_op_info *info = ir_op_info_get(x->id);
    const char *name = info ? info->name : "?";
    uint64_t h = fnv_str(fnv(FNV_OFFSET, "op", 2), short_op(name));
    for (uint32_t i = 0; i < npos; i++)
        if (!hash_value(nd, &h, &pos[i]))
            return 0;
    /* kwargs in any order: a sum of their own hashes */
    uint64_t kwsum = 0;
    for (uint32_t i = 0; i < nkw; i++) {
        if (!kw_affects_value(x->kw_ids[i]))
            continue;
        uint64_t k = fnv_str(FNV_OFFSET, exec_kw_name((exec_kw)x->kw_ids[i]));
        if (!hash_value(nd, &k, &kw[i]))
            return 0;
        kwsum += finish(k);
    }
    h = fnv_u64(h, kwsum);
    nd->kind = PN_OP;
    nd->op = name;
    nd->h = finish(h);
    /* a transposed matmul operand has its rows along the other dim */
    int trans = 0;
    for (uint32_t i = 0; i < nkw; i++)
        if (x->kw_ids[i] == EXEC_KW_A_TRANS || x->kw_ids[i] == EXEC_KW_B_TRANS) {
            double d = 0;
            trans |= !value_as_double(&kw[i], &d) || d != 0;
        }
    if (x->id >= 0 && x->id < IR_OP_COUNT && !p->lift_class[x->id])
        p->lift_class[x->id] = (uint8_t)lift_class_of(short_op(name));
    lift_class cls = x->id >= 0 && x->id < IR_OP_COUNT ? (lift_class)p->lift_class[x->id] : LIFT_NONE;
    if (!trans && cls != LIFT_NONE)
        op_lift(p, short_op(name), cls, pos, npos, kwsum, nd);
    return nd->h;
}

static void set_tensor_result(exec_prov *p, prov_node *nd, int cid, uint64_t step, tensor *t)
{
    made_fresh(p, nd, cid, step, t);
}

void exec_prov_set_result(exec_prov *p, int cid, uint64_t step, uint64_t h, const value *pass, value *out)
{
    prov_node *nd = &p->pending;
    if (pass == &keep_as_is)
        return;
    if (pass) {
        if (out->kind == VAL_TENSOR && out->u.t && out->u.t != pass->u.t && pass->kind == VAL_TENSOR) {
            out->u.t->prov = pass->u.t->prov;
            out->u.t->prov_k = pass->u.t->prov_k;
            out->u.t->prov_core = pass->u.t->prov_core;
        }
        return;
    }
    if (nd->kind == PN_SHARE && h == 1) {
        /* aiv_shard: the lane's half */
        if (out->kind != VAL_TENSOR || !out->u.t)
            return;
        int lane = cid == EXEC_CORE_AIV1;
        nd->h = share_hash(nd->kids[0], nd->split, (int64_t)nd->h, lane);
        nd->lane = (int16_t)lane;
        share_lift_end(nd, lane, out->u.t);
        set_tensor_result(p, nd, cid, step, out->u.t);
        return;
    }
    if (!h) {
        if (out->kind == VAL_TENSOR && out->u.t)
            out->u.t->prov = 0;
        return;
    }
    if (out->kind == VAL_TENSOR && out->u.t) {
        set_tensor_result(p, nd, cid, step, out->u.t);
    } else if (out->kind == VAL_TUPLE && out->u.tuple) {
        /* item i of a multi-valued op */
        for (uint32_t i = 0; i < out->u.tuple->n; i++) {
            value *it = &out->u.tuple->items[i];
            if (it->kind != VAL_TENSOR || !it->u.t)
                continue;
            prov_node item;
            memset(&item, 0, sizeof item);
            item.kind = PN_ITEM;
            item.kids[0] = h;
            item.nkids = 1;
            item.split = (int16_t)i;
            item.h = finish(fnv_u64(fnv_u64(FNV_OFFSET, h), i));
            item.lift_done = 1; /* an item of a tuple: no lifted form */
            put_node(p, nd); /* the tuple's own node, for the description */
            made_fresh(p, &item, cid, step, it->u.t);
        }
    }
}

void exec_prov_set_leaf(exec_prov *p, int cid, uint64_t step, const exec_region *g, tensor *t)
{
    prov_node nd;
    memset(&nd, 0, sizeof nd);
    nd.kind = PN_LOAD;
    strbuf rb = STRBUF_INIT;
    exec_region_format(g, &rb);
    const char *region = strbuf_str(&rb);
    uint64_t h = fnv_str(fnv(FNV_OFFSET, "load", 4), region);
    /* the tile's own shape: a region loaded into a larger (padded) tile is
     * another value */
    for (int d = 0; d < t->ndim; d++)
        h = fnv_u64(h, (uint64_t)t->shape[d]);
    h = fnv_u64(h, (uint64_t)t->dtype);
    nd.h = finish(h);
    nd.leaf = strbuf_detach(&rb);
    /* lifted along d: the box but its extent along d (the tile holding all
     * of it there), at its offset along d */
    for (int d = 0; d < PROV_LIFT_DIMS; d++) {
        if (g->ndim != t->ndim || d >= t->ndim || g->len[d] != t->shape[d])
            continue;
        uint64_t l = fnv_u64(fnv_str(fnv(FNV_OFFSET, "lload", 5), g->tensor), (uint64_t)d);
        l = fnv_u64(l, (uint64_t)t->dtype);
        for (int e = 0; e < g->ndim; e++)
            if (e != d)
                l = fnv_u64(fnv_u64(l, (uint64_t)g->lo[e]), (uint64_t)g->len[e]);
        nd.lift[d].l = finish(other_dims(l, t, d));
        nd.lift[d].s = g->lo[d];
    }
    nd.shape_h = shape_hash(t);
    nd.lift_done = 1;
    made_fresh(p, &nd, cid, step, t);
    strbuf_free(&rb);
}

void exec_prov_set_param(exec_prov *p, const char *name, tensor *t)
{
    prov_node nd;
    memset(&nd, 0, sizeof nd);
    nd.kind = PN_PARAM;
    nd.lift_done = 1; /* a parameter whole: no lifted form of its own */
    nd.h = finish(fnv_str(fnv(FNV_OFFSET, "param", 5), name));
    nd.leaf = xstrdup(name);
    prov_node *n = put_node(p, &nd);
    t->prov = n->h;
    t->prov_k = 1;
    t->prov_core = EXEC_CORE_HOST;
}

void exec_prov_assigned(exec_prov *p, int cid, uint64_t step, const ir_stmt *st, const value *v)
{
    struct prov_made *m = &p->made[cid];
    if (!v) {
        m->step = UINT64_MAX; /* computed; not yet assigned */
        return;
    }
    if (v->kind != VAL_TENSOR || !v->u.t || !v->u.t->prov) {
        m->step = UINT64_MAX;
        return;
    }
    m->step = step;
    m->h = v->u.t->prov;
    m->k = v->u.t->prov_k;
    m->on = v->u.t->prov_core;
    m->st = st;
}

void exec_prov_share(struct exec_ctx *ctx, const tensor *parent, tensor *half, int split, int64_t stride, int lane)
{
    exec_prov *p = ctx->m ? ctx->m->prov : NULL;
    if (!p || !half)
        return;
    if (!parent->prov) {
        half->prov = 0;
        return;
    }
    prov_node nd;
    memset(&nd, 0, sizeof nd);
    nd.kind = PN_SHARE;
    nd.split = (int16_t)split;
    nd.lane = (int16_t)lane;
    nd.kids[0] = parent->prov;
    nd.nkids = 1;
    nd.h = share_hash(parent->prov, split, stride, lane);
    share_lift_begin(p, parent, split, stride, &nd);
    share_lift_end(&nd, lane, half);
    made_fresh(p, &nd, ctx->core->id, ctx->m->steps, half);
}

void exec_prov_merge(struct exec_ctx *ctx, const tensor *h0, const tensor *h1, int split, tensor *merged)
{
    exec_prov *p = ctx->m ? ctx->m->prov : NULL;
    if (!p || !merged)
        return;
    merged->prov = 0;
    const prov_node *a = find_node(p, h0->prov), *b = find_node(p, h1->prov);
    /* the two shares of one value are that value again */
    if (a && b && a->kind == PN_SHARE && b->kind == PN_SHARE && a->kids[0] == b->kids[0] && a->split == split &&
        b->split == split && a->lane == 0 && b->lane == 1) {
        merged->prov = a->kids[0];
        merged->prov_k = h0->prov_k;
        merged->prov_core = h0->prov_core;
        return;
    }
    if (!h0->prov || !h1->prov)
        return;
    prov_node nd;
    memset(&nd, 0, sizeof nd);
    nd.kind = PN_OP;
    nd.op = "merge of two lanes";
    nd.lift_done = 1;
    /* two lanes' rows (columns) of one computation, side by side: that
     * computation over both, along the split's dim */
    int d = split == 1 ? 0 : split == 2 ? 1 : -1;
    prov_lift l0, l1;
    if (d >= 0 && h0->ndim > d && merged->ndim == h0->ndim && operand_lift(p, h0, d, &l0) &&
        operand_lift(p, h1, d, &l1) && l0.l == l1.l && l1.s == l0.s + h0->shape[d] &&
        merged->shape[d] == h0->shape[d] + h1->shape[d]) {
        nd.lift[d].l = l0.l;
        nd.lift[d].s = l0.s;
    }
    nd.shape_h = shape_hash(merged);
    nd.kids[0] = h0->prov;
    nd.kids[1] = h1->prov;
    nd.nkids = 2;
    nd.h = finish(fnv_u64(fnv_u64(fnv_u64(fnv(FNV_OFFSET, "merge", 5), h0->prov), h1->prov), (uint64_t)split));
    made_fresh(p, &nd, ctx->core->id, ctx->m->steps, merged);
}

void exec_prov_written(tensor *t)
{
    t->prov = 0;
}

/* ---- questions ------------------------------------------------------------------------- */

int machine_prov_just_made(const machine *m, int cid, uint64_t *h, uint32_t *k, int *on, const ir_stmt **st)
{
    if (!m->prov || cid < 0 || cid >= EXEC_NCORES)
        return 0;
    const struct prov_made *pm = &m->prov->made[cid];
    /* the step counter was bumped after the statement ran */
    if (pm->step == UINT64_MAX || pm->step + 1 != m->steps || !pm->h)
        return 0;
    *h = pm->h;
    *k = pm->k;
    if (on)
        *on = pm->on;
    if (st)
        *st = pm->st;
    return 1;
}

int machine_prov_pending(const machine *m, int cid, uint64_t *h, uint32_t *k)
{
    if (!m->prov || cid < 0 || cid >= EXEC_NCORES)
        return 0;
    const core *c = &m->cores[cid];
    if (c->depth <= 0 || (c->state != CORE_READY && c->state != CORE_BLOCKED))
        return 0;
    const xframe *f = &c->frames[c->depth - 1];
    const xinst *in = &f->fn->code[f->pc];
    const struct xexpr *x = in->e;
    /* a load's (a slice's) tile is named by its region, known once it ran */
    if (in->kind != XI_ASSIGN || !x || x->kind != XE_OP || x->id == IR_OP_TILE_LOAD || x->id == IR_OP_TENSOR_SLICE ||
        x->nargs > 12 || x->nkw > 8)
        return 0;
    /* the operands as they are now: variables and constants only */
    value pos[12], kw[8];
    for (uint32_t pass = 0; pass < 2; pass++) {
        uint32_t n = pass ? x->nkw : x->nargs;
        xexpr *const *args = pass ? x->kw : x->args;
        value *out = pass ? kw : pos;
        for (uint32_t i = 0; i < n; i++) {
            const xexpr *a = args[i];
            if (a->kind == XE_CONST)
                out[i] = a->cval;
            else if (a->kind == XE_SLOT && f->slots[a->id].kind != VAL_UNBOUND)
                out[i] = f->slots[a->id];
            else if (a->kind == XE_DYN && f->dyns && f->dyns[a->id].kind != VAL_UNBOUND)
                out[i] = f->dyns[a->id];
            else
                return 0;
        }
    }
    const value *pass_on;
    uint64_t ph = exec_prov_op_hash(m->prov, x, pos, x->nargs, kw, x->nkw, &pass_on);
    if (!ph || pass_on || m->prov->pending.kind != PN_OP)
        return 0;
    /* known from now on, for its description */
    prov_node *n = put_node(m->prov, &m->prov->pending);
    *h = ph;
    *k = n->count[cid] + 1;
    return 1;
}

int machine_prov_lift(const machine *m, const tensor *t, int d, int whole, uint64_t *l, int64_t *s)
{
    if (!m->prov || !t || !t->prov || d < 0 || d >= PROV_LIFT_DIMS || t->ndim <= d)
        return 0;
    const prov_node *n = find_node(m->prov, t->prov);
    prov_lift f;
    if (n && n->lift_done && n->lift[d].l && n->shape_h == shape_hash(t))
        f = n->lift[d];
    else if (!whole || !operand_lift(m->prov, t, d, &f))
        return 0;
    *l = f.l;
    *s = f.s;
    return 1;
}

uint32_t machine_prov_count(const machine *m, uint64_t h, int cid)
{
    const prov_node *n = find_node(m->prov, h);
    return n && cid >= 0 && cid < EXEC_NCORES ? n->count[cid] : 0;
}

int machine_prov_is_param(const machine *m, uint64_t h)
{
    const prov_node *n = find_node(m->prov, h);
    return n && n->kind == PN_PARAM;
}

/* The leaves and ops under h, each once, first seen first (a depth-first
 * walk, operands before the op that reads them). */
typedef struct walk {
    const exec_prov *p;
    uint64_t *seen;
    size_t nseen, capseen;
    const char *leaves[4];
    int nleaves, more_leaves, untracked;
    const char *ops[6];
    int nops, more_ops;
} walk;

static int walk_seen(walk *w, uint64_t h)
{
    for (size_t i = 0; i < w->nseen; i++)
        if (w->seen[i] == h)
            return 1;
    if (w->nseen == w->capseen) {
        w->capseen = w->capseen ? w->capseen * 2 : 64;
        w->seen = xreallocarray(w->seen, w->capseen, sizeof *w->seen);
    }
    w->seen[w->nseen++] = h;
    return 0;
}

static void add_name(const char **list, int *n, int max, int *more, const char *s)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(list[i], s) == 0)
            return;
    if (*n < max)
        list[(*n)++] = s;
    else
        (*more)++;
}

static void walk_node(walk *w, uint64_t h, int depth)
{
    if (w->nseen > 4096 || depth > 256)
        return;
    if (walk_seen(w, h))
        return;
    const prov_node *n = find_node(w->p, h);
    if (!n) {
        w->untracked = 1;
        return;
    }
    if (n->kind == PN_LOAD || n->kind == PN_PARAM) {
        add_name(w->leaves, &w->nleaves, 4, &w->more_leaves, n->leaf);
        return;
    }
    for (int i = 0; i < n->nkids; i++)
        walk_node(w, n->kids[i], depth + 1);
    if (n->kind == PN_OP)
        add_name(w->ops, &w->nops, 6, &w->more_ops, n->op);
    else if (n->kind == PN_SHARE)
        add_name(w->ops, &w->nops, 6, &w->more_ops, n->lane ? "lane 1's half (split)" : "lane 0's half (split)");
}

void machine_prov_describe(const machine *m, uint64_t h, strbuf *out)
{
    const prov_node *n = find_node(m->prov, h);
    if (!n) {
        strbuf_puts(out, "an untracked value");
        return;
    }
    if (n->kind == PN_LOAD) {
        strbuf_printf(out, "the tile loaded from %s", n->leaf);
        return;
    }
    if (n->kind == PN_PARAM) {
        strbuf_printf(out, "the parameter %s", n->leaf);
        return;
    }
    walk w;
    memset(&w, 0, sizeof w);
    w.p = m->prov;
    walk_node(&w, h, 0);
    strbuf_puts(out, "the value computed from ");
    if (!w.nleaves)
        strbuf_puts(out, "constants");
    for (int i = 0; i < w.nleaves; i++)
        strbuf_printf(out, "%s%s", i == 0 ? "" : i + 1 == w.nleaves && !w.more_leaves ? " and " : ", ", w.leaves[i]);
    if (w.more_leaves)
        strbuf_printf(out, " and %d more", w.more_leaves);
    strbuf_puts(out, " by ");
    for (int i = 0; i < w.nops; i++)
        strbuf_printf(out, "%s%s", i ? " then " : "", w.ops[i]);
    if (w.more_ops)
        strbuf_printf(out, " and %d more ops", w.more_ops);
    free(w.seen);
}

/* ---- snapshots (snapshot.h): the counts and each core's last value ------------------------ */

struct exec_prov_saved {
    size_t cursor;
    struct prov_made made[EXEC_NCORES];
};

exec_prov_saved *exec_prov_save(const exec_prov *p)
{
    exec_prov_saved *s = xcalloc(1, sizeof *s);
    s->cursor = p->cursor;
    memcpy(s->made, p->made, sizeof s->made);
    return s;
}

void exec_prov_restore(exec_prov *p, const exec_prov_saved *s)
{
    /* nodes are never removed, so every logged one is still there */
    while (p->cursor > s->cursor) {
        p->cursor--;
        prov_node *nd = find_node(p, p->log[p->cursor].h);
        if (nd && nd->count[p->log[p->cursor].core])
            count_add(p, nd, p->log[p->cursor].core, -1);
    }
    while (p->cursor < s->cursor && p->cursor < p->nlog) {
        prov_node *nd = find_node(p, p->log[p->cursor].h);
        if (nd)
            count_add(p, nd, p->log[p->cursor].core, 1);
        p->cursor++;
    }
    memcpy(p->made, s->made, sizeof p->made);
}

void exec_prov_saved_free(exec_prov_saved *s)
{
    free(s);
}

size_t exec_prov_saved_bytes(const exec_prov_saved *s)
{
    return sizeof *s;
}

uint64_t exec_prov_state_hash(const exec_prov *p, uint64_t h)
{
    /* order-free: the sum of the nodes' terms, kept as the counts change */
    h = fnv(h, &p->count_sum, sizeof p->count_sum);
    for (int c = 0; c < EXEC_NCORES; c++) {
        h = fnv(h, &p->made[c].step, sizeof p->made[c].step);
        h = fnv(h, &p->made[c].h, sizeof p->made[c].h);
        h = fnv(h, &p->made[c].k, sizeof p->made[c].k);
    }
    return h;
}

int exec_prov_count_sum_ok(const exec_prov *p)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < p->n; i++)
        sum += count_term(&p->nodes[i]);
    return sum == p->count_sum;
}
