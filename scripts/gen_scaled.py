#!/usr/bin/python3
"""Write scaled benchmark cases into a folder (never into the source tree).

    /usr/bin/python3 scripts/gen_scaled.py OUTDIR [--tokens T] [--hidden H]
        [--inter I] [--heads NH] [--kv-heads NKV] [--cache S] [--cases mlp,decode]

Two cases, each a PyPTO-style build folder (passes_dump/, data/in, data/out,
ptodb.yaml) plus bench.txt, the figures scripts/bench.d/scaled needs:

* mlp_T_H_I: examples/mlp (RMSNorm + SwiGLU MLP + residual, one CORE_GROUP
  scope split UP_DOWN) at T tokens, hidden H, intermediate I. Stages
  00_frontend (tensor ops), 11_after_ConvertTensorToTileOps (one InCore
  kernel) and 22_after_ExpandMixedKernel (AIC/AIV with tpush/tpop), with
  unchanged copies under the names of the passes between them, as real
  dumps have.
* decode_T_H_I_S: one decode layer: RMSNorm, fused QKV projection, the new
  K/V rows written out (the cache update), attention of every head over a
  KV cache of S positions (grouped: NH query heads over NKV KV heads; the K
  cache is stored transposed, [NKV*D, S]), output projection plus residual,
  post-attention RMSNorm, SwiGLU MLP and the final residual. Stage
  00_frontend has an InCore function per block called from an Orchestration
  function (like PyPTO's Qwen3 decode tests); 22_after_ExpandMixedKernel
  splits each matmul block into AIC (cube: loads, matmuls, tpush of partial
  products) and AIV (vector: two lanes of T/2 rows, accumulation, softmax,
  SwiGLU, stores) functions joined by a Group, vector-only blocks are AIV
  functions. Copies of both under later pass names.

The golden outputs are computed with numpy, independently of ptodb, step by
step as the frontend program computes them under PyPTO's torch reference
(gen_examples.py gives the rounding points: bf16 x bf16 matmuls rounded to
bf16 then widened, sums and exp in double rounded once, fp32 elementwise).
Shapes: H = NH * D; H, the fused QKV width and I are multiples of the chunk
sizes chosen below; T is even. Seeds are fixed.
"""

import argparse
import os
import shutil
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_examples import (F32, bf16_bits, bf16_widen, exp32, matmul_bf16,  # noqa: E402
                          recip32, row_sum, rsqrt32, to_bf16)

EPS = "9.9999999999999995e-07"
FILE_HEADER = "# pypto.program: {cls}\nimport pypto.language as pl\n\n@pl.program\nclass {cls}:\n"


def chunk(n, pref):
    """The largest of pref, pref/2, ... that divides n (at least 1)."""
    c = pref
    while c > 1 and n % c:
        c //= 2
    return max(c, 1)


def flt(v):
    return repr(float(v))


def T_(shape, dt):
    return "pl.Tensor[[%s], pl.%s]" % (", ".join(str(s) for s in shape), dt)


def TILE(shape, dt, mem):
    return "pl.Tile[[%s], pl.%s, pl.Mem.%s]" % (", ".join(str(s) for s in shape), dt, mem)


def rmsnorm_golden(x, w, h):
    sq = row_sum((x * x).astype(F32))
    ms = (sq.reshape(1, -1) * F32(1.0 / h)).astype(F32)
    inv = rsqrt32((ms + F32(float(EPS))).astype(F32))
    xn = (x * inv.reshape(-1, 1)).astype(F32)
    return to_bf16((xn * w).astype(F32))


def silu_mul(gate, up):
    sig = recip32((exp32(-gate) + F32(1.0)).astype(F32))
    return ((gate * sig).astype(F32) * up).astype(F32)


def save_npy(case_dir, sub, name, arr):
    d = os.path.join(case_dir, "data", sub)
    os.makedirs(d, exist_ok=True)
    arr = arr.astype("<u2") if arr.dtype == np.uint16 else arr.astype("<f4")
    np.save(os.path.join(d, name + ".npy"), np.ascontiguousarray(arr), allow_pickle=False)


def write_case(case_dir, cls, entry, stages, copies, inputs, outputs, bench):
    """stages: {name: text}; copies: {copy name: stage name}; inputs/outputs:
    [(name, array, dtype, shape)]; bench: {key: value} for bench.txt."""
    if os.path.isdir(case_dir):
        shutil.rmtree(case_dir)
    pd = os.path.join(case_dir, "passes_dump")
    os.makedirs(pd)
    for name, text in stages.items():
        with open(os.path.join(pd, name + ".py"), "w") as f:
            f.write(FILE_HEADER.format(cls=cls) + text)
    for name, src in copies.items():
        shutil.copyfile(os.path.join(pd, src + ".py"), os.path.join(pd, name + ".py"))
    lines = ["# Written by scripts/gen_scaled.py (benchmark case; bf16 stored as '<u2').",
             "entry: " + entry, "tolerance: {rtol: 0.05, atol: 0.05}", "inputs:"]
    for name, arr, dt, shape in inputs:
        save_npy(case_dir, "in", name, arr)
        lines.append("  %s: {file: data/in/%s.npy, dtype: %s, shape: [%s]}"
                     % (name, name, dt, ", ".join(map(str, shape))))
    lines.append("outputs:")
    for name, arr, dt, shape in outputs:
        save_npy(case_dir, "out", name, arr)
        lines.append("  %s: {file: data/out/%s.npy, dtype: %s, shape: [%s]}"
                     % (name, name, dt, ", ".join(map(str, shape))))
    with open(os.path.join(case_dir, "ptodb.yaml"), "w") as f:
        f.write("\n".join(lines) + "\n")
    tensor_bytes = sum(a.nbytes for _, a, _, _ in inputs) + sum(a.nbytes for _, a, _, _ in outputs)
    bench = dict(bench)
    bench["tensor_bytes"] = tensor_bytes
    # bytes a pass must move at least: every input read, every output
    # written, each GM intermediate written and read back
    bench["bytes_per_pass"] = tensor_bytes + 2 * bench["gm_intermediate_bytes"]
    bench["distinct_passes"] = len(stages)
    bench["pass_files"] = len(stages) + len(copies)
    with open(os.path.join(case_dir, "bench.txt"), "w") as f:
        for k, v in bench.items():
            f.write("%s: %s\n" % (k, v))


# ---- mlp ------------------------------------------------------------------------

def gen_mlp(out, T, H, I):
    IC = chunk(I, min(256, I // 2))
    NB, T2 = I // IC, T // 2
    inv_h = flt(1.0 / H)
    x_t, nw_t = T_([T, H], "FP32"), T_([1, H], "FP32")
    wg_t, wd_t = T_([H, I], "BF16"), T_([I, H], "BF16")
    o_t = T_([T, H], "FP32")

    sig = ("x: %s, norm_w: %s, w_gate: %s, w_up: %s, w_down: %s, out: pl.Out[%s]"
           % (x_t, nw_t, wg_t, wg_t, wd_t, o_t))
    f00 = f"""    @pl.function
    def mlp_block(self, {sig}) -> {o_t}:
        # RMSNorm + SwiGLU MLP block with a residual (scripts/gen_scaled.py).
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="mlp_fused"):
            sq_sum: {T_([T, 1], "FP32")} = pl.tensor.row_sum(pl.tensor.mul(x, x))
            inv_rms: {T_([1, T], "FP32")} = pl.tensor.rsqrt(pl.tensor.adds(pl.tensor.muls(pl.tensor.reshape(sq_sum, [1, {T}]), {inv_h}), {EPS}))
            xn: {x_t} = pl.tensor.col_expand_mul(pl.tensor.row_expand_mul(x, pl.tensor.reshape(inv_rms, [{T}, 1])), norm_w)
            xn_bf16: {T_([T, H], "BF16")} = pl.tensor.cast(xn, target_type=pl.BF16, mode='round')
            down_acc: {o_t} = pl.tensor.full([{T}, {H}], dtype=pl.FP32, value=0.0)
            for ib in pl.range({NB}):
                i0: pl.Scalar[pl.INDEX] = ib * {IC}
                wg: {T_([H, IC], "BF16")} = pl.tensor.slice(w_gate, [{H}, {IC}], [0, i0])
                wu: {T_([H, IC], "BF16")} = pl.tensor.slice(w_up, [{H}, {IC}], [0, i0])
                gate: {T_([T, IC], "FP32")} = pl.tensor.matmul(xn_bf16, wg, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32)
                up: {T_([T, IC], "FP32")} = pl.tensor.matmul(xn_bf16, wu, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32)
                sigmoid: {T_([T, IC], "FP32")} = pl.tensor.recip(pl.tensor.adds(pl.tensor.exp(pl.tensor.neg(gate)), 1.0))
                h: {T_([T, IC], "FP32")} = pl.tensor.mul(pl.tensor.mul(gate, sigmoid), up)
                h_bf16: {T_([T, IC], "BF16")} = pl.tensor.cast(h, target_type=pl.BF16, mode='round')
                wd: {T_([IC, H], "BF16")} = pl.tensor.slice(w_down, [{IC}, {H}], [i0, 0])
                down_acc: {o_t} = pl.tensor.add(down_acc, pl.tensor.matmul(h_bf16, wd, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32))
            out: {o_t} = pl.tensor.assemble(out, pl.tensor.add(x, down_acc), [0, 0])
        return out
"""
    ssig = ("x__ssa_v0: %s, norm_w__ssa_v0: %s, w_gate__ssa_v0: %s, w_up__ssa_v0: %s, "
            "w_down__ssa_v0: %s, out__ssa_v0: pl.Out[%s]" % (x_t, nw_t, wg_t, wg_t, wd_t, o_t))
    sargs = "x__ssa_v0, norm_w__ssa_v0, w_gate__ssa_v0, w_up__ssa_v0, w_down__ssa_v0, out__ssa_v0"
    orch = f"""    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def mlp_block(self, {ssig}) -> {o_t}:
        out__ssa_v1: {o_t} = self.mlp_fused({sargs})
        return out__ssa_v1
"""

    def vec_norm(rows, off):
        V = "Vec"
        return f"""        x__tile: {TILE([rows, H], "FP32", V)} = pl.tile.load(x__ssa_v0, [{off}, 0], [{rows}, {H}], [{rows}, {H}], target_memory=pl.Mem.Vec)
        norm_w__tile: {TILE([1, H], "FP32", V)} = pl.tile.load(norm_w__ssa_v0, [0, 0], [1, {H}], [1, {H}], target_memory=pl.Mem.Vec)
        t__tile: {TILE([rows, H], "FP32", V)} = pl.tile.mul(x__tile, x__tile)
        tmp_tile: {TILE([rows, H], "FP32", V)} = pl.tile.create([{rows}, {H}], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        sq_sum__tile: {TILE([rows, 1], "FP32", V)} = pl.tile.row_sum(t__tile, tmp_tile)
        t__tile_1: {TILE([1, rows], "FP32", V)} = pl.tile.reshape(sq_sum__tile, [1, {rows}])
        t__tile_2: {TILE([1, rows], "FP32", V)} = pl.tile.muls(t__tile_1, {inv_h})
        t__tile_3: {TILE([1, rows], "FP32", V)} = pl.tile.adds(t__tile_2, {EPS})
        inv_rms__tile: {TILE([1, rows], "FP32", V)} = pl.tile.rsqrt(t__tile_3)
        t__tile_4: {TILE([rows, 1], "FP32", V)} = pl.tile.reshape(inv_rms__tile, [{rows}, 1])
        t__tile_5: {TILE([rows, H], "FP32", V)} = pl.tile.row_expand_mul(x__tile, t__tile_4)
        xn__tile: {TILE([rows, H], "FP32", V)} = pl.tile.col_expand_mul(t__tile_5, norm_w__tile)
        xn_bf16__tile: {TILE([rows, H], "BF16", V)} = pl.tile.cast(xn__tile, target_type=pl.BF16, mode='round')
        down_acc__tile: {TILE([rows, H], "FP32", V)} = pl.tile.full([{rows}, {H}], dtype=pl.FP32, value=0.0)
"""

    def swiglu(rows, g, u, ind):
        V = "Vec"
        return f"""{ind}t__tile_6: {TILE([rows, IC], "FP32", V)} = pl.tile.neg({g})
{ind}t__tile_7: {TILE([rows, IC], "FP32", V)} = pl.tile.exp(t__tile_6)
{ind}t__tile_8: {TILE([rows, IC], "FP32", V)} = pl.tile.adds(t__tile_7, 1.0)
{ind}sigmoid__tile: {TILE([rows, IC], "FP32", V)} = pl.tile.recip(t__tile_8)
{ind}t__tile_9: {TILE([rows, IC], "FP32", V)} = pl.tile.mul({g}, sigmoid__tile)
{ind}h__tile: {TILE([rows, IC], "FP32", V)} = pl.tile.mul(t__tile_9, {u})
{ind}h_bf16__tile: {TILE([rows, IC], "BF16", V)} = pl.tile.cast(h__tile, target_type=pl.BF16, mode='round')
"""
    ind3 = " " * 12
    f11 = f"""    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def mlp_fused({ssig}) -> {o_t}:
        pl.func_attr({{"split": pl.SplitMode.UP_DOWN}})
{vec_norm(T, 0)}        for ib__idx_v0, (down_acc__iter_v1,) in pl.range({NB}, init_values=(down_acc__tile,)):
            i0__ssa_v0: pl.Scalar[pl.INDEX] = ib__idx_v0 * {IC}
            wg__tile: {TILE([H, IC], "BF16", "Mat")} = pl.tile.load(w_gate__ssa_v0, [0, i0__ssa_v0], [{H}, {IC}], [{H}, {IC}], target_memory=pl.Mem.Mat, attrs={{"__compiler_tensor_to_tile_mat_bridge": True}})
            wu__tile: {TILE([H, IC], "BF16", "Mat")} = pl.tile.load(w_up__ssa_v0, [0, i0__ssa_v0], [{H}, {IC}], [{H}, {IC}], target_memory=pl.Mem.Mat, attrs={{"__compiler_tensor_to_tile_mat_bridge": True}})
            gate__tile: {TILE([T, IC], "FP32", "Acc")} = pl.tile.matmul(xn_bf16__tile, wg__tile)
            up__tile: {TILE([T, IC], "FP32", "Acc")} = pl.tile.matmul(xn_bf16__tile, wu__tile)
{swiglu(T, "gate__tile", "up__tile", ind3)}            wd__tile: {TILE([IC, H], "BF16", "Mat")} = pl.tile.load(w_down__ssa_v0, [i0__ssa_v0, 0], [{IC}, {H}], [{IC}, {H}], target_memory=pl.Mem.Mat, attrs={{"__compiler_tensor_to_tile_mat_bridge": True}})
            t__tile_10: {TILE([T, H], "FP32", "Acc")} = pl.tile.matmul(h_bf16__tile, wd__tile)
            down_acc__tile_1: {TILE([T, H], "FP32", "Vec")} = pl.tile.add(down_acc__iter_v1, t__tile_10)
            down_acc__rv_v2: {TILE([T, H], "FP32", "Vec")} = pl.yield_(down_acc__tile_1)
        t__tile_11: {TILE([T, H], "FP32", "Vec")} = pl.tile.add(x__tile, down_acc__rv_v2)
        out__tile: {o_t} = pl.tile.store(t__tile_11, [0, 0], out__ssa_v0)
        return out__ssa_v0
""" + orch
    v2c = max(T * H * 2, T * IC * 2)
    c2v = max(T * IC * 4, T * H * 4)
    attr = 'pl.func_attr({"split": pl.SplitMode.UP_DOWN, "split_aiv": True})'
    f22 = f"""    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def mlp_fused_aic({ssig}):
        {attr}
        mlp_fused_v2c_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='mlp_fused_v2c_slot_buffer', size={2 * v2c}, base=-1)
        mlp_fused_c2v_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='mlp_fused_c2v_slot_buffer', peer_func='mlp_fused_aiv')
        pl.system.aic_initialize_pipe(mlp_fused_c2v_slot_buffer_import, mlp_fused_v2c_slot_buffer, dir_mask=3, slot_size={c2v}, slot_num=2)
        for ib__idx_v0 in pl.range({NB}):
            i0__ssa_v0: pl.Scalar[pl.INDEX] = ib__idx_v0 * {IC}
            wg__tile: {TILE([H, IC], "BF16", "Mat")} = pl.tile.load(w_gate__ssa_v0, [0, i0__ssa_v0], [{H}, {IC}], [{H}, {IC}], target_memory=pl.Mem.Mat)
            wu__tile: {TILE([H, IC], "BF16", "Mat")} = pl.tile.load(w_up__ssa_v0, [0, i0__ssa_v0], [{H}, {IC}], [{H}, {IC}], target_memory=pl.Mem.Mat)
            xn_bf16__tile_Left_mat: {TILE([T, H], "BF16", "Mat")} = pl.tile.tpop_from_aiv(split=1)
            xn_bf16__tile_Left: {TILE([T, H], "BF16", "Left")} = pl.tile.move(xn_bf16__tile_Left_mat, target_memory=pl.Mem.Left, blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)
            pl.system.tfree_to_aiv(xn_bf16__tile_Left_mat)
            wg__tile_Right: {TILE([H, IC], "BF16", "Right")} = pl.tile.move(wg__tile, target_memory=pl.Mem.Right)
            gate__tile: {TILE([T, IC], "FP32", "Acc")} = pl.tile.matmul(xn_bf16__tile_Left, wg__tile_Right)
            pl.tile.tpush_to_aiv(gate__tile, split=1)
            wu__tile_Right: {TILE([H, IC], "BF16", "Right")} = pl.tile.move(wu__tile, target_memory=pl.Mem.Right)
            up__tile: {TILE([T, IC], "FP32", "Acc")} = pl.tile.matmul(xn_bf16__tile_Left, wu__tile_Right)
            pl.tile.tpush_to_aiv(up__tile, split=1)
            wd__tile: {TILE([IC, H], "BF16", "Mat")} = pl.tile.load(w_down__ssa_v0, [i0__ssa_v0, 0], [{IC}, {H}], [{IC}, {H}], target_memory=pl.Mem.Mat)
            h_bf16__tile_Left_mat: {TILE([T, IC], "BF16", "Mat")} = pl.tile.tpop_from_aiv(split=1)
            h_bf16__tile_Left: {TILE([T, IC], "BF16", "Left")} = pl.tile.move(h_bf16__tile_Left_mat, target_memory=pl.Mem.Left, blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)
            pl.system.tfree_to_aiv(h_bf16__tile_Left_mat)
            wd__tile_Right: {TILE([IC, H], "BF16", "Right")} = pl.tile.move(wd__tile, target_memory=pl.Mem.Right)
            t__tile_10: {TILE([T, H], "FP32", "Acc")} = pl.tile.matmul(h_bf16__tile_Left, wd__tile_Right)
            pl.tile.tpush_to_aiv(t__tile_10, split=1)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def mlp_fused_aiv({ssig}) -> {o_t}:
        {attr}
        subblock_idx: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        mlp_fused_v2c_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='mlp_fused_v2c_slot_buffer', peer_func='mlp_fused_aic')
        mlp_fused_c2v_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='mlp_fused_c2v_slot_buffer', size={2 * c2v}, base=-1)
        pl.system.aiv_initialize_pipe(mlp_fused_c2v_slot_buffer, mlp_fused_v2c_slot_buffer_import, dir_mask=3, slot_size={c2v}, slot_num=2)
{vec_norm(T2, "0 + subblock_idx * %d" % T2)}        for ib__idx_v0, (down_acc__iter_v1,) in pl.range({NB}, init_values=(down_acc__tile,)):
            pl.tile.tpush_to_aic(xn_bf16__tile, split=1)
            gate__tile_Vec: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.tpop_from_aic(split=1)
            up__tile_Vec: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.tpop_from_aic(split=1)
{swiglu(T2, "gate__tile_Vec", "up__tile_Vec", ind3)}            pl.system.tfree_to_aic(gate__tile_Vec)
            pl.system.tfree_to_aic(up__tile_Vec)
            pl.tile.tpush_to_aic(h_bf16__tile, split=1)
            t__tile_Vec: {TILE([T2, H], "FP32", "Vec")} = pl.tile.tpop_from_aic(split=1)
            down_acc__tile_1: {TILE([T2, H], "FP32", "Vec")} = pl.tile.add(down_acc__iter_v1, t__tile_Vec)
            pl.system.tfree_to_aic(t__tile_Vec)
            down_acc__rv_v2: {TILE([T2, H], "FP32", "Vec")} = pl.yield_(down_acc__tile_1)
        t__tile_11: {TILE([T2, H], "FP32", "Vec")} = pl.tile.add(x__tile, down_acc__rv_v2)
        out__tile: {o_t} = pl.tile.store(t__tile_11, [0 + subblock_idx * {T2}, 0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def mlp_fused({ssig}) -> {o_t}:
        {attr}
        self.mlp_fused_aic({sargs})
        self.mlp_fused_aiv({sargs})
        return out__ssa_v0
""" + orch

    rng = np.random.RandomState(20261201)
    x = rng.standard_normal((T, H)).astype(F32)
    norm_w = (1.0 + 0.1 * rng.standard_normal((1, H))).astype(F32)
    w_gate = bf16_bits((rng.standard_normal((H, I)) / np.sqrt(H)).astype(F32))
    w_up = bf16_bits((rng.standard_normal((H, I)) / np.sqrt(H)).astype(F32))
    w_down = bf16_bits((rng.standard_normal((I, H)) / np.sqrt(I)).astype(F32))
    xn = rmsnorm_golden(x, norm_w, H)
    wg, wu, wd = bf16_widen(w_gate), bf16_widen(w_up), bf16_widen(w_down)
    down = np.zeros((T, H), dtype=F32)
    for ib in range(NB):
        s = slice(ib * IC, (ib + 1) * IC)
        h = to_bf16(silu_mul(matmul_bf16(xn, wg[:, s]), matmul_bf16(xn, wu[:, s])))
        down = (down + matmul_bf16(h, wd[s, :])).astype(F32)
    golden = (x + down).astype(F32)
    flops = 2 * T * H * I * 3
    live = (T * H * (4 + 4 + 2 + 4) + H * IC * 2 * 3 + T * IC * 4 * 8)
    write_case(os.path.join(out, "mlp_%d_%d_%d" % (T, H, I)), "MlpBlock", "mlp_block",
               {"00_frontend": f00, "11_after_ConvertTensorToTileOps": f11,
                "22_after_ExpandMixedKernel": f22},
               {"01_after_InlineFunctions": "00_frontend", "02_after_UnrollLoops": "00_frontend",
                "12_after_OptimizeOrchTensors": "11_after_ConvertTensorToTileOps",
                "23_after_InjectGMPipeBuffer": "22_after_ExpandMixedKernel",
                "24_after_SplitVectorKernel": "22_after_ExpandMixedKernel"},
               [("x", x, "fp32", [T, H]), ("norm_w", norm_w, "fp32", [1, H]),
                ("w_gate", w_gate, "bf16", [H, I]), ("w_up", w_up, "bf16", [H, I]),
                ("w_down", w_down, "bf16", [I, H])],
               [("out", golden, "fp32", [T, H])],
               {"flops_per_pass": flops, "gm_intermediate_bytes": 0, "live_tile_bytes": live})


# ---- decode layer ------------------------------------------------------------------

class Decode:
    def __init__(self, T, H, I, NH, NKV, S):
        assert H % NH == 0 and NH % NKV == 0 and T % 2 == 0
        self.T, self.H, self.I, self.NH, self.NKV, self.S = T, H, I, NH, NKV, S
        self.D = H // NH
        self.G = NH // NKV
        self.KVD = NKV * self.D
        self.QKV = H + 2 * self.KVD
        # at least two chunks, so every loop runs more than once at small shapes
        self.KC = chunk(H, min(512, H // 2))
        self.NC = chunk(self.KVD, min(256, self.KVD // 2))
        self.IC = chunk(I, min(256, I // 2))
        self.T2 = T // 2
        self.scale = 1.0 / np.sqrt(self.D)

    # signatures: (name, shape, dtype, is_out)
    def sigs(self):
        T, H, I, S = self.T, self.H, self.I, self.S
        return {
            "rmsnorm": [("x", [T, H], "FP32", 0), ("w", [1, H], "FP32", 0), ("xn_gm", [T, H], "BF16", 1)],
            "qkv_proj": [("xn_gm", [T, H], "BF16", 0), ("wqkv", [H, self.QKV], "BF16", 0),
                         ("n0", None, "INDEX", 0), ("qkv_gm", [T, self.QKV], "FP32", 1)],
            "cache_write": [("qkv_gm", [T, self.QKV], "FP32", 0), ("c0", None, "INDEX", 0),
                            ("kv_out", [T, self.KVD], "FP32", 1)],
            "attention": [("qkv_gm", [T, self.QKV], "FP32", 0), ("k_cache_t", [self.KVD, S], "BF16", 0),
                          ("v_cache", [S, self.KVD], "BF16", 0), ("kvh", None, "INDEX", 0),
                          ("attn_gm", [T, H], "BF16", 1)],
            "o_proj": [("attn_gm", [T, H], "BF16", 0), ("wo", [H, H], "BF16", 0), ("x", [T, H], "FP32", 0),
                       ("n0", None, "INDEX", 0), ("resid1_gm", [T, H], "FP32", 1)],
            "zero_down": [("down_gm", [T, H], "FP32", 1)],
            "mlp": [("xn2_gm", [T, H], "BF16", 0), ("w_gate", [H, I], "BF16", 0), ("w_up", [H, I], "BF16", 0),
                    ("w_down", [I, H], "BF16", 0), ("i0", None, "INDEX", 0), ("down_gm", [T, H], "FP32", 1)],
            "final_resid": [("resid1_gm", [T, H], "FP32", 0), ("down_gm", [T, H], "FP32", 0),
                            ("out", [T, H], "FP32", 1)],
        }

    @staticmethod
    def sig_text(params, suffix):
        parts = []
        for name, shape, dt, is_out in params:
            if shape is None:
                parts.append("%s%s: pl.Scalar[pl.%s]" % (name, suffix, dt))
            else:
                t = T_(shape, dt)
                parts.append("%s%s: %s" % (name, suffix, "pl.Out[%s]" % t if is_out else t))
        return ", ".join(parts)

    @staticmethod
    def ret(params):
        name, shape, dt, _ = params[-1]
        return T_(shape, dt)

    # ---- 00_frontend: InCore functions of tensor ops, an Orchestration entry ----
    def frontend(self):
        T, H, I, S, D, G = self.T, self.H, self.I, self.S, self.D, self.G
        KC, NC, IC, KVD, QKV = self.KC, self.NC, self.IC, self.KVD, self.QKV
        sg = self.sigs()
        hdr = "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)\n"
        fns = {}
        fns["rmsnorm"] = f"""        # RMSNorm over the hidden dim, eps = 1e-6, scaled by w, cast to BF16.
        sq_sum: {T_([T, 1], "FP32")} = pl.tensor.row_sum(pl.tensor.mul(x, x))
        inv_rms: {T_([1, T], "FP32")} = pl.tensor.rsqrt(pl.tensor.adds(pl.tensor.muls(pl.tensor.reshape(sq_sum, [1, {T}]), {flt(1.0 / H)}), {EPS}))
        normed: {T_([T, H], "FP32")} = pl.tensor.col_expand_mul(pl.tensor.row_expand_mul(x, pl.tensor.reshape(inv_rms, [{T}, 1])), w)
        xn_gm: {T_([T, H], "BF16")} = pl.tensor.assemble(xn_gm, pl.tensor.cast(normed, target_type=pl.BF16, mode='round'), [0, 0])
        return xn_gm
"""

        def proj(a, w, n0, out, N, resid):
            r = f"""        acc: {T_([T, NC], "FP32")} = pl.tensor.full([{T}, {NC}], dtype=pl.FP32, value=0.0)
        for kb in pl.range({H // KC}):
            k0: pl.Scalar[pl.INDEX] = kb * {KC}
            a_chunk: {T_([T, KC], "BF16")} = pl.tensor.slice({a}, [{T}, {KC}], [0, k0])
            w_chunk: {T_([KC, NC], "BF16")} = pl.tensor.slice({w}, [{KC}, {NC}], [k0, {n0}])
            acc: {T_([T, NC], "FP32")} = pl.tensor.add(acc, pl.tensor.matmul(a_chunk, w_chunk, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32))
"""
            if resid:
                r += f"""        acc: {T_([T, NC], "FP32")} = pl.tensor.add(acc, pl.tensor.slice({resid}, [{T}, {NC}], [0, {n0}]))
"""
            r += f"""        {out}: {T_([T, N], "FP32")} = pl.tensor.assemble({out}, acc, [0, {n0}])
        return {out}
"""
            return r
        fns["qkv_proj"] = "        # One NC-wide column block of the fused QKV projection.\n" + \
            proj("xn_gm", "wqkv", "n0", "qkv_gm", QKV, None)
        fns["cache_write"] = f"""        # The new K (or V) rows of the layer, as written into the cache.
        kv_out: {T_([T, KVD], "FP32")} = pl.tensor.assemble(kv_out, pl.tensor.slice(qkv_gm, [{T}, {KVD}], [0, c0]), [0, 0])
        return kv_out
"""
        fns["attention"] = f"""        # The {G} query heads of KV head kvh over the {S} cached positions.
        for g in pl.range({G}):
            h: pl.Scalar[pl.INDEX] = kvh * {G} + g
            q: {T_([T, D], "BF16")} = pl.tensor.cast(pl.tensor.slice(qkv_gm, [{T}, {D}], [0, h * {D}]), target_type=pl.BF16, mode='round')
            k_t: {T_([D, S], "BF16")} = pl.tensor.slice(k_cache_t, [{D}, {S}], [kvh * {D}, 0])
            scores: {T_([T, S], "FP32")} = pl.tensor.muls(pl.tensor.matmul(q, k_t, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32), {flt(self.scale)})
            smax: {T_([T, 1], "FP32")} = pl.tensor.row_max(scores)
            e: {T_([T, S], "FP32")} = pl.tensor.exp(pl.tensor.row_expand_sub(scores, smax))
            esum: {T_([T, 1], "FP32")} = pl.tensor.row_sum(e)
            p: {T_([T, S], "BF16")} = pl.tensor.cast(pl.tensor.row_expand_div(e, esum), target_type=pl.BF16, mode='round')
            v: {T_([S, D], "BF16")} = pl.tensor.slice(v_cache, [{S}, {D}], [0, kvh * {D}])
            ctx: {T_([T, D], "FP32")} = pl.tensor.matmul(p, v, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32)
            attn_gm: {T_([T, H], "BF16")} = pl.tensor.assemble(attn_gm, pl.tensor.cast(ctx, target_type=pl.BF16, mode='round'), [0, h * {D}])
        return attn_gm
"""
        fns["o_proj"] = "        # One NC-wide column block of the output projection plus the residual.\n" + \
            proj("attn_gm", "wo", "n0", "resid1_gm", H, "x")
        fns["zero_down"] = f"""        # Zero the down-projection accumulator in GM.
        down_gm: {T_([T, H], "FP32")} = pl.tensor.assemble(down_gm, pl.tensor.full([{T}, {H}], dtype=pl.FP32, value=0.0), [0, 0])
        return down_gm
"""
        fns["mlp"] = f"""        # SwiGLU for one IC-wide block of the intermediate dim, accumulated into down_gm.
        gate_acc: {T_([T, IC], "FP32")} = pl.tensor.full([{T}, {IC}], dtype=pl.FP32, value=0.0)
        up_acc: {T_([T, IC], "FP32")} = pl.tensor.full([{T}, {IC}], dtype=pl.FP32, value=0.0)
        for kb in pl.range({H // KC}):
            k0: pl.Scalar[pl.INDEX] = kb * {KC}
            x_chunk: {T_([T, KC], "BF16")} = pl.tensor.slice(xn2_gm, [{T}, {KC}], [0, k0])
            wg: {T_([KC, IC], "BF16")} = pl.tensor.slice(w_gate, [{KC}, {IC}], [k0, i0])
            wu: {T_([KC, IC], "BF16")} = pl.tensor.slice(w_up, [{KC}, {IC}], [k0, i0])
            gate_acc: {T_([T, IC], "FP32")} = pl.tensor.add(gate_acc, pl.tensor.matmul(x_chunk, wg, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32))
            up_acc: {T_([T, IC], "FP32")} = pl.tensor.add(up_acc, pl.tensor.matmul(x_chunk, wu, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32))
        sigmoid: {T_([T, IC], "FP32")} = pl.tensor.recip(pl.tensor.adds(pl.tensor.exp(pl.tensor.neg(gate_acc)), 1.0))
        h_bf16: {T_([T, IC], "BF16")} = pl.tensor.cast(pl.tensor.mul(pl.tensor.mul(gate_acc, sigmoid), up_acc), target_type=pl.BF16, mode='round')
        for db in pl.range({H // NC}):
            d0: pl.Scalar[pl.INDEX] = db * {NC}
            down_prev: {T_([T, NC], "FP32")} = pl.tensor.slice(down_gm, [{T}, {NC}], [0, d0])
            wd: {T_([IC, NC], "BF16")} = pl.tensor.slice(w_down, [{IC}, {NC}], [i0, d0])
            down_next: {T_([T, NC], "FP32")} = pl.tensor.add(down_prev, pl.tensor.matmul(h_bf16, wd, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32))
            down_gm: {T_([T, H], "FP32")} = pl.tensor.assemble(down_gm, down_next, [0, d0])
        return down_gm
"""
        fns["final_resid"] = f"""        # out = resid1 + down.
        out: {T_([T, H], "FP32")} = pl.tensor.assemble(out, pl.tensor.add(resid1_gm, down_gm), [0, 0])
        return out
"""
        text = ""
        for name in sorted(fns):
            text += hdr + "    def %s(%s) -> %s:\n" % (name, self.sig_text(sg[name], ""), self.ret(sg[name]))
            text += fns[name]
        text += self.orchestration("")
        return text

    def entry_params(self):
        T, H, I, S, KVD, QKV = self.T, self.H, self.I, self.S, self.KVD, self.QKV
        return [("x", [T, H], "FP32", 0), ("attn_norm_w", [1, H], "FP32", 0), ("wqkv", [H, QKV], "BF16", 0),
                ("k_cache_t", [KVD, S], "BF16", 0), ("v_cache", [S, KVD], "BF16", 0), ("wo", [H, H], "BF16", 0),
                ("post_norm_w", [1, H], "FP32", 0), ("w_gate", [H, I], "BF16", 0), ("w_up", [H, I], "BF16", 0),
                ("w_down", [I, H], "BF16", 0), ("k_new", [T, KVD], "FP32", 1), ("v_new", [T, KVD], "FP32", 1),
                ("out", [T, H], "FP32", 1)]

    def orchestration(self, s):
        """The entry; s is the SSA suffix of parameters ('' or '__ssa_v0'). Loops
        thread the GM tensors through iter-args in the SSA form."""
        T, H, I, QKV, KVD = self.T, self.H, self.I, self.QKV, self.KVD
        NC, IC = self.NC, self.IC
        ssa = bool(s)
        p = lambda n: n + s  # noqa: E731
        lines = []
        w = lines.append
        w("    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)")
        w("    def decode_layer(self, %s) -> %s:" % (self.sig_text(self.entry_params(), s), T_([T, H], "FP32")))
        n = {"k": 0}

        def fresh(base):
            n["k"] += 1
            return "%s__v%d" % (base, n["k"]) if ssa else base

        def create(var, shape, dt):
            v = fresh(var)
            w("        %s: %s = pl.tensor.create([%s], dtype=pl.%s, layout=pl.TensorLayout.ND)"
              % (v, T_(shape, dt), ", ".join(map(str, shape)), dt))
            return v

        def call(var, shape, dt, fn, args):
            v = fresh(var)
            w("        %s: %s = self.%s(%s)" % (v, T_(shape, dt), fn, ", ".join(args)))
            return v

        def loop(var, shape, dt, count, step, idx, fn, args_of):
            """for idx in range(count): var = fn(args_of(index expr, current var))"""
            t = T_(shape, dt)
            if ssa:
                it = fresh(var + "_iter")
                w("        for %s__idx, (%s,) in pl.range(%d, init_values=(%s,)):" % (idx, it, count, cur[var]))
                off = fresh(idx + "_off")
                w("            %s: pl.Scalar[pl.INDEX] = %s__idx * %d" % (off, idx, step))
                nv = fresh(var)
                w("            %s: %s = self.%s(%s)" % (nv, t, fn, ", ".join(args_of(off, it))))
                rv = fresh(var + "_rv")
                w("            %s: %s = pl.yield_(%s)" % (rv, t, nv))
                cur[var] = rv
            else:
                w("        for %s in pl.range(%d):" % (idx, count))
                w("            %s0: pl.Scalar[pl.INDEX] = %s * %d" % (idx, idx, step))
                w("            %s: %s = self.%s(%s)" % (cur[var], t, fn, ", ".join(args_of(idx + "0", cur[var]))))

        cur = {}
        cur["xn"] = create("xn_gm", [T, H], "BF16")
        cur["xn"] = call("xn_gm", [T, H], "BF16", "rmsnorm", [p("x"), p("attn_norm_w"), cur["xn"]])
        cur["qkv"] = create("qkv_gm", [T, QKV], "FP32")
        loop("qkv", [T, QKV], "FP32", QKV // NC, NC, "nb", "qkv_proj",
             lambda o, c: [cur["xn"], p("wqkv"), o, c])
        cur["k_new"] = call("k_new", [T, KVD], "FP32", "cache_write", [cur["qkv"], str(H), p("k_new")])
        cur["v_new"] = call("v_new", [T, KVD], "FP32", "cache_write", [cur["qkv"], str(H + KVD), p("v_new")])
        cur["attn"] = create("attn_gm", [T, H], "BF16")
        loop("attn", [T, H], "BF16", self.NKV, 1, "kvh", "attention",
             lambda o, c: [cur["qkv"], p("k_cache_t"), p("v_cache"), o, c])
        cur["resid1"] = create("resid1_gm", [T, H], "FP32")
        loop("resid1", [T, H], "FP32", H // NC, NC, "ob", "o_proj",
             lambda o, c: [cur["attn"], p("wo"), p("x"), o, c])
        cur["xn2"] = create("xn2_gm", [T, H], "BF16")
        cur["xn2"] = call("xn2_gm", [T, H], "BF16", "rmsnorm", [cur["resid1"], p("post_norm_w"), cur["xn2"]])
        cur["down"] = create("down_gm", [T, H], "FP32")
        cur["down"] = call("down_gm", [T, H], "FP32", "zero_down", [cur["down"]])
        loop("down", [T, H], "FP32", I // IC, IC, "ib", "mlp",
             lambda o, c: [cur["xn2"], p("w_gate"), p("w_up"), p("w_down"), o, c])
        res = call("out", [T, H], "FP32", "final_resid", [cur["resid1"], cur["down"], p("out")])
        w("        return %s" % res)
        return "\n".join(lines) + "\n"

    # ---- 22_after_ExpandMixedKernel: AIC/AIV/Group and AIV functions ----
    def mixed(self):
        T, H, I, S, D, G, T2 = self.T, self.H, self.I, self.S, self.D, self.G, self.T2
        KC, NC, IC, KVD, QKV = self.KC, self.NC, self.IC, self.KVD, self.QKV
        sg = self.sigs()
        s = "__ssa_v0"
        out = []
        lane = "subblock_idx * %d" % T2
        split_attr = '        pl.func_attr({"split": pl.SplitMode.UP_DOWN, "split_aiv": True})\n'

        def head(kind, name, params, ret=True):
            lvl = {"AIC": "AIC", "AIV": "AIV", "Group": "CORE_GROUP"}[kind]
            r = "    @pl.function(type=pl.FunctionType.%s, level=pl.Level.%s, role=pl.Role.SubWorker)\n" % (kind, lvl)
            r += "    def %s(%s)%s:\n" % (name, self.sig_text(params, s),
                                         " -> " + self.ret(params) if ret else "")
            return r

        def pipes(name, side, slot):
            if side == "AIC":
                return (f"""        {name}_v2c_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='{name}_v2c_slot_buffer', size={2 * slot}, base=-1)
        {name}_c2v_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='{name}_c2v_slot_buffer', peer_func='{name}_aiv')
        pl.system.aic_initialize_pipe({name}_c2v_slot_buffer_import, {name}_v2c_slot_buffer, dir_mask=3, slot_size={slot}, slot_num=2)
""")
            return (f"""        subblock_idx: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        {name}_v2c_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='{name}_v2c_slot_buffer', peer_func='{name}_aic')
        {name}_c2v_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='{name}_c2v_slot_buffer', size={2 * slot}, base=-1)
        pl.system.aiv_initialize_pipe({name}_c2v_slot_buffer, {name}_v2c_slot_buffer_import, dir_mask=3, slot_size={slot}, slot_num=2)
""")

        def group(name):
            params = sg[name]
            args = ", ".join(p[0] + s for p in params)
            return (head("Group", name, params) + split_attr +
                    "        self.%s_aic(%s)\n        self.%s_aiv(%s)\n        return %s\n"
                    % (name, args, name, args, params[-1][0] + s))

        def ld(var, src, off, shape, dt, mem):
            return ("%s: %s = pl.tile.load(%s, [%s], [%s], [%s], target_memory=pl.Mem.%s)"
                    % (var, TILE(shape, dt, mem), src, off, ", ".join(map(str, shape)),
                       ", ".join(map(str, shape)), mem))

        def mv(var, src, shape, dt, mem, popped=False):
            extra = ", blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major" if popped else ""
            return "%s: %s = pl.tile.move(%s, target_memory=pl.Mem.%s%s)" % (var, TILE(shape, dt, mem), src, mem, extra)

        # rmsnorm (AIV, all T rows)
        out.append(head("AIV", "rmsnorm", sg["rmsnorm"]) + f"""        {ld("x__tile", "x" + s, "0, 0", [T, H], "FP32", "Vec")}
        {ld("w__tile", "w" + s, "0, 0", [1, H], "FP32", "Vec")}
        t__tile: {TILE([T, H], "FP32", "Vec")} = pl.tile.mul(x__tile, x__tile)
        tmp_tile: {TILE([T, H], "FP32", "Vec")} = pl.tile.create([{T}, {H}], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        sq_sum__tile: {TILE([T, 1], "FP32", "Vec")} = pl.tile.row_sum(t__tile, tmp_tile)
        t__tile_1: {TILE([1, T], "FP32", "Vec")} = pl.tile.reshape(sq_sum__tile, [1, {T}])
        t__tile_2: {TILE([1, T], "FP32", "Vec")} = pl.tile.muls(t__tile_1, {flt(1.0 / H)})
        t__tile_3: {TILE([1, T], "FP32", "Vec")} = pl.tile.adds(t__tile_2, {EPS})
        inv_rms__tile: {TILE([1, T], "FP32", "Vec")} = pl.tile.rsqrt(t__tile_3)
        t__tile_4: {TILE([T, 1], "FP32", "Vec")} = pl.tile.reshape(inv_rms__tile, [{T}, 1])
        t__tile_5: {TILE([T, H], "FP32", "Vec")} = pl.tile.row_expand_mul(x__tile, t__tile_4)
        normed__tile: {TILE([T, H], "FP32", "Vec")} = pl.tile.col_expand_mul(t__tile_5, w__tile)
        t__tile_6: {TILE([T, H], "BF16", "Vec")} = pl.tile.cast(normed__tile, target_type=pl.BF16, mode='round')
        xn_gm__tile: {T_([T, H], "BF16")} = pl.tile.store(t__tile_6, [0, 0], xn_gm{s})
        return xn_gm__tile
""")

        # projections: AIC multiplies K chunks and pushes partial products, AIV sums them
        def proj(name, a, w, N, resid):
            params = sg[name]
            slot = T * NC * 4
            aic = head("AIC", name + "_aic", params, ret=False) + split_attr + pipes(name, "AIC", slot) + f"""        for kb__idx_v0 in pl.range({H // KC}):
            k0__ssa_v0: pl.Scalar[pl.INDEX] = kb__idx_v0 * {KC}
            {ld("a__tile", a + s, "0, k0__ssa_v0", [T, KC], "BF16", "Mat")}
            {ld("w__tile", w + s, "k0__ssa_v0, n0" + s, [KC, NC], "BF16", "Mat")}
            {mv("a__tile_Left", "a__tile", [T, KC], "BF16", "Left")}
            {mv("w__tile_Right", "w__tile", [KC, NC], "BF16", "Right")}
            part__tile: {TILE([T, NC], "FP32", "Acc")} = pl.tile.matmul(a__tile_Left, w__tile_Right)
            pl.tile.tpush_to_aiv(part__tile, split=1)
"""
            outv = params[-1][0] + s
            aiv = head("AIV", name + "_aiv", params) + split_attr + pipes(name, "AIV", slot) + f"""        acc__tile: {TILE([T2, NC], "FP32", "Vec")} = pl.tile.full([{T2}, {NC}], dtype=pl.FP32, value=0.0)
        for kb__idx_v0, (acc__iter_v1,) in pl.range({H // KC}, init_values=(acc__tile,)):
            part__tile_Vec: {TILE([T2, NC], "FP32", "Vec")} = pl.tile.tpop_from_aic(split=1)
            acc__tile_1: {TILE([T2, NC], "FP32", "Vec")} = pl.tile.add(acc__iter_v1, part__tile_Vec)
            pl.system.tfree_to_aic(part__tile_Vec)
            acc__rv_v2: {TILE([T2, NC], "FP32", "Vec")} = pl.yield_(acc__tile_1)
"""
            res = "acc__rv_v2"
            if resid:
                aiv += f"""        {ld("resid__tile", resid + s, lane + ", n0" + s, [T2, NC], "FP32", "Vec")}
        acc__tile_2: {TILE([T2, NC], "FP32", "Vec")} = pl.tile.add(acc__rv_v2, resid__tile)
"""
                res = "acc__tile_2"
            aiv += f"""        out__tile: {T_([T, N], "FP32")} = pl.tile.store({res}, [{lane}, n0{s}], {outv})
        return out__tile
"""
            return aic + aiv + group(name)

        out.append(proj("qkv_proj", "xn_gm", "wqkv", QKV, None))

        out.append(head("AIV", "cache_write", sg["cache_write"]) + f"""        {ld("kv__tile", "qkv_gm" + s, "0, c0" + s, [T, KVD], "FP32", "Vec")}
        kv_out__tile: {T_([T, KVD], "FP32")} = pl.tile.store(kv__tile, [0, 0], kv_out{s})
        return kv_out__tile
""")

        # attention: AIV sends q, AIC the scores, AIV the probabilities, AIC the context
        slot = max(T * S * 4, T * D * 4)
        name = "attention"
        params = sg[name]
        aic = head("AIC", name + "_aic", params, ret=False) + split_attr + pipes(name, "AIC", slot) + f"""        for g__idx_v0 in pl.range({G}):
            q__tile_Left_mat: {TILE([T, D], "BF16", "Mat")} = pl.tile.tpop_from_aiv(split=1)
            {mv("q__tile_Left", "q__tile_Left_mat", [T, D], "BF16", "Left", True)}
            pl.system.tfree_to_aiv(q__tile_Left_mat)
            {ld("k_t__tile", "k_cache_t" + s, "kvh%s * %d, 0" % (s, D), [D, S], "BF16", "Mat")}
            {mv("k_t__tile_Right", "k_t__tile", [D, S], "BF16", "Right")}
            scores__tile: {TILE([T, S], "FP32", "Acc")} = pl.tile.matmul(q__tile_Left, k_t__tile_Right)
            pl.tile.tpush_to_aiv(scores__tile, split=1)
            p__tile_Left_mat: {TILE([T, S], "BF16", "Mat")} = pl.tile.tpop_from_aiv(split=1)
            {mv("p__tile_Left", "p__tile_Left_mat", [T, S], "BF16", "Left", True)}
            pl.system.tfree_to_aiv(p__tile_Left_mat)
            {ld("v__tile", "v_cache" + s, "0, kvh%s * %d" % (s, D), [S, D], "BF16", "Mat")}
            {mv("v__tile_Right", "v__tile", [S, D], "BF16", "Right")}
            ctx__tile: {TILE([T, D], "FP32", "Acc")} = pl.tile.matmul(p__tile_Left, v__tile_Right)
            pl.tile.tpush_to_aiv(ctx__tile, split=1)
"""
        aiv = head("AIV", name + "_aiv", params) + split_attr + pipes(name, "AIV", slot) + f"""        for g__idx_v0, (attn_gm__iter_v1,) in pl.range({G}, init_values=(attn_gm{s},)):
            h__ssa_v0: pl.Scalar[pl.INDEX] = kvh{s} * {G} + g__idx_v0
            {ld("q__tile", "qkv_gm" + s, lane + ", h__ssa_v0 * %d" % D, [T2, D], "FP32", "Vec")}
            q_bf16__tile: {TILE([T2, D], "BF16", "Vec")} = pl.tile.cast(q__tile, target_type=pl.BF16, mode='round')
            pl.tile.tpush_to_aic(q_bf16__tile, split=1)
            scores__tile_Vec: {TILE([T2, S], "FP32", "Vec")} = pl.tile.tpop_from_aic(split=1)
            t__tile: {TILE([T2, S], "FP32", "Vec")} = pl.tile.muls(scores__tile_Vec, {flt(self.scale)})
            pl.system.tfree_to_aic(scores__tile_Vec)
            tmp_tile: {TILE([T2, S], "FP32", "Vec")} = pl.tile.create([{T2}, {S}], dtype=pl.FP32, target_memory=pl.Mem.Vec)
            smax__tile: {TILE([T2, 1], "FP32", "Vec")} = pl.tile.row_max(t__tile, tmp_tile)
            t__tile_1: {TILE([T2, S], "FP32", "Vec")} = pl.tile.row_expand_sub(t__tile, smax__tile)
            e__tile: {TILE([T2, S], "FP32", "Vec")} = pl.tile.exp(t__tile_1)
            tmp_tile_1: {TILE([T2, S], "FP32", "Vec")} = pl.tile.create([{T2}, {S}], dtype=pl.FP32, target_memory=pl.Mem.Vec)
            esum__tile: {TILE([T2, 1], "FP32", "Vec")} = pl.tile.row_sum(e__tile, tmp_tile_1)
            t__tile_2: {TILE([T2, S], "FP32", "Vec")} = pl.tile.row_expand_div(e__tile, esum__tile)
            p__tile: {TILE([T2, S], "BF16", "Vec")} = pl.tile.cast(t__tile_2, target_type=pl.BF16, mode='round')
            pl.tile.tpush_to_aic(p__tile, split=1)
            ctx__tile_Vec: {TILE([T2, D], "FP32", "Vec")} = pl.tile.tpop_from_aic(split=1)
            ctx_bf16__tile: {TILE([T2, D], "BF16", "Vec")} = pl.tile.cast(ctx__tile_Vec, target_type=pl.BF16, mode='round')
            pl.system.tfree_to_aic(ctx__tile_Vec)
            attn_gm__tile: {T_([T, H], "BF16")} = pl.tile.store(ctx_bf16__tile, [{lane}, h__ssa_v0 * {D}], attn_gm__iter_v1)
            attn_gm__rv_v2: {T_([T, H], "BF16")} = pl.yield_(attn_gm__tile)
        return attn_gm__rv_v2
"""
        out.append(aic + aiv + group(name))
        out.append(proj("o_proj", "attn_gm", "wo", H, "x"))

        out.append(head("AIV", "zero_down", sg["zero_down"]) + f"""        zero__tile: {TILE([T, H], "FP32", "Vec")} = pl.tile.full([{T}, {H}], dtype=pl.FP32, value=0.0)
        down_gm__tile: {T_([T, H], "FP32")} = pl.tile.store(zero__tile, [0, 0], down_gm{s})
        return down_gm__tile
""")

        name = "mlp"
        params = sg[name]
        slot = max(T * IC * 4, T * NC * 4)
        aic = head("AIC", name + "_aic", params, ret=False) + split_attr + pipes(name, "AIC", slot) + f"""        for kb__idx_v0 in pl.range({H // KC}):
            k0__ssa_v0: pl.Scalar[pl.INDEX] = kb__idx_v0 * {KC}
            {ld("x__tile", "xn2_gm" + s, "0, k0__ssa_v0", [T, KC], "BF16", "Mat")}
            {ld("wg__tile", "w_gate" + s, "k0__ssa_v0, i0" + s, [KC, IC], "BF16", "Mat")}
            {ld("wu__tile", "w_up" + s, "k0__ssa_v0, i0" + s, [KC, IC], "BF16", "Mat")}
            {mv("x__tile_Left", "x__tile", [T, KC], "BF16", "Left")}
            {mv("wg__tile_Right", "wg__tile", [KC, IC], "BF16", "Right")}
            gate__tile: {TILE([T, IC], "FP32", "Acc")} = pl.tile.matmul(x__tile_Left, wg__tile_Right)
            pl.tile.tpush_to_aiv(gate__tile, split=1)
            {mv("wu__tile_Right", "wu__tile", [KC, IC], "BF16", "Right")}
            up__tile: {TILE([T, IC], "FP32", "Acc")} = pl.tile.matmul(x__tile_Left, wu__tile_Right)
            pl.tile.tpush_to_aiv(up__tile, split=1)
        h_bf16__tile_Left_mat: {TILE([T, IC], "BF16", "Mat")} = pl.tile.tpop_from_aiv(split=1)
        {mv("h_bf16__tile_Left", "h_bf16__tile_Left_mat", [T, IC], "BF16", "Left", True)}
        pl.system.tfree_to_aiv(h_bf16__tile_Left_mat)
        for db__idx_v0 in pl.range({H // NC}):
            d0__ssa_v0: pl.Scalar[pl.INDEX] = db__idx_v0 * {NC}
            {ld("wd__tile", "w_down" + s, "i0%s, d0__ssa_v0" % s, [IC, NC], "BF16", "Mat")}
            {mv("wd__tile_Right", "wd__tile", [IC, NC], "BF16", "Right")}
            down__tile: {TILE([T, NC], "FP32", "Acc")} = pl.tile.matmul(h_bf16__tile_Left, wd__tile_Right)
            pl.tile.tpush_to_aiv(down__tile, split=1)
"""
        aiv = head("AIV", name + "_aiv", params) + split_attr + pipes(name, "AIV", slot) + f"""        gate_acc__tile: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.full([{T2}, {IC}], dtype=pl.FP32, value=0.0)
        up_acc__tile: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.full([{T2}, {IC}], dtype=pl.FP32, value=0.0)
        for kb__idx_v0, (gate_acc__iter_v1, up_acc__iter_v1) in pl.range({H // KC}, init_values=(gate_acc__tile, up_acc__tile)):
            gate__tile_Vec: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.tpop_from_aic(split=1)
            gate_acc__tile_1: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.add(gate_acc__iter_v1, gate__tile_Vec)
            pl.system.tfree_to_aic(gate__tile_Vec)
            up__tile_Vec: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.tpop_from_aic(split=1)
            up_acc__tile_1: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.add(up_acc__iter_v1, up__tile_Vec)
            pl.system.tfree_to_aic(up__tile_Vec)
            gate_acc__rv_v2, up_acc__rv_v2 = pl.yield_(gate_acc__tile_1, up_acc__tile_1)
        t__tile: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.neg(gate_acc__rv_v2)
        t__tile_1: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.exp(t__tile)
        t__tile_2: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.adds(t__tile_1, 1.0)
        sigmoid__tile: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.recip(t__tile_2)
        t__tile_3: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.mul(gate_acc__rv_v2, sigmoid__tile)
        h__tile: {TILE([T2, IC], "FP32", "Vec")} = pl.tile.mul(t__tile_3, up_acc__rv_v2)
        h_bf16__tile: {TILE([T2, IC], "BF16", "Vec")} = pl.tile.cast(h__tile, target_type=pl.BF16, mode='round')
        pl.tile.tpush_to_aic(h_bf16__tile, split=1)
        for db__idx_v0, (down_gm__iter_v1,) in pl.range({H // NC}, init_values=(down_gm{s},)):
            d0__ssa_v0: pl.Scalar[pl.INDEX] = db__idx_v0 * {NC}
            {ld("down_prev__tile", "down_gm__iter_v1", lane + ", d0__ssa_v0", [T2, NC], "FP32", "Vec")}
            down__tile_Vec: {TILE([T2, NC], "FP32", "Vec")} = pl.tile.tpop_from_aic(split=1)
            down_next__tile: {TILE([T2, NC], "FP32", "Vec")} = pl.tile.add(down_prev__tile, down__tile_Vec)
            pl.system.tfree_to_aic(down__tile_Vec)
            down_gm__tile: {T_([T, H], "FP32")} = pl.tile.store(down_next__tile, [{lane}, d0__ssa_v0], down_gm__iter_v1)
            down_gm__rv_v2: {T_([T, H], "FP32")} = pl.yield_(down_gm__tile)
        return down_gm__rv_v2
"""
        out.append(aic + aiv + group(name))

        out.append(head("AIV", "final_resid", sg["final_resid"]) + f"""        {ld("resid1__tile", "resid1_gm" + s, "0, 0", [T, H], "FP32", "Vec")}
        {ld("down__tile", "down_gm" + s, "0, 0", [T, H], "FP32", "Vec")}
        t__tile: {TILE([T, H], "FP32", "Vec")} = pl.tile.add(resid1__tile, down__tile)
        out__tile: {T_([T, H], "FP32")} = pl.tile.store(t__tile, [0, 0], out{s})
        return out__tile
""")
        return "".join(out) + self.orchestration(s)

    # ---- data and golden ----
    def data(self):
        T, H, I, S, D, G = self.T, self.H, self.I, self.S, self.D, self.G
        KC, KVD = self.KC, self.KVD
        rng = np.random.RandomState(20261202)
        x = rng.standard_normal((T, H)).astype(F32)
        attn_norm_w = (1.0 + 0.1 * rng.standard_normal((1, H))).astype(F32)
        post_norm_w = (1.0 + 0.1 * rng.standard_normal((1, H))).astype(F32)

        def weight(shape, fan_in):
            return bf16_bits((rng.standard_normal(shape) / np.sqrt(fan_in)).astype(F32))
        wqkv = weight((H, self.QKV), H)
        k_cache_t = bf16_bits(rng.standard_normal((KVD, S)).astype(F32))
        v_cache = bf16_bits(rng.standard_normal((S, KVD)).astype(F32))
        wo = weight((H, H), H)
        w_gate = weight((H, I), H)
        w_up = weight((H, I), H)
        w_down = weight((I, H), I)

        def proj(a, w):
            """sum over K chunks (in order) of bf16-rounded partial products, fp32"""
            acc = np.zeros((a.shape[0], w.shape[1]), dtype=F32)
            for k0 in range(0, H, KC):
                acc = (acc + matmul_bf16(a[:, k0:k0 + KC], bf16_widen(w[k0:k0 + KC, :]))).astype(F32)
            return acc
        xn = rmsnorm_golden(x, attn_norm_w, H)
        qkv = proj(xn, wqkv)
        k_new = qkv[:, H:H + KVD].copy()
        v_new = qkv[:, H + KVD:].copy()
        kT, vc = bf16_widen(k_cache_t), bf16_widen(v_cache)
        attn = np.zeros((T, H), dtype=F32)
        for h in range(self.NH):
            kvh = h // G
            q = to_bf16(qkv[:, h * D:(h + 1) * D])
            sc = (matmul_bf16(q, kT[kvh * D:(kvh + 1) * D, :]) * F32(self.scale)).astype(F32)
            e = exp32((sc - sc.max(axis=-1, keepdims=True)).astype(F32))
            p = to_bf16((e / row_sum(e)).astype(F32))
            attn[:, h * D:(h + 1) * D] = to_bf16(matmul_bf16(p, vc[:, kvh * D:(kvh + 1) * D]))
        resid1 = (proj(attn, wo) + x).astype(F32)
        xn2 = rmsnorm_golden(resid1, post_norm_w, H)
        down = np.zeros((T, H), dtype=F32)
        wg, wu, wd = bf16_widen(w_gate), bf16_widen(w_up), bf16_widen(w_down)
        IC = self.IC
        for i0 in range(0, I, IC):
            gate = np.zeros((T, IC), dtype=F32)
            up = np.zeros((T, IC), dtype=F32)
            for k0 in range(0, H, KC):
                gate = (gate + matmul_bf16(xn2[:, k0:k0 + KC], wg[k0:k0 + KC, i0:i0 + IC])).astype(F32)
                up = (up + matmul_bf16(xn2[:, k0:k0 + KC], wu[k0:k0 + KC, i0:i0 + IC])).astype(F32)
            hb = to_bf16(silu_mul(gate, up))
            down = (down + matmul_bf16(hb, wd[i0:i0 + IC, :])).astype(F32)
        out = (resid1 + down).astype(F32)
        ins = [("x", x, "fp32", [T, H]), ("attn_norm_w", attn_norm_w, "fp32", [1, H]),
               ("wqkv", wqkv, "bf16", [H, self.QKV]), ("k_cache_t", k_cache_t, "bf16", [KVD, S]),
               ("v_cache", v_cache, "bf16", [S, KVD]), ("wo", wo, "bf16", [H, H]),
               ("post_norm_w", post_norm_w, "fp32", [1, H]), ("w_gate", w_gate, "bf16", [H, I]),
               ("w_up", w_up, "bf16", [H, I]), ("w_down", w_down, "bf16", [I, H])]
        outs = [("k_new", k_new, "fp32", [T, KVD]), ("v_new", v_new, "fp32", [T, KVD]),
                ("out", out, "fp32", [T, H])]
        return ins, outs

    def flops(self):
        T, H, I, S, D = self.T, self.H, self.I, self.S, self.D
        return 2 * T * H * self.QKV + self.NH * 2 * (2 * T * S * D) + 2 * T * H * H + 3 * 2 * T * H * I

    def gm_bytes(self):
        """The GM intermediates of a pass: xn, qkv, attn, resid1, xn2, down."""
        T, H = self.T, self.H
        return T * H * 2 + T * self.QKV * 4 + T * H * 2 + T * H * 4 + T * H * 2 + T * H * 4

    def live_bytes(self):
        """The GM intermediates plus the largest kernel's tiles (rmsnorm: x,
        x*x, its scratch, normed, ... about six [T, H] fp32 tiles)."""
        return self.gm_bytes() + self.T * self.H * 4 * 6


def gen_decode(out, T, H, I, NH, NKV, S):
    d = Decode(T, H, I, NH, NKV, S)
    ins, outs = d.data()
    write_case(os.path.join(out, "decode_%d_%d_%d_%d" % (T, H, I, S)), "DecodeLayer", "decode_layer",
               {"00_frontend": d.frontend(), "22_after_ExpandMixedKernel": d.mixed()},
               {"01_after_InlineFunctions": "00_frontend", "02_after_UnrollLoops": "00_frontend",
                "23_after_InjectGMPipeBuffer": "22_after_ExpandMixedKernel",
                "24_after_SplitVectorKernel": "22_after_ExpandMixedKernel",
                "25_after_StampTfreeSplit": "22_after_ExpandMixedKernel"},
               ins, outs, {"flops_per_pass": d.flops(), "gm_intermediate_bytes": d.gm_bytes(),
                           "live_tile_bytes": d.live_bytes()})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--tokens", type=int, default=128)
    ap.add_argument("--hidden", type=int, default=4096)
    ap.add_argument("--inter", type=int, default=11008)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--kv-heads", type=int, default=8)
    ap.add_argument("--cache", type=int, default=512)
    ap.add_argument("--cases", default="mlp,decode")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    for c in a.cases.split(","):
        if c == "mlp":
            gen_mlp(a.outdir, a.tokens, a.hidden, a.inter)
        elif c == "decode":
            gen_decode(a.outdir, a.tokens, a.hidden, a.inter, a.heads, a.kv_heads, a.cache)
        else:
            sys.exit("gen_scaled: unknown case %r (mlp, decode)" % c)


if __name__ == "__main__":
    main()
