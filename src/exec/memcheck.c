/* The machine's side of the memory model (src/memory, docs/memory.md): from
 * the first pass with MemRefs every tile an op writes becomes bytes of its
 * core's memory at its MemRef, and every tile an op reads is checked
 * against those bytes, so a pass that places two live tiles on one buffer
 * fails where the device would read the other tile's data. The hooks are
 * called by machine.c (statements, calls, operands) and exec_ctx.c (in-place
 * writes); they call nothing of machine.c. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "exec/machine_int.h"
#include "exec/memcheck.h"
#include "memory/memmap.h"

/* Reports kept in full; the rest are counted. */
#define MEMCHECK_KEEP 8

struct exec_memcheck {
    mem_core cores[3]; /* AIC, AIV lane 0, AIV lane 1 */
    uint64_t faults;
    strbuf report;     /* the first MEMCHECK_KEEP reports, one block each */
    strbuf last;       /* the latest report (catch memory shows it) */
    int pending;       /* a fault since the debugger last asked */
    /* the operands of the op being evaluated that its output may not share
     * bytes with (alias_rules), set before it runs, checked at its write */
    const xexpr *alias_op;
    uint32_t alias_tiles[8];
    int alias_argno[8];
    int nalias;
    int kinds;         /* bit (1 << mem_fault_kind) of every fault seen */
    int yields_move;   /* machine_options.mem_yields_move, resolved */
    mem_target target;
};

exec_memcheck *exec_memcheck_new(const machine_options *o, const xprogram *p)
{
    exec_memcheck *mc = xcalloc(1, sizeof *mc);
    mem_target t = o->mem_target == MEM_TARGET_950 ? MEM_TARGET_950 : MEM_TARGET_910B;
    int addressed = o->mem_addressed;
    if (addressed < 0)
        addressed = exec_memcheck_guess_addressed(p);
    for (int i = 0; i < 3; i++)
        mem_core_init(&mc->cores[i], t, addressed);
    mc->yields_move = o->mem_yields_move >= 0 ? o->mem_yields_move : !addressed;
    mc->target = t;
    return mc;
}

void exec_memcheck_free(exec_memcheck *mc)
{
    if (!mc)
        return;
    for (int i = 0; i < 3; i++)
        mem_core_free(&mc->cores[i]);
    strbuf_free(&mc->report);
    strbuf_free(&mc->last);
    free(mc);
}

static int is_kernel(const xfunc *fn)
{
    return fn->type == IR_EV_FUNCTION_TYPE_AIC || fn->type == IR_EV_FUNCTION_TYPE_AIV ||
           fn->type == IR_EV_FUNCTION_TYPE_INCORE;
}

/* The memory of the core running fn: a kernel the host calls directly runs
 * on AIC or AIV lane 0 by its type. -1: none (orchestration). */
static int mem_index(const core *c, const xfunc *fn)
{
    switch (c->id) {
    case EXEC_CORE_AIC:
        return 0;
    case EXEC_CORE_AIV0:
        return 1;
    case EXEC_CORE_AIV1:
        return 2;
    default:
        break;
    }
    if (fn->type == IR_EV_FUNCTION_TYPE_AIC)
        return 0;
    if (fn->type == IR_EV_FUNCTION_TYPE_AIV || fn->type == IR_EV_FUNCTION_TYPE_INCORE)
        return 1;
    return -1;
}

void exec_memcheck_call(exec_memcheck *mc, const core *c, const xfunc *callee, const xfunc *caller)
{
    if (!is_kernel(callee) || (caller && is_kernel(caller)))
        return; /* a helper inside a kernel keeps its caller's memory */
    int k = mem_index(c, callee);
    if (k >= 0)
        mem_core_begin_call(&mc->cores[k]);
}

/* The device's element size of an IR dtype in bytes, 0 when it is not a
 * whole number of bytes or not known. */
static size_t device_esize_of(int32_t ir_dtype);

static size_t device_esize(int32_t ir_dtype)
{
    /* asked at every tile an op writes: the names compared once per dtype
     * and thread (size + 1; 0 not asked yet) */
    static _Thread_local uint8_t known[IR_EV_COUNT];
    if (ir_dtype < 0 || ir_dtype >= IR_EV_COUNT)
        return device_esize_of(ir_dtype);
    if (!known[ir_dtype])
        known[ir_dtype] = (uint8_t)(device_esize_of(ir_dtype) + 1);
    return (size_t)known[ir_dtype] - 1;
}

static size_t device_esize_of(int32_t ir_dtype)
{
    const ir_enum_info *e = ir_enum_info_get(ir_dtype);
    if (!e)
        return 0;
    const char *n = e->name;
    if (!strncmp(n, "FP8", 3) || !strcmp(n, "INT8") || !strcmp(n, "UINT8") || !strcmp(n, "HF8") ||
        !strcmp(n, "BOOL"))
        return 1;
    if (!strcmp(n, "FP16") || !strcmp(n, "BF16") || !strcmp(n, "INT16") || !strcmp(n, "UINT16"))
        return 2;
    if (!strcmp(n, "FP32") || !strcmp(n, "INT32") || !strcmp(n, "UINT32"))
        return 4;
    if (!strcmp(n, "INT64") || !strcmp(n, "UINT64") || !strcmp(n, "INDEX"))
        return 8;
    return 0;
}

/* The innermost loops around pc, as "i=2, k=0" (their variables now). */
static void format_iteration(const xframe *f, strbuf *out)
{
    const xfunc *fn = f->fn;
    int any = 0;
    for (uint32_t h = 0; h < fn->ncode && h < f->pc; h++) {
        const xinst *in = &fn->code[h];
        if (in->kind != XI_FOR_NEXT || in->target < 0 || (uint32_t)in->target <= f->pc)
            continue;
        if (!in->nslots || in->slots[0] < 0)
            continue;
        const value *v = &f->slots[in->slots[0]];
        const char *name = fn->slot_names[in->slots[0]] ? fn->slot_names[in->slots[0]] : "?";
        if (v->kind == VAL_INT)
            strbuf_printf(out, "%s%s=%" PRId64, any ? ", " : "", name, v->u.i);
        any = 1;
    }
    if (!any)
        strbuf_puts(out, "none (no loop)");
}

static void report(exec_memcheck *mc, machine *m, const core *c, const xframe *f, const ir_expr *at,
                   const char *what, int k, const mem_fault *flt)
{
    mc->faults++;
    mc->pending = 1;
    mc->kinds |= 1 << flt->kind;
    strbuf *b = &mc->last;
    strbuf_clear(b);
    const ir_span *sp = at ? &at->span : (f->fn->code[f->pc].stmt ? &f->fn->code[f->pc].stmt->span : NULL);
    strbuf_printf(b, "memory fault: %s at %s:%u:%u in %s\n", mem_fault_kind_name(flt->kind),
                  m->p->path ? m->p->path : "?", sp ? sp->line : 0, sp ? sp->col : 0, f->fn->name);
    static const char *const mem_names[3] = {"AIC", "AIV0", "AIV1"};
    strbuf_printf(b, "  core:   %s lane %d%s, call %u of %s, iteration ", mem_names[k], k == 2,
                  c->id == EXEC_CORE_HOST ? " (a kernel the host calls)" : "", f->activation + 1, f->fn->name);
    format_iteration(f, b);
    strbuf_putc(b, '\n');
    mem_fault_format(&mc->cores[k], flt, b);
    strbuf_printf(b, "  stmt:   %s at %u:%u %s\n", what, sp ? sp->line : 0, sp ? sp->col : 0,
                  flt->kind == MEM_FAULT_CLOBBER || flt->kind == MEM_FAULT_UNINIT ? "reads it"
                  : flt->kind == MEM_FAULT_SLOT && !flt->tile                      ? "imports it"
                                                                                   : "writes it");
    if (mc->faults <= MEMCHECK_KEEP)
        strbuf_puts(&mc->report, strbuf_str(b));
}

static int is_view_op(int op)
{
    /* PyPTO's no_execution_memory_access ops (docs/memory.md) */
    return op == IR_OP_TILE_RESHAPE || op == IR_OP_TILE_SLICE || op == IR_OP_TILE_REINTERPRET_VIEW ||
           op == IR_OP_TILE_TRANSPOSE_VIEW || op == IR_OP_TILE_SET_VALIDSHAPE;
}

/* The positional operands PyPTO declares as scratch ("tmp", "tmp_tile",
 * "scratch", the distributed ops' VEC "stage" tiles: the op writes them
 * with unknown data and reads nothing of them), by op: src/ir/op/tile_ops/
 * and src/ir/op/distributed/ of PyPTO at the mirrored commit (docs/memory.md
 * lists the lines). */
static const struct scratch_arg {
    const char *op;
    int arg;
} scratch_args[] = {
    {"tile.row_expand_add", 2}, {"tile.rem", 2},       {"tile.rems", 2},      {"tile.xor", 2},
    {"tile.xors", 2},           {"tile.prelu", 2},     {"tile.sel", 3},       {"tile.sels", 2},
    {"tile.gather", 2},         {"tile.gather_compare", 2}, {"tile.mgather", 2}, {"tile.row_sum", 1},
    {"tile.row_max", 1},        {"tile.row_min", 1},   {"tile.row_prod", 1},  {"tile.col_sum", 1},
    {"tile.row_argmax", 1},     {"tile.row_argmin", 1}, {"tile.col_argmax", 1}, {"tile.col_argmin", 1},
    {"tile.transpose", 3},      {"tile.rsqrt", 1},
    /* put.cpp:162, 280-281, get.cpp:137, 243-244: stage and the optional stage2 (arg 4
     * is dst_offsets, a tuple, in the 7-argument form: never a tile) */
    {"pld.tile.put", 3},        {"pld.tile.put", 4},   {"pld.tile.get", 3},   {"pld.tile.get", 4},
};

/* tile.mrgsort_format2's workspace is its last operand, whichever the
 * arity (2-way: arg 2, 3-way: 3, 4-way: 4: pypto src/ir/op/tile_ops/
 * sort.cpp:171-181, "tmp_or_src2" ... "tmp") */

/* An op's scratch operands and alias rules, together: every op asks for
 * both, one cache line instead of two tables' */
struct op_rules {
    uint32_t scratch; /* scratch_args */
    uint32_t forbid;  /* alias_rules' operand bits */
    uint8_t all;      /* alias_rules' -1: not_inplace_safe */
    uint8_t view;     /* is_view_op */
    uint8_t dest0;    /* operand 0 a destination the op never reads (exec_memcheck_operands) */
    uint8_t matmul;   /* the cube's matmuls and gemvs (matmul_padding) */
};

static const struct op_rules *rules_of(int op);

static uint32_t scratch_of(const struct op_rules *r, int op, uint32_t np)
{
    uint32_t m = r->scratch;
    if (op == IR_OP_TILE_MRGSORT_FORMAT2 && np >= 3 && np <= 32)
        m |= 1u << (np - 1);
    return m;
}

/* PyPTO's alias constraints, by op (src/ir/op/tile_ops/ at the mirrored
 * commit; docs/memory.md): arg -1 for not_inplace_safe() (the output must
 * not share bytes with any tile operand), else forbid_output_alias(arg). */
static const struct alias_rule {
    const char *op;
    int arg;
} alias_rules[] = {
    {"tile.fmod", -1}, /* elementwise.cpp:489 */
    {"tile.fmods", -1}, /* elementwise.cpp:571 */
    {"tile.ands", -1}, /* elementwise.cpp:679 */
    {"tile.ors", -1}, /* elementwise.cpp:707 */
    {"tile.xors", -1}, /* elementwise.cpp:880 */
    {"tile.prelu", -1}, /* elementwise.cpp:960 */
    {"tile.fillpad_expand", -1}, /* elementwise.cpp:1360 */
    {"tile.gather", -1}, /* gather.cpp:112 */
    {"tile.gatherb", -1}, /* gather.cpp:219 */
    {"tile.gather_mask", -1}, /* gather.cpp:320 */
    {"tile.gather_compare", -1}, /* gather.cpp:464 */
    {"tile.mgather", -1}, /* memory.cpp:1404 */
    {"tile.move", -1}, /* memory.cpp:1436 */
    {"tile.row_sum", -1}, /* reduction.cpp:194 */
    {"tile.row_max", -1}, /* reduction.cpp:210 */
    {"tile.row_min", -1}, /* reduction.cpp:226 */
    {"tile.row_prod", -1}, /* reduction.cpp:253 */
    {"tile.row_argmax", -1}, /* reduction.cpp:343 */
    {"tile.row_argmin", -1}, /* reduction.cpp:357 */
    {"tile.col_argmax", -1}, /* reduction.cpp:374 */
    {"tile.col_argmin", -1}, /* reduction.cpp:389 */
    {"tile.sort32", -1}, /* sort.cpp:112 */
    {"tile.mrgsort_format2", -1}, /* sort.cpp:189 */
    {"tile.mrgsort_format1", -1}, /* sort.cpp:244 */
    {"tile.transpose", -1}, /* transform.cpp:562 */
    {"tile.extract", -1}, /* transform.cpp:807 */
    {"tile.concat", -1}, /* transform.cpp:934 */
    {"tile.recip", -1}, /* unary.cpp:231 */
    {"tile.rsqrt", -1}, /* unary.cpp:268 */
    {"tile.row_expand", 1},
    {"tile.row_expand_sub", 1},
    {"tile.row_expand_div", 1},
    {"tile.row_expand_mul", 1},
    {"tile.row_expand_add", 1},
    {"tile.row_expand_add", 2},
    {"tile.row_expand_max", 1},
    {"tile.row_expand_min", 1},
    {"tile.row_expand_expdif", 1},
    {"tile.col_expand", 1},
    {"tile.col_expand_mul", 1},
    {"tile.col_expand_add", 1},
    {"tile.col_expand_div", 1},
    {"tile.col_expand_sub", 1},
    {"tile.col_expand_max", 1},
    {"tile.col_expand_min", 1},
    {"tile.col_expand_expdif", 1},
    {"tile.sel", 0},
    {"tile.sel", 3},
    {"tile.sels", 0},
};

/* 1 when op's operand 0 is a destination it writes in place and never
 * reads (whatever its other operands) */
static int dest0_op(int op)
{
    /* tile.assemble writes its source into the target's region in place:
     * the target is a destination, not a read (a copy into a pto.subview
     * of the destination: pypto src/backend/common/pto_ops_datamove.cpp:
     * 76-130; an in-place input-0 DPS op: src/codegen/pto/pto_codegen.cpp:
     * 411-413), so a fresh tile.create filled by assembles is no
     * uninitialised read */
    int dest0 = op == IR_OP_TILE_ASSEMBLE;
    /* tile.row_expand/col_expand emit only the vector (args_[1]) as the
     * instruction's operand; the target (args_[0]) gives the shape and type
     * and is never read (pypto src/backend/common/pto_ops_elementwise.cpp:
     * 221-225) */
    dest0 |= op == IR_OP_TILE_ROW_EXPAND || op == IR_OP_TILE_COL_EXPAND;
    /* tile.gather_row loads GM rows into a subview of its dst (args_[0]), the
     * in-place result target (pto_ops_datamove.cpp:326-345); tile.scatter
     * and scatter_mask write their dst in place too (pto_codegen.cpp:411) */
    dest0 |= op == IR_OP_TILE_GATHER_ROW || op == IR_OP_TILE_SCATTER || op == IR_OP_TILE_SCATTER_MASK;
    /* tile.write(tile, indices, value) stores one element into the tile in
     * place (a scalar SetValue): the tile's other bytes are not read */
    dest0 |= op == IR_OP_TILE_WRITE;
    return dest0;
}

static const struct op_rules *rules_of(int op)
{
    static struct op_rules table[IR_OP_COUNT + 1]; /* the last: an op out of range, no rule */
    static int ready;
    if (!ready) {
        for (size_t i = 0; i < sizeof scratch_args / sizeof scratch_args[0]; i++) {
            int id = ir_op_lookup(scratch_args[i].op, strlen(scratch_args[i].op));
            if (id >= 0)
                table[id].scratch |= 1u << scratch_args[i].arg;
        }
        for (size_t i = 0; i < sizeof alias_rules / sizeof alias_rules[0]; i++) {
            int id = ir_op_lookup(alias_rules[i].op, strlen(alias_rules[i].op));
            if (id < 0)
                continue;
            if (alias_rules[i].arg < 0)
                table[id].all = 1;
            else if (alias_rules[i].arg < 32)
                table[id].forbid |= 1u << alias_rules[i].arg;
        }
        for (int id = 0; id < IR_OP_COUNT; id++) {
            table[id].view = (uint8_t)is_view_op(id);
            table[id].dest0 = (uint8_t)dest0_op(id);
            table[id].matmul = id == IR_OP_TILE_MATMUL || id == IR_OP_TILE_MATMUL_ACC || id == IR_OP_TILE_MATMUL_BIAS ||
                               id == IR_OP_TILE_GEMV || id == IR_OP_TILE_GEMV_ACC || id == IR_OP_TILE_GEMV_BIAS;
        }
        ready = 1;
    }
    return &table[op >= 0 && op < IR_OP_COUNT ? op : IR_OP_COUNT];
}

/* The alias rules of op: *all 1 when no operand may share the output's
 * bytes; else a bitmask of the operands that may not (0: none). */
static uint32_t alias_forbidden(int op, int *all)
{
    const struct op_rules *r = rules_of(op);
    *all = r->all;
    return r->forbid;
}

static int all_rule(int op)
{
    int all;
    alias_forbidden(op, &all);
    return all;
}

static int64_t kwarg_int(const ir_expr *call, const char *name, int64_t dflt)
{
    for (uint32_t i = 0; i < call->u.call.nkwargs; i++) {
        const ir_kwarg *kw = &call->u.call.kwargs[i];
        if (strcmp(kw->name->text, name) == 0 && kw->value->kind == IR_EXPR_INT)
            return kw->value->u.num.i;
    }
    return dflt;
}

static const char *kwarg_str(const ir_expr *call, const char *name)
{
    for (uint32_t i = 0; i < call->u.call.nkwargs; i++) {
        const ir_kwarg *kw = &call->u.call.kwargs[i];
        if (strcmp(kw->name->text, name) == 0 && kw->value->kind == IR_EXPR_STRING)
            return kw->value->u.str.value;
    }
    return NULL;
}

static mem_layout kwarg_layout(const ir_expr *call, const char *name)
{
    for (uint32_t i = 0; call && i < call->u.call.nkwargs; i++) {
        const ir_kwarg *kw = &call->u.call.kwargs[i];
        if (strcmp(kw->name->text, name) == 0 && kw->value->res.kind == IR_REF_ENUM) {
            const ir_enum_info *info = ir_enum_info_get(kw->value->res.id);
            return info ? mem_layout_from_name(info->name) : MEM_LAYOUT_UNSAID;
        }
    }
    return MEM_LAYOUT_UNSAID;
}

/* The layouts tile's bytes are in: its type's TileView, else the op's
 * blayout=/slayout= keywords (tile.move into Left/Right), else TileView's
 * defaults (row_major, none_box: PyPTO include/pypto/ir/type.h:307-308). */
static void set_layout(mem_core *mem, uint32_t tile, const exec_type *ty, const ir_expr *call)
{
    mem_layout b = ty->mem_blayout ? (mem_layout)ty->mem_blayout : kwarg_layout(call, "blayout");
    mem_layout sl = ty->mem_slayout ? (mem_layout)ty->mem_slayout : kwarg_layout(call, "slayout");
    mem->tiles[tile - 1].blayout = (uint8_t)(b ? b : MEM_LAYOUT_ROW_MAJOR);
    mem->tiles[tile - 1].slayout = (uint8_t)(sl ? sl : MEM_LAYOUT_NONE_BOX);
}

/* The tile whose bytes tile reads: the source at the end of its views. */
static const mem_tile *storage_of(const mem_core *mem, uint32_t tile)
{
    const mem_tile *t = mem_tile_get(mem, tile);
    for (int hops = 0; t && t->origin && hops < 64; hops++)
        t = mem_tile_get(mem, t->origin);
    return t;
}

static const char *op_name(int op)
{
    const ir_op_info *info = ir_op_info_get(op);
    return info ? info->name : "op";
}

/* The call a statement makes (an assignment's value, an expression
 * statement's call), or NULL. */
static const ir_expr *stmt_call(const ir_stmt *st)
{
    const ir_expr *e = !st                           ? NULL
                       : st->kind == IR_STMT_ASSIGN ? st->u.assign.value
                       : st->kind == IR_STMT_EXPR   ? st->u.expr.value
                                                    : NULL;
    return e && e->kind == IR_EXPR_CALL && e->res.kind == IR_REF_OP ? e : NULL;
}

/* import_peer_buffer(name=, peer_func=) on core k: the handle names the
 * peer function's reserve_buffer of that name, the contract PyPTO's
 * validation states ("every peer import must have a matching
 * reservation": docs/en/reference/pto-isa/02-buffer_management.md:235,
 * codegen pto_ops_crosscore.cpp:608-620 resolves the import to it). A
 * missing function or reservation is a slot fault at the import; a found one
 * is listed as imported, in the peer's space (the cube's Mat, a lane's Vec). */
static void import_peer(exec_memcheck *mc, machine *m, const core *c, const xframe *f, const xinst *in, int k,
                        const ir_expr *call)
{
    const char *name = kwarg_str(call, "name"), *peer = kwarg_str(call, "peer_func");
    const xfunc *pf = NULL;
    for (uint32_t i = 0; peer && i < m->p->nfuncs; i++)
        if (strcmp(m->p->funcs[i].name, peer) == 0)
            pf = &m->p->funcs[i];
    const ir_expr *res = NULL;
    for (uint32_t j = 0; pf && name && !res && j < pf->ncode; j++) {
        const ir_expr *rc = stmt_call(pf->code[j].stmt);
        const char *rn = rc && rc->res.id == IR_OP_SYSTEM_RESERVE_BUFFER ? kwarg_str(rc, "name") : NULL;
        if (rn && strcmp(rn, name) == 0)
            res = rc;
    }
    if (res) {
        mem_space sp = pf->type == IR_EV_FUNCTION_TYPE_AIC ? MEM_SPACE_MAT : MEM_SPACE_VEC;
        mem_slot_import(&mc->cores[k], name, peer, sp, kwarg_int(res, "base", -1), kwarg_int(res, "size", 0));
        return;
    }
    mem_fault flt = {0};
    flt.kind = MEM_FAULT_SLOT;
    flt.space = k == 0 ? MEM_SPACE_MAT : MEM_SPACE_VEC;
    if (!name || !peer)
        snprintf(flt.why, sizeof flt.why, "import_peer_buffer without a string %s= keyword", !name ? "name" : "peer_func");
    else if (!pf)
        snprintf(flt.why, sizeof flt.why,
                 "import_peer_buffer(name='%.60s', peer_func='%.60s'): the program has no function %.60s", name, peer,
                 peer);
    else
        snprintf(flt.why, sizeof flt.why,
                 "import_peer_buffer(name='%.60s', peer_func='%.60s'): %.60s reserves no buffer %.60s (PyPTO: "
                 "every peer import must have a matching reservation; on 950 the producer's pushes would land "
                 "in memory nothing reserved)",
                 name, peer, peer, name);
    report(mc, m, c, f, call, "system.import_peer_buffer", k, &flt);
    (void)in;
}

void exec_memcheck_assigned(exec_memcheck *mc, machine *m, const core *c, const xframe *f, const xinst *in,
                            value *v)
{
    const xexpr *e = in->e;
    /* an op's value, or a REF no-op's (system.reserve_buffer and
     * import_peer_buffer lower to a constant None) */
    if (!e || (e->kind != XE_OP && e->kind != XE_CONST))
        return;
    int k = mem_index(c, f->fn);
    if (k < 0)
        return;
    mem_core *mem = &mc->cores[k];
    const ir_expr *call = NULL;
    if (e->kind == XE_CONST) {
        /* system.reserve_buffer evaluates to nothing (REF's no-op): read from
         * the statement. The buffer lives in the receiving core's space: the
         * cube's Mat, a lane's Vec. */
        call = in->stmt && in->stmt->kind == IR_STMT_ASSIGN ? in->stmt->u.assign.value : NULL;
        if (call && call->kind == IR_EXPR_CALL && call->res.kind == IR_REF_OP &&
            call->res.id == IR_OP_SYSTEM_RESERVE_BUFFER)
            mem_slot_reserve(mem, kwarg_str(call, "name"), k == 0 ? MEM_SPACE_MAT : MEM_SPACE_VEC,
                             kwarg_int(call, "base", -1), kwarg_int(call, "size", 0));
        else if (call && call->kind == IR_EXPR_CALL && call->res.kind == IR_REF_OP &&
                 call->res.id == IR_OP_SYSTEM_IMPORT_PEER_BUFFER)
            import_peer(mc, m, c, f, in, k, call);
        return;
    }
    const exec_type *ty = in->types ? &in->types[0] : NULL;
    if (!ty || ty->mem_space < 0 || v->kind != VAL_TENSOR || !v->u.t)
        return;
    tensor *t = v->u.t;
    size_t es = device_esize(ty->ir_dtype);
    if (!es || es != dtype_size(t->dtype)) {
        t->mem_tile = 0; /* stored in another width than the device's: not placed (docs/memory.md) */
        return;
    }
    mem_fault flt;
    /* a tile is declared once per statement, with this statement's type:
     * its name, valid shape and layouts are set then (the statement is
     * read only then; an op runs thousands of times) */
    uint32_t tile = mem_tile_again(mem, in);
    if (!tile) {
        call = in->stmt && in->stmt->kind == IR_STMT_ASSIGN ? in->stmt->u.assign.value : NULL;
        const ir_span *sp = in->stmt ? &in->stmt->span : NULL;
        /* the dump's name of the target (t__tile), as the user reads it */
        const char *name = in->stmt && in->stmt->kind == IR_STMT_ASSIGN && in->stmt->u.assign.ntargets
                               ? in->stmt->u.assign.targets[0].name->text
                               : in->names ? in->names[0] : "?";
        tile = mem_tile_declare(mem, in, f->fn, name, ty->mem_base, (mem_space)ty->mem_space, ty->mem_offset,
                                ty->mem_size, sp ? sp->line : 0, sp ? sp->col : 0, &flt);
        if (tile && ty->mem_valid_ndim)
            mem_tile_set_valid(mem, tile, ty->mem_valid_ndim, ty->mem_valid);
        if (tile)
            set_layout(mem, tile, ty, call && call->kind == IR_EXPR_CALL ? call : NULL);
        if (flt.kind != MEM_FAULT_NONE) /* only at its first placement */
            report(mc, m, c, f, e->src, op_name(e->id), k, &flt);
    }
    if (!tile) {
        t->mem_tile = 0;
        return;
    }
    if (e->id == IR_OP_TILE_CREATE) {
        mem_tile_bind(mem, tile, t);
        t->mem_tile = tile;
        t->mem_gen = 0;
        t->mem_core = k;
        return;
    }
    if (is_view_op(e->id)) {
        uint32_t origin = 0;
        /* the source's tile: the operand was read into the view, which
         * shares its storage; the view holds the source's generation */
        if (t->mem_tile && t->mem_core == k && t->mem_tile != tile)
            origin = t->mem_tile; /* the op returned the source object itself */
        const mem_tile *src = origin ? storage_of(mem, origin) : NULL;
        if (mc->yields_move && src && (src->space != mem->tiles[tile - 1].space ||
                                       strcmp(src->base, mem->tiles[tile - 1].base) != 0)) {
            /* a view's MemRef inherits its source's (pypto
             * set_output_memory_inherit_input), so the source lives in the
             * view's buffer: a value an if's yield left in another buffer (a
             * multi-value yield's phi carries no type in the dump), which
             * MemoryReuse's YieldFixup moves there (memory_reuse_pass.cpp:
             * 3226; codegen's tmov under PTOAS, pto_control_flow_codegen.cpp:
             * 426-459). The move reads its source and writes the buffer. */
            if (mem_tile_read(mem, origin, t->mem_gen, t, &flt))
                report(mc, m, c, f, e->src, "pl.yield_ (a tile.move to come)", k, &flt);
            uint32_t gen = mem_tile_write(mem, tile, t, &flt);
            if (flt.kind != MEM_FAULT_NONE)
                report(mc, m, c, f, e->src, op_name(e->id), k, &flt);
            t->mem_tile = tile;
            t->mem_gen = gen;
            t->mem_core = k;
            return;
        }
        mem_tile_alias(mem, tile, origin ? origin : mem->tiles[tile - 1].origin);
        t->mem_tile = tile;
        t->mem_gen = 0;
        t->mem_core = k;
        return;
    }
    if (mc->alias_op == e) {
        /* PyPTO forbids this output on these operands' bytes: the device's
         * op would read what it has already overwritten */
        const mem_tile *out = mem_tile_get(mem, tile);
        for (int i = 0; i < mc->nalias; i++) {
            const mem_tile *in_t = mem_tile_get(mem, mc->alias_tiles[i]);
            uint64_t on = out->size, inn = in_t->extent ? in_t->extent : in_t->size;
            if (in_t == out || in_t->space != out->space || in_t->unplaced || out->unplaced ||
                !(out->addr < in_t->addr + inn && in_t->addr < out->addr + on))
                continue;
            mem_fault af = {0};
            af.kind = MEM_FAULT_CLOBBER;
            af.tile = mc->alias_tiles[i];
            af.other = tile;
            af.space = out->space;
            af.at = out->addr > in_t->addr ? out->addr : in_t->addr;
            strbuf why = STRBUF_INIT;
            strbuf_printf(&why, "%s's output %s is placed on its operand %d %s, which it reads while writing (PyPTO: %s)",
                          op_name(e->id), out->name, mc->alias_argno[i], in_t->name,
                          all_rule(e->id) ? "not_inplace_safe" : "forbid_output_alias");
            snprintf(af.why, sizeof af.why, "%s", strbuf_str(&why));
            strbuf_free(&why);
            report(mc, m, c, f, e->src, op_name(e->id), k, &af);
            break;
        }
    }
    mc->alias_op = NULL;
    /* an op that wrote a view of a bound tile's value in place (matmul_acc
     * into a tile.slice of an Acc tile: tile.slice is always a pure
     * pto.subview of its source, pypto src/backend/common/
     * pto_ops_datamove.cpp:1074-1080, and the MAD writes that subview,
     * tests/st/runtime/ops/test_matmul_acc_init_cond.py:108-113): its output
     * is that view, placed where its elements are */
    int in_place = e->id == IR_OP_TILE_MATMUL_ACC || e->id == IR_OP_TILE_GEMV_ACC ||
                   e->id == IR_OP_TILE_BATCH_MATMUL_ACC;
    /* only an op the device runs in place into its operand: a value that
     * merely shares storage here (a transpose or extract is a view in this
     * interpreter, a new tile on the device) is placed at its own MemRef */
    uint32_t bound = in_place && t->storage && t->storage->refcount > 1
                         ? mem_tile_find_bound(mem, t, mem->tiles[tile - 1].space)
                         : 0;
    if (bound && bound != tile)
        mem_tile_alias(mem, tile, bound);
    uint32_t gen = bound && bound != tile ? mem_tile_write_in_place(mem, tile, t, &flt) : mem_tile_write(mem, tile, t, &flt);
    if (flt.kind != MEM_FAULT_NONE)
        report(mc, m, c, f, e->src, op_name(e->id), k, &flt);
    t->mem_tile = tile;
    t->mem_gen = gen;
    t->mem_core = k;
}

void exec_memcheck_yield(exec_memcheck *mc, machine *m, const core *c, const xframe *f, const xinst *in, value *v)
{
    const exec_type *ty = in->yield_type;
    int k = mem_index(c, f->fn);
    if (k < 0 || !ty || ty->mem_space < 0 || !ty->mem_base || v->kind != VAL_TENSOR ||
        !v->u.t)
        return;
    tensor *t = v->u.t;
    mem_core *mem = &mc->cores[k];
    if (!t->mem_tile || t->mem_core != k)
        return;
    const mem_tile *from = mem_tile_get(mem, t->mem_tile);
    if (from->space == ty->mem_space && strcmp(from->base, ty->mem_base) == 0 &&
        from->offset == (uint64_t)ty->mem_offset)
        return; /* one buffer: nothing moves */
    const ir_span *sp = in->stmt ? &in->stmt->span : NULL;
    const char *name = in->stmt && in->stmt->u.assign.ntargets ? in->stmt->u.assign.targets[0].name->text : "?";
    /* the move reads its source */
    mem_fault flt;
    if (mc->yields_move && mem_tile_read(mem, t->mem_tile, t->mem_gen, t, &flt))
        report(mc, m, c, f, NULL, "pl.yield_ (a tile.move to come)", k, &flt);
    uint32_t tile = mem_tile_declare(mem, in, f->fn, name, ty->mem_base, (mem_space)ty->mem_space, ty->mem_offset,
                                     ty->mem_size, sp ? sp->line : 0, sp ? sp->col : 0, &flt);
    if (flt.kind != MEM_FAULT_NONE)
        report(mc, m, c, f, NULL, "pl.yield_ (a tile.move to come)", k, &flt);
    if (!tile)
        return;
    if (ty->mem_valid_ndim)
        mem_tile_set_valid(mem, tile, ty->mem_valid_ndim, ty->mem_valid);
    set_layout(mem, tile, ty, NULL);
    ptodb_status st = PTODB_OK;
    tensor *moved = tensor_clone_status(t, &st);
    if (!moved)
        return; /* out of memory: the value flows as REF's does */
    tensor_copy_attrs(moved, t);
    uint32_t gen;
    if (mc->yields_move) {
        gen = mem_tile_write(mem, tile, moved, &flt);
        if (flt.kind != MEM_FAULT_NONE)
            report(mc, m, c, f, NULL, "pl.yield_ (a tile.move to come)", k, &flt);
        mem->tiles[tile - 1].stale_carry = 0;
    } else {
        /* after YieldFixup nothing moves: the target's bytes keep what they
         * held, and the device reads those (a read reports the clobber) */
        gen = mem_tile_get(mem, tile)->writes;
        mem->tiles[tile - 1].stale_carry = 1;
    }
    moved->mem_tile = tile;
    moved->mem_gen = gen;
    moved->mem_core = k;
    value_clear(v);
    *v = value_tensor(moved);
}

void exec_memcheck_yield_carry(exec_memcheck *mc, machine *m, const core *c, const xframe *f, const xinst *in,
                               uint32_t carry_tile, int carry_core, value *v)
{
    int k = mem_index(c, f->fn);
    if (k < 0 || !mc->yields_move || v->kind != VAL_TENSOR || !v->u.t || !carry_tile || carry_core != k)
        return;
    tensor *t = v->u.t;
    mem_core *mem = &mc->cores[k];
    if (!t->mem_tile || t->mem_core != k || t->mem_tile == carry_tile)
        return;
    const mem_tile *from = storage_of(mem, t->mem_tile), *to = storage_of(mem, carry_tile);
    if (!from || !to || (from->space == to->space && strcmp(from->base, to->base) == 0 &&
                         from->offset == to->offset))
        return; /* one buffer: nothing moves */
    if (to->size < from->size)
        return; /* not a carry of this tile */
    /* the move to come reads its source */
    mem_fault flt;
    if (mem_tile_read(mem, t->mem_tile, t->mem_gen, t, &flt))
        report(mc, m, c, f, NULL, "pl.yield_ (a tile.move to come)", k, &flt);
    (void)in;
    ptodb_status st = PTODB_OK;
    tensor *moved = tensor_clone_status(t, &st);
    if (!moved)
        return;
    tensor_copy_attrs(moved, t);
    uint32_t gen = mem_tile_write(mem, carry_tile, moved, &flt);
    if (flt.kind != MEM_FAULT_NONE)
        report(mc, m, c, f, NULL, "pl.yield_ (a tile.move to come)", k, &flt);
    moved->mem_tile = carry_tile;
    moved->mem_gen = gen;
    moved->mem_core = k;
    value_clear(v);
    *v = value_tensor(moved);
}

void exec_memcheck_op_done(exec_memcheck *mc, const core *c, const xframe *f, const xexpr *x, const value *pos,
                               uint32_t np, value *out)
{
    /* the op ran: its scratch operand's bytes hold unknown data now; a
     * view's result remembers its source's tile so that
     * exec_memcheck_assigned can chain it (the view may be a new object) */
    const struct op_rules *r = rules_of(x->id);
    uint32_t scratch = scratch_of(r, x->id, np);
    for (uint32_t i = 0; scratch && i < np && i < 32; i++) {
        if (!((scratch >> i) & 1) || pos[i].kind != VAL_TENSOR || !pos[i].u.t)
            continue;
        const tensor *s = pos[i].u.t;
        int k = mem_index(c, f->fn);
        if (k >= 0 && s->mem_tile && s->mem_core == k)
            mem_tile_scratch(&mc->cores[k], s->mem_tile, s);
    }
    if (!r->view || !np || pos[0].kind != VAL_TENSOR || !pos[0].u.t || out->kind != VAL_TENSOR ||
        !out->u.t)
        return;
    tensor *src = pos[0].u.t, *t = out->u.t;
    if (t != src) {
        t->mem_tile = src->mem_tile;
        t->mem_gen = src->mem_gen;
        t->mem_core = src->mem_core;
    }
}

/* The value the device's op reads instead of t: the bytes (a clobber), or
 * poison where nothing wrote them (all bits set: NaN for every float dtype,
 * -1 for ints), so that the comparison fails. NULL when it cannot be made. */
static tensor *device_operand(const mem_core *mem, const tensor *t, const mem_fault *flt)
{
    ptodb_status st = PTODB_OK;
    tensor *dev = tensor_clone_status(t, &st);
    if (!dev)
        return NULL;
    tensor_copy_attrs(dev, t);
    if (flt->kind == MEM_FAULT_CLOBBER)
        mem_tile_device_value(mem, t->mem_tile, t, dev);
    else
        memset(tensor_data(dev), 0xff, dtype_size(dev->dtype) * (size_t)tensor_numel(dev));
    return dev;
}

/* 0 when check_value has nothing to look at in v (a scalar, a tensor on
 * no tile of core k): most operands, asked before the call and its frame */
static int holds_tile(const value *v, int k)
{
    if (v->kind == VAL_TUPLE)
        return v->u.tuple != NULL;
    return v->kind == VAL_TENSOR && v->u.t && v->u.t->mem_tile && v->u.t->mem_core == k;
}

static void check_value(exec_memcheck *mc, machine *m, const core *c, const xframe *f, const xexpr *x, int k,
                        value *v)
{
    if (v->kind == VAL_TUPLE && v->u.tuple) {
        for (uint32_t i = 0; i < v->u.tuple->n; i++)
            check_value(mc, m, c, f, x, k, &v->u.tuple->items[i]);
        return;
    }
    if (v->kind != VAL_TENSOR || !v->u.t)
        return;
    const tensor *t = v->u.t;
    if (!t->mem_tile || t->mem_core != k)
        return;
    mem_fault flt;
    if (!mem_tile_read(&mc->cores[k], t->mem_tile, t->mem_gen, t, &flt))
        return;
    /* as on the device: the op reads what the bytes hold */
    tensor *dev = device_operand(&mc->cores[k], t, &flt);
    size_t len = strlen(flt.why);
    const mem_tile *rd = storage_of(&mc->cores[k], t->mem_tile), *wr = mem_tile_get(&mc->cores[k], flt.other);
    if (dev && flt.kind == MEM_FAULT_CLOBBER && rd && wr && (rd->blayout != wr->blayout || rd->slayout != wr->slayout)) {
        /* the writer's layout is not the reader's: which element lands
         * where is not known, so the value is not either */
        memset(tensor_data(dev), 0xff, dtype_size(dev->dtype) * (size_t)tensor_numel(dev));
        snprintf(flt.why + len, sizeof flt.why - len,
                 "; %.60s wrote them in layout (%s, %s) and %.60s reads them in (%s, %s): the value read is unknown, "
                 "poison (NaN)",
                 wr->name, mem_layout_name((mem_layout)wr->blayout), mem_layout_name((mem_layout)wr->slayout), rd->name,
                 mem_layout_name((mem_layout)rd->blayout), mem_layout_name((mem_layout)rd->slayout));
        report(mc, m, c, f, x->src, op_name(x->id), k, &flt);
        value_clear(v);
        *v = value_tensor(dev);
        return;
    }
    /* the read tile, or the source it views, holding a stale carry */
    const mem_tile *tl = mem_tile_get(&mc->cores[k], t->mem_tile);
    for (int hops = 0; !tl->stale_carry && tl->origin && hops < 64; hops++)
        tl = mem_tile_get(&mc->cores[k], tl->origin);
    if (tl->stale_carry) {
        /* the cause, where the model knows it */
        snprintf(flt.why + len, sizeof flt.why - len,
                 "; pl.yield_ at %u:%u gave %s a value on another buffer and no tile.move copies it to %s "
                 "(YieldFixup: memory_reuse_pass.cpp:2645)",
                 tl->line, tl->col, tl->name, tl->base);
        len = strlen(flt.why);
    }
    snprintf(flt.why + len, sizeof flt.why - len, "%s",
             !dev ? "" : flt.kind == MEM_FAULT_CLOBBER ? "; the op reads the bytes" : "; the op reads poison (NaN)");
    report(mc, m, c, f, x->src, op_name(x->id), k, &flt);
    if (dev) {
        value_clear(v);
        *v = value_tensor(dev);
    }
}

/* The valid extent of dim d of t: its valid shape where it has one. */
static int64_t valid_dim(const tensor *t, int d)
{
    return t->valid_ndim == t->ndim && t->valid[d] >= 0 && t->valid[d] < t->shape[d] ? t->valid[d] : t->shape[d];
}

/* initcheck for the cube: TMATMUL sums k over [0, K) with K the lhs's
 * valid columns (pto-isa docs/isa/TMATMUL.md:15-23: M, K from aMatrix's
 * valid row and col, N from bMatrix's valid col), so rows [vr, K) of a rhs
 * whose valid rows vr are fewer are read although outside its valid shape.
 * Bytes there that nothing in this run wrote are an uninit fault; the op
 * reads poison in those rows, the rest of the rhs as it is. */
static void matmul_padding(exec_memcheck *mc, machine *m, const core *c, const xframe *f, const xexpr *x, int k,
                           value *pos, uint32_t np)
{
    int acc = x->id == IR_OP_TILE_MATMUL_ACC || x->id == IR_OP_TILE_GEMV_ACC;
    uint32_t li = acc ? 1 : 0, ri = acc ? 2 : 1;
    if (ri >= np || pos[li].kind != VAL_TENSOR || pos[ri].kind != VAL_TENSOR || !pos[li].u.t || !pos[ri].u.t)
        return;
    const tensor *A = pos[li].u.t, *B = pos[ri].u.t;
    if (A->ndim != 2 || B->ndim != 2 || !B->mem_tile || B->mem_core != k)
        return;
    int64_t K = valid_dim(A, 1), vr = valid_dim(B, 0), N = valid_dim(B, 1), row;
    if (K > B->shape[0])
        K = B->shape[0];
    mem_core *mem = &mc->cores[k];
    if (K <= vr || !mem_tile_rows_unwritten(mem, B->mem_tile, B, vr, K, N, &row))
        return;
    const mem_tile *bt = mem_tile_get(mem, B->mem_tile);
    mem_fault flt = {0};
    flt.kind = MEM_FAULT_UNINIT;
    flt.tile = B->mem_tile;
    flt.space = bt->space;
    flt.at = bt->addr;
    snprintf(flt.why, sizeof flt.why,
             "row %" PRId64 " of %.60s, outside its valid shape [%" PRId64 ", %" PRId64 "], was never written in "
             "this run, and %s reads rows [%" PRId64 ", %" PRId64 ") of it: K = %" PRId64
             ", the valid columns of its lhs (TMATMUL); the op reads poison (NaN) there",
             row, bt->name, vr, N, op_name(x->id), vr, K, K);
    report(mc, m, c, f, x->src, op_name(x->id), k, &flt);
    ptodb_status st = PTODB_OK;
    tensor *dev = tensor_clone_status(B, &st);
    if (!dev)
        return;
    tensor_copy_attrs(dev, B);
    size_t es = dtype_size(dev->dtype);
    unsigned char *d = tensor_data(dev);
    for (int64_t r = vr; r < K; r++)
        memset(d + (size_t)(r * dev->shape[1]) * es, 0xff, (size_t)dev->shape[1] * es);
    value_clear(&pos[ri]);
    pos[ri] = value_tensor(dev);
}

void exec_memcheck_operands(exec_memcheck *mc, machine *m, const core *c, const xframe *f, const xexpr *x,
                            value *pos, uint32_t np, value *kw, uint32_t nk)
{
    const struct op_rules *r = rules_of(x->id);
    if (r->view || x->id == IR_OP_TILE_CREATE)
        return; /* no execution-time memory access (docs/memory.md) */
    int k = mem_index(c, f->fn);
    if (k < 0)
        return;
    uint32_t scratch = scratch_of(r, x->id, np);
    int dest0 = r->dest0;
    /* matmul_acc with its init_cond holding overwrites the accumulator
     * (matmul.cpp:434-436): it is not read */
    dest0 |= x->id == IR_OP_TILE_MATMUL_ACC && np >= 4 && value_truthy(&pos[3]) > 0;
    /* a destination the op writes into in place and never reads is left as
     * it is (an in-place op must write the very tensor the variable holds)
     * and not checked; its write marks the tile written */
    for (uint32_t i = 0; i < np; i++)
        if ((i >= 32 || !((scratch >> i) & 1)) && !(dest0 && i == 0) && holds_tile(&pos[i], k))
            check_value(mc, m, c, f, x, k, &pos[i]);
    if (r->matmul)
        matmul_padding(mc, m, c, f, x, k, pos, np);
    int all = r->all;
    uint32_t forbid = r->forbid;
    mc->alias_op = NULL;
    mc->nalias = 0;
    if (all || forbid) {
        mc->alias_op = x;
        for (uint32_t i = 0; i < np && mc->nalias < 8; i++) {
            const value *v = &pos[i];
            /* on 950 TPRELU never touches its tmp (pto-isa cd4a3d3f
             * include/pto/npu/a5/TPrelu.hpp:70-80 passes dst, src0, src1
             * only), so an output placed on it is no hazard there */
            if (x->id == IR_OP_TILE_PRELU && i == 2 && mc->target == MEM_TARGET_950)
                continue;
            if ((all || (i < 32 && (forbid >> i) & 1)) && v->kind == VAL_TENSOR && v->u.t && v->u.t->mem_tile &&
                v->u.t->mem_core == k) {
                mc->alias_tiles[mc->nalias] = v->u.t->mem_tile;
                mc->alias_argno[mc->nalias++] = (int)i;
            }
        }
    }
    for (uint32_t i = 0; i < nk; i++)
        if (holds_tile(&kw[i], k))
            check_value(mc, m, c, f, x, k, &kw[i]);
}

void exec_memcheck_written(exec_memcheck *mc, const core *c, tensor *t)
{
    if (!t->mem_tile || !c)
        return;
    int k = c->id == EXEC_CORE_AIC ? 0 : c->id == EXEC_CORE_AIV0 ? 1 : c->id == EXEC_CORE_AIV1 ? 2 : t->mem_core;
    if (t->mem_core != k)
        return;
    mem_fault flt;
    t->mem_gen = mem_tile_write_in_place(&mc->cores[k], t->mem_tile, t, &flt);
}

int exec_memcheck_guess_addressed(const xprogram *p)
{
    /* a dump from AllocateMemoryAddr on has some tile at a nonzero offset;
     * before it every offset is 0 (the runner tells when it knows the
     * pass: machine_options.mem_addressed) */
    for (uint32_t i = 0; i < p->nfuncs; i++) {
        const xfunc *fn = &p->funcs[i];
        for (uint32_t j = 0; j < fn->ncode; j++) {
            const xinst *in = &fn->code[j];
            if (in->kind == XI_ASSIGN && in->types && in->types[0].mem_space >= 0 && in->types[0].mem_offset)
                return 1;
        }
    }
    return 0;
}

uint64_t exec_memcheck_faults(const exec_memcheck *mc)
{
    return mc ? mc->faults : 0;
}

const char *exec_memcheck_report(const exec_memcheck *mc)
{
    return mc && mc->faults ? strbuf_str(&mc->report) : NULL;
}

const char *exec_memcheck_last(const exec_memcheck *mc)
{
    return mc && mc->faults ? strbuf_str(&mc->last) : NULL;
}

int exec_memcheck_take_pending(exec_memcheck *mc)
{
    if (!mc || !mc->pending)
        return 0;
    mc->pending = 0;
    return 1;
}

const mem_core *exec_memcheck_core_of(const exec_memcheck *mc, const core *c)
{
    if (!mc)
        return NULL;
    const xfunc *fn = c->depth ? c->frames[c->depth - 1].fn : c->kept ? c->frames[0].fn : NULL;
    int k = fn ? mem_index(c, fn) : c->id == EXEC_CORE_AIC ? 0 : c->id == EXEC_CORE_AIV0 ? 1
                                                           : c->id == EXEC_CORE_AIV1 ? 2 : -1;
    return k >= 0 ? &mc->cores[k] : NULL;
}

const mem_core *exec_memcheck_core(const exec_memcheck *mc, int core_id)
{
    if (!mc)
        return NULL;
    switch (core_id) {
    case EXEC_CORE_AIC:
        return &mc->cores[0];
    case EXEC_CORE_AIV0:
        return &mc->cores[1];
    case EXEC_CORE_AIV1:
        return &mc->cores[2];
    default:
        return NULL;
    }
}

/* ---- checkpoints ------------------------------------------------------------ */

typedef struct memcheck_saved {
    mem_core cores[3];
    uint64_t faults;
    char *report, *last;
    int pending, kinds;
} memcheck_saved;

void *exec_memcheck_save(const exec_memcheck *mc)
{
    memcheck_saved *s = xcalloc(1, sizeof *s);
    for (int i = 0; i < 3; i++)
        mem_core_copy(&s->cores[i], &mc->cores[i]);
    s->faults = mc->faults;
    s->report = xstrdup(strbuf_str(&mc->report));
    s->last = xstrdup(strbuf_str(&mc->last));
    s->pending = mc->pending;
    s->kinds = mc->kinds;
    return s;
}

void exec_memcheck_restore(exec_memcheck *mc, const void *saved)
{
    const memcheck_saved *s = saved;
    for (int i = 0; i < 3; i++)
        mem_core_copy(&mc->cores[i], &s->cores[i]);
    mc->faults = s->faults;
    strbuf_clear(&mc->report);
    strbuf_puts(&mc->report, s->report);
    strbuf_clear(&mc->last);
    strbuf_puts(&mc->last, s->last);
    mc->pending = s->pending;
    mc->kinds = s->kinds;
    mc->nalias = 0;
    mc->alias_op = NULL;
}

/* The cores' memories only (a block parked at a syncall: its cores' on-chip
 * memory is its own, its faults are the run's). */
void *exec_memcheck_save_cores(const exec_memcheck *mc)
{
    memcheck_saved *s = xcalloc(1, sizeof *s);
    for (int i = 0; i < 3; i++)
        mem_core_copy(&s->cores[i], &mc->cores[i]);
    return s;
}

void *exec_memcheck_saved_cores_copy(const void *saved)
{
    const memcheck_saved *from = saved;
    memcheck_saved *s = xcalloc(1, sizeof *s);
    for (int i = 0; i < 3; i++)
        mem_core_copy(&s->cores[i], &from->cores[i]);
    return s;
}

void exec_memcheck_restore_cores(exec_memcheck *mc, const void *saved)
{
    const memcheck_saved *s = saved;
    for (int i = 0; i < 3; i++)
        mem_core_copy(&mc->cores[i], &s->cores[i]);
}

void exec_memcheck_saved_free(void *saved)
{
    memcheck_saved *s = saved;
    if (!s)
        return;
    for (int i = 0; i < 3; i++)
        mem_core_free(&s->cores[i]);
    free(s->report);
    free(s->last);
    free(s);
}

size_t exec_memcheck_saved_bytes(const void *saved)
{
    const memcheck_saved *s = saved;
    size_t n = sizeof *s + strlen(s->report) + strlen(s->last);
    for (int i = 0; i < 3; i++) {
        const mem_core *c = &s->cores[i];
        for (int k = 0; k < MEM_NSPACES; k++)
            n += (size_t)c->sp[k].size + (size_t)((c->sp[k].size + MEM_GRANULE - 1) / MEM_GRANULE) *
                                             sizeof *c->sp[k].writer;
        n += c->cap * sizeof *c->tiles + c->hcap * sizeof *c->hash + c->idcap * sizeof *c->ids +
             c->slotcap * sizeof *c->slots;
    }
    return n;
}

uint64_t exec_memcheck_state_hash(const exec_memcheck *mc, uint64_t h)
{
    for (int i = 0; i < 3; i++)
        h = (h ^ mem_core_hash(&mc->cores[i])) * 0x100000001b3ull;
    return (h ^ mc->faults) * 0x100000001b3ull;
}
