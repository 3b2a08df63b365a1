#!/usr/bin/python3
"""Write the engine test cases of the historical miscompiles under tests/data/hist/.

Run with Debian's /usr/bin/python3 (numpy) from the repository root:

    /usr/bin/python3 scripts/gen_hist_cases.py

Two real PyPTO miscompiles (docs/historical.md), each as a pair of small case
folders of ours, written by hand in the form of PyPTO's dumps: the pass the fixed
compiler wrote (`*_fixed`) and the one the compiler without the fix wrote
(`*_buggy`, after the fixed text as the pass before it, for bisect and why;
nd_assemble: both after the real pass before, LowerCompositeOps's), inputs and the golden from numpy (the device's
value: no tolerance question, exact small integers). tests/cli/historical_engine.sh
asks bisect, --compare and why where each buggy copy first goes wrong.

- continue_phi: PyPTO #652 (fixed by 79a52f1c6): CtrlFlowTransform's else branch
  yields the loop's carry instead of the value it computed (out = x, golden 32 x).
  The answer: line 14, the branch's yield (op: another operand is handed over).
- continue_carry: the same bug with the real pass before it, UnrollLoops' `if i < 5:
  continue` (no if-yield there): the loop's carry after iteration 5 differs, and
  the answer is the statement that made it, line 14 (op).
- gm_race: PyPTO #1433 (fixed by 63614e60f): ExpandMixedKernel splits a kernel whose
  cube lane stores a GM scratch tensor that its vector lanes load, with no pipe
  between them. Under `--schedule aiv-first` (a legal interleaving) the vector lane
  loads before the cube lane stores. The answer: line 20, the load (lane/core: it
  reads before the other core's store, a race through global memory).
- nd_assemble: PyPTO #2405 (fixed by ec1baa88c): FlattenTileNdTo2D flattens a
  [4, 8, 16] tile to [32, 16] but leaves a tile.assemble's offset [2, 0, 0] at rank 3;
  the device reads it positionally (row 2, not row 16). The answer: line 10, the
  assemble (op: its offset operand differs; bisect compares it with the pass before,
  where the tile is still [4, 8, 16]: the same elements in row-major order).
"""

import os

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "tests", "data", "hist")
F32 = np.float32

CARRY_HEAD = '''# pypto.program: ContinueCarryProgram
import pypto.language as pl

@pl.program
class ContinueCarryProgram:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel_continue_carry(x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        x_0: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 8], [4, 8], target_memory=pl.Mem.Vec)
        for i, (x_iter_1,) in pl.range(10, init_values=(x_0,)):
'''
CARRY_TAIL = '''        out_1: pl.Tensor[[4, 8], pl.FP32] = pl.tile.store(x_iter, [0, 0], out)
        return out_1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        out: pl.Tensor[[4, 8], pl.FP32] = self.kernel_continue_carry(x, out)
        return out
'''
CONTINUE = CARRY_HEAD + '''            if i < 5:
                x_iter__phi_v0: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.yield_(x_iter_1)
            else:
                y: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.add(x_iter_1, x_iter_1)
                x_iter__phi_v0: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.yield_(%s)
            x_iter: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.yield_(x_iter__phi_v0)
''' + CARRY_TAIL

# the pass before CtrlFlowTransform in the real dumps (UnrollLoops): the
# loop's own `continue`, no if-yield and no phi
UNROLLED = CARRY_HEAD + '''            if i < 5:
                continue
            y: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.add(x_iter_1, x_iter_1)
            x_iter: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.yield_(y)
''' + CARRY_TAIL

RACE = '''# pypto.program: GmRaceProgram
import pypto.language as pl

@pl.program
class GmRaceProgram:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def fused_aic(x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], kv: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT, "split_aiv": True})
%s        x_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        w_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        x_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
        w_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, w_right)
        kv_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(t, [0, 0], kv)
%s    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def fused_aiv(x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], kv: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT, "split_aiv": True})
        subblock_idx: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
%s        for b, (out_iter,) in pl.range(16, init_values=(out,)):
            row: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(kv, [b, 0 + subblock_idx * 8], [1, 8], [1, 8], target_memory=pl.Mem.Vec)
            row_1: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.adds(row, 1.0)
            out_2: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(row_1, [b, 0 + subblock_idx * 8], out_iter)
            out_rv: pl.Tensor[[16, 16], pl.FP32] = pl.yield_(out_2)
        return out_rv
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def fused_group(x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], kv: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT, "split_aiv": True})
        self.fused_aic(x, w, kv, out)
        out_1: pl.Tensor[[16, 16], pl.FP32] = self.fused_aiv(x, w, kv, out)
        return out_1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def fused(self, x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        kv: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.create([16, 16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        out_1: pl.Tensor[[16, 16], pl.FP32] = self.fused_group(x, w, kv, out)
        return out_1
'''

ND_HEAD = '''# pypto.program: NdAssembleProgram
import pypto.language as pl

@pl.program
class NdAssembleProgram:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def main_incore_0(x__ssa_v0: pl.Tensor[[4, 8, 16], pl.FP32], out_0__ssa_v0: pl.Out[pl.Tensor[[4, 8, 16], pl.FP32]]) -> pl.Tensor[[4, 8, 16], pl.FP32]:
'''
ND_TAIL = '''        return out_0__ssa_v1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[4, 8, 16], pl.FP32], out_0__ssa_v0: pl.Out[pl.Tensor[[4, 8, 16], pl.FP32]]) -> pl.Tensor[[4, 8, 16], pl.FP32]:
        out_0__ssa_v1: pl.Tensor[[4, 8, 16], pl.FP32] = self.main_incore_0(x__ssa_v0, out_0__ssa_v0)
        return out_0__ssa_v1
'''
ND_3D = ND_HEAD + '''        page__ssa_v0: pl.Tile[[1, 8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([1, 8, 16], dtype=pl.FP32, value=1.0)
        acc__ssa_v0: pl.Tile[[4, 8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0, 0], [4, 8, 16], [4, 8, 16], target_memory=pl.Mem.Vec)
        acc2__ssa_v0: pl.Tile[[4, 8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.assemble(acc__ssa_v0, page__ssa_v0, [2, 0, 0])
        out_0__ssa_v1: pl.Tensor[[4, 8, 16], pl.FP32] = pl.tile.store(acc2__ssa_v0, [0, 0, 0], out_0__ssa_v0)
''' + ND_TAIL
ND_2D = ND_HEAD + '''        page__ssa_v0: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([8, 16], dtype=pl.FP32, value=1.0)
        acc__ssa_v0: pl.Tile[[32, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0, 0], [4, 8, 16], [4, 8, 16], target_memory=pl.Mem.Vec)
        acc2__ssa_v0: pl.Tile[[32, 16], pl.FP32, pl.Mem.Vec] = pl.tile.assemble(acc__ssa_v0, page__ssa_v0, %s)
        out_0__ssa_v1: pl.Tensor[[4, 8, 16], pl.FP32] = pl.tile.store(acc2__ssa_v0, [0, 0, 0], out_0__ssa_v0, [4, 8, 16])
''' + ND_TAIL

AIC_PIPE = ('''        c2v_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='c2v_slot_buffer', peer_func='fused_aiv')
        pl.system.aic_initialize_pipe(c2v_import, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
''')
AIC_PUSH = '''        pl.tile.tpush_to_aiv(t, split=0)
'''
AIV_POP = ('''        c2v_buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='c2v_slot_buffer', size=2048, base=-1)
        pl.system.aiv_initialize_pipe(c2v_buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        kv_gm_sync: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
        pl.system.tfree_to_aic(kv_gm_sync)
''')


def write_case(name, doc, files, entry, inputs, outputs):
    d = os.path.join(OUT, name)
    os.makedirs(os.path.join(d, "passes_dump"), exist_ok=True)
    for stem, program in files:
        with open(os.path.join(d, "passes_dump", stem + ".py"), "w") as f:
            f.write(program)
    man = ["# tests/data/hist/%s: %s" % (name, doc), "# Written by scripts/gen_hist_cases.py (docs/historical.md).",
           "entry: " + entry, "tolerance: {rtol: 0.001, atol: 0.001}", "inputs:"]
    for sub, items in (("in", inputs), ("out", outputs)):
        if sub == "out":
            man.append("outputs:")
        for n, arr in items:
            rel = "data/%s/%s.npy" % (sub, n)
            os.makedirs(os.path.join(d, "data", sub), exist_ok=True)
            np.save(os.path.join(d, rel), np.ascontiguousarray(arr.astype("<f4")), allow_pickle=False)
            man.append("  %s: {file: %s, dtype: fp32, shape: [%s]}" % (n, rel, ", ".join(str(s) for s in arr.shape)))
    with open(os.path.join(d, "ptodb.yaml"), "w") as f:
        f.write("\n".join(man) + "\n")


def main():
    x = (np.arange(32, dtype=F32).reshape(4, 8) % 7 - 3).astype(F32)
    # the buggy copy keeps the fixed program as the pass before it, so that
    # bisect and why (which compare a case's passes) have a passing pass
    fixed = [("03_after_CtrlFlowTransform", CONTINUE % "y")]
    buggy = [("02_after_CtrlFlowTransform_fixed", CONTINUE % "y"), ("03_after_CtrlFlowTransform", CONTINUE % "x_iter_1")]
    for side, files in (("fixed", fixed), ("buggy", buggy)):
        write_case("continue_phi_" + side, "PyPTO #652's CtrlFlowTransform output, %s compiler" % side,
                   files, "orchestrator", [("x", x)], [("out", x * 32)])
    # the same bug against the real pass before it (UnrollLoops' continue):
    # that pass has no if-yield, so the carry the loop hands on is compared
    fixed = [("02_after_UnrollLoops", UNROLLED), ("03_after_CtrlFlowTransform", CONTINUE % "y")]
    buggy = [("02_after_UnrollLoops", UNROLLED), ("03_after_CtrlFlowTransform", CONTINUE % "x_iter_1")]
    for side, files in (("fixed", fixed), ("buggy", buggy)):
        write_case("continue_carry_" + side, "PyPTO #652's UnrollLoops and CtrlFlowTransform output, %s compiler"
                   % side, files, "orchestrator", [("x", x)], [("out", x * 32)])
    xs = (np.arange(256, dtype=F32).reshape(16, 16) % 5 - 2).astype(F32)
    ws = (np.arange(256, dtype=F32).reshape(16, 16) % 3 - 1).astype(F32)
    golden = (xs @ ws + 1).astype(F32)
    fixed = [("22_after_ExpandMixedKernel", RACE % (AIC_PIPE, AIC_PUSH, AIV_POP))]
    buggy = [("21_after_ExpandMixedKernel_fixed", RACE % (AIC_PIPE, AIC_PUSH, AIV_POP)),
             ("22_after_ExpandMixedKernel", RACE % ("", "", ""))]
    for side, files in (("fixed", fixed), ("buggy", buggy)):
        write_case("gm_race_" + side, "PyPTO #1433's ExpandMixedKernel output, %s compiler" % side,
                   files, "fused", [("x", xs), ("w", ws)], [("out", golden)])
    x3 = (np.arange(512, dtype=F32).reshape(4, 8, 16) % 9 - 4).astype(F32)
    golden3 = x3.copy()
    golden3[2] = 1
    for side, offset in (("fixed", "[16, 0]"), ("buggy", "[2, 0, 0]")):
        write_case("nd_assemble_" + side, "PyPTO #2405's FlattenTileNdTo2D output, %s compiler" % side,
                   [("13_after_LowerCompositeOps", ND_3D), ("14_after_FlattenTileNdTo2D", ND_2D % offset)],
                   "main", [("x", x3)], [("out_0", golden3)])
    print("tests/data/hist: 8 cases")


if __name__ == "__main__":
    main()
