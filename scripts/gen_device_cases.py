#!/usr/bin/python3
"""Write the device-semantics test cases under tests/data/device/.

Run with Debian's /usr/bin/python3 (numpy) from the repository root:

    /usr/bin/python3 scripts/gen_device_cases.py

Each case is a small program of ours with one pattern where the device (PyPTO's
runtime and the PTO instruction set) computes otherwise than PyPTO's PyTorch
reference, or where the reference's checks stop a program the device runs. Its
golden is the device's value, derived here by hand with numpy from the source
cited beside it (never from ptodb). tests/cli/device_semantics.sh runs each:
`--batch` (device semantics) must pass, with the note its `expect` file names;
`--semantics=ref` must give what the expect file says the reference gives.

Every case folder holds passes_dump/00_frontend.py, data/in, data/out, a
ptodb.yaml manifest and `expect` (lines `device: PASS`, `ref: FAIL|PASS|REF-FAIL` (the verdict word of
the summary), `note: TEXT` (a "REF differs here" note the device run prints),
`line: TEXT` (any line it prints)). The seed is fixed: the script writes the same bytes every run.
"""

import os
import sys

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "tests", "data", "device")
F32 = np.float32


def bf16_bits(a):
    """fp32 array -> uint16 bf16 patterns, round to nearest, ties to even."""
    bits = np.ascontiguousarray(a, dtype=F32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_widen(bits):
    return (bits.astype(np.uint32) << 16).view(F32)


NP_DTYPE = {"fp32": "<f4", "fp16": "<f2", "bf16": "<u2", "int32": "<i4", "int64": "<i8", "int8": "|i1",
            "uint8": "|u1", "int16": "<i2"}


class Case:
    def __init__(self, name, doc, program, entry, tol=(0.05, 0.05), stem="00_frontend"):
        self.name, self.doc, self.program, self.entry, self.tol = name, doc, program, entry, tol
        self.stem = stem
        self.inputs, self.outputs, self.expect = [], [], []

    def inp(self, name, dtype, arr):
        self.inputs.append((name, dtype, arr))

    def out(self, name, dtype, arr):
        self.outputs.append((name, dtype, arr))

    def write(self):
        d = os.path.join(OUT, self.name)
        os.makedirs(os.path.join(d, "passes_dump"), exist_ok=True)
        with open(os.path.join(d, "passes_dump", self.stem + ".py"), "w") as f:
            f.write(self.program.lstrip("\n"))
        man = ["# tests/data/device/%s: %s" % (self.name, self.doc[0]),
               "# Written by scripts/gen_device_cases.py; the golden is the device's value:"]
        man += ["#   " + line for line in self.doc[1:]]
        man += ["entry: " + self.entry,
                "tolerance: {rtol: %r, atol: %r}" % self.tol, "inputs:" if self.inputs else "inputs: {}"]
        for sub, items in (("in", self.inputs), ("out", self.outputs)):
            if sub == "out":
                man.append("outputs:")
            for name, dtype, arr in items:
                rel = "data/%s/%s.npy" % (sub, name)
                path = os.path.join(d, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                np.save(path, np.ascontiguousarray(arr.astype(NP_DTYPE[dtype])), allow_pickle=False)
                man.append("  %s: {file: %s, dtype: %s, shape: [%s]}"
                           % (name, rel, dtype, ", ".join(str(s) for s in arr.shape)))
        with open(os.path.join(d, "ptodb.yaml"), "w") as f:
            f.write("\n".join(man) + "\n")
        with open(os.path.join(d, "expect"), "w") as f:
            f.write("\n".join(self.expect) + "\n")


def matmul_f32(a, b):
    """The cube's FP32 matmul of FP32 operands: an FP32 running sum from +0 in k
    order, one fma per k (pto-isa cd4a3d3f include/pto/cpu/TMatmul.hpp:61-74),
    modelled as float64 products added into a float32 sum (these cases' tolerance,
    5e-2, is far above the rounding of either)."""
    acc = np.zeros((a.shape[0], b.shape[1]), dtype=F32)
    for k in range(a.shape[1]):
        acc = (acc.astype(np.float64) + np.outer(a[:, k], b[k, :]).astype(np.float64)).astype(F32)
    return acc


def ab_inputs(c, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((16, 16)).astype(F32)
    b = rng.standard_normal((16, 16)).astype(F32)
    c.inp("a", "fp32", a)
    c.inp("b", "fp32", b)
    return a, b



MM_KERNEL = """        a_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        b_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        a_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
        b_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, b_right)
"""

CASES = []

PREDICATED_SCOPE_PROGRAM = '''
# pypto.program: ScopePredicatedDispatchProgram
import pypto.language as pl

@pl.program
class ScopePredicatedDispatchProgram:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def clobber(x__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 16], dtype=pl.FP32, value=999.0)
        return pl.tile.store(t__ssa_v0, [0, 0], x__ssa_v0)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def consumer(x__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        return pl.tile.store(t__ssa_v0, [0, 0], out__ssa_v0)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def x_producer(x__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 16], dtype=pl.FP32, value=42.0)
        return pl.tile.store(t__ssa_v0, [0, 0], x__ssa_v0)
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]], gate__ssa_v0: pl.Tensor[[16, 16], pl.INT32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.spmd(1) as xp_tid__ssa_v0:
            x__ssa_v1: pl.Tensor[[16, 16], pl.FP32] = self.x_producer(x__ssa_v0)
        # Predicated clobber authored as a scope: the predicate rides on the
        # SpmdScopeStmt and is moved onto the Submit by the outliner.
        # ``gate`` is a host-initialised input with no in-function producer,
        # so ``deps=[xp_tid]`` covers the operand ordering requirement.
        with pl.spmd(1, deps=[xp_tid__ssa_v0], predicate=(pl.cast(pl.tensor.read(gate__ssa_v0, [0, 0]), pl.INDEX) > 0)) as clobber_tid__ssa_v0:
            x__ssa_v2: pl.Tensor[[16, 16], pl.FP32] = self.clobber(x__ssa_v1)
        with pl.spmd(1, deps=[clobber_tid__ssa_v0]) as ___ssa_v0:
            out__ssa_v1: pl.Tensor[[16, 16], pl.FP32] = self.consumer(x__ssa_v2, out__ssa_v0)
        return out__ssa_v1
'''

MATMUL_ACC_WINDOW_PROGRAM = '''
# pypto.program: MatmulAccWindowProgram
import pypto.language as pl

@pl.program
class MatmulAccWindowProgram:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def matmul_acc_window(a: pl.Tensor[[16, 128], pl.FP32], b: pl.Tensor[[128, 128], pl.FP32], c: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        acc: pl.Tile[[16, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for t in pl.range(2):
            for k0 in pl.range(0, 128, 64):
                a_l1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, k0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
                b_l1: pl.Tile[[64, 64], pl.FP32, pl.Mem.Mat] = pl.tile.load(b, [k0, t * 64], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
                a_l0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Left] = pl.tile.move(a_l1, target_memory=pl.Mem.Left)
                b_l0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Right] = pl.tile.move(b_l1, target_memory=pl.Mem.Right)
                # Column window: spans the parent's full row extent, so it
                # is contiguous in L0C and legal as a MAD destination.
                win: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.slice(acc, [16, 64], [0, t * 64])
                win: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(win, a_l0, b_l0, k0 == 0)
        out_c: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(acc, [0, 0], c)
        return out_c
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, a: pl.Tensor[[16, 128], pl.FP32], b: pl.Tensor[[128, 128], pl.FP32], out_c: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        out_c: pl.Tensor[[16, 128], pl.FP32] = self.matmul_acc_window(a, b, out_c)
        return out_c
'''

MATMUL_ACC_INIT_PROGRAM = '''
# pypto.program: MatmulAccInitCondProgram
import pypto.language as pl

@pl.program
class MatmulAccInitCondProgram:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def matmul_acc_split_k(a__ssa_v0: pl.Tensor[[32, 128], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 16384)], b__ssa_v0: pl.Tensor[[128, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 32768)], c__ssa_v0: pl.Out[pl.Tensor[[32, 64], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 8192)]]) -> pl.Tensor[[32, 64], pl.FP32]:
        mem_acc_3: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 8192)
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 4096)
        mem_mat_5: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 8192)
        mem_left_6: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 4096)
        mem_right_7: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 8192)
        acc__ssa_v0: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_acc_3, pl.const(0, pl.INT64), 8192), pl.Mem.Acc] = pl.tile.create([32, 64], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for k0__idx_v0, (acc__iter_v1,) in pl.range(0, 128, 32, init_values=(acc__ssa_v0,)):
            a_l1__ssa_v0: pl.Tile[[32, 32], pl.FP32, pl.MemRef(mem_mat_4, pl.const(0, pl.INT64), 4096), pl.Mem.Mat] = pl.tile.load(a__ssa_v0, [0, k0__idx_v0], [32, 32], [32, 32], target_memory=pl.Mem.Mat)
            b_l1__ssa_v0: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_mat_5, pl.const(0, pl.INT64), 8192), pl.Mem.Mat] = pl.tile.load(b__ssa_v0, [k0__idx_v0, 0], [32, 64], [32, 64], target_memory=pl.Mem.Mat)
            a_l0__ssa_v0: pl.Tile[[32, 32], pl.FP32, pl.MemRef(mem_left_6, pl.const(0, pl.INT64), 4096), pl.Mem.Left] = pl.tile.move(a_l1__ssa_v0, target_memory=pl.Mem.Left)
            b_l0__ssa_v0: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_right_7, pl.const(0, pl.INT64), 8192), pl.Mem.Right] = pl.tile.move(b_l1__ssa_v0, target_memory=pl.Mem.Right)
            acc__ssa_v3: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_acc_3, pl.const(0, pl.INT64), 8192), pl.Mem.Acc] = pl.tile.matmul_acc(acc__iter_v1, a_l0__ssa_v0, b_l0__ssa_v0, k0__idx_v0 == 0)
            acc__rv_v2: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_acc_3, pl.const(0, pl.INT64), 8192), pl.Mem.Acc] = pl.yield_(acc__ssa_v3)
        out_c__ssa_v0: pl.Tensor[[32, 64], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 8192)] = pl.tile.store(acc__rv_v2, [0, 0], c__ssa_v0)
        return c__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, a__ssa_v0: pl.Tensor[[32, 128], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 16384)], b__ssa_v0: pl.Tensor[[128, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 32768)], out_c__ssa_v0: pl.Out[pl.Tensor[[32, 64], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 8192)]]) -> pl.Tensor[[32, 64], pl.FP32]:
        out_c__ssa_v1: pl.Tensor[[32, 64], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 8192)] = self.matmul_acc_split_k(a__ssa_v0, b__ssa_v0, out_c__ssa_v0)
        return out_c__ssa_v1
'''

PRELU_TMP_950_PROGRAM = '''
# pypto.program: PreluProgram
import pypto.language as pl

@pl.program
class PreluProgram:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def kernel(src__ssa_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 1024)], slope__ssa_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 1024)], tmp_in__ssa_v0: pl.Tensor[[2, 32], pl.UINT8, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 64)], out__ssa_v0: pl.InOut[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 1024)]]) -> pl.Tensor[[1, 256], pl.FP32]:
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        src_tile__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.load(src__ssa_v0, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        slope_tile__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_5, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.load(slope__ssa_v0, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        tmp__ssa_v0: pl.Tile[[2, 32], pl.UINT8, pl.MemRef(mem_vec_7, pl.const(0, pl.INT64), 1024), pl.Mem.Vec, pl.TileView(valid_shape=[1, 32])] = pl.tile.load(tmp_in__ssa_v0, [0, 0], [2, 32], [1, 32], target_memory=pl.Mem.Vec)
        result__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.prelu(src_tile__ssa_v0, slope_tile__ssa_v0, tmp__ssa_v0)
        out__ssa_v1: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 1024)] = pl.tile.store(result__ssa_v0, [0, 0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, src__ssa_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 1024)], slope__ssa_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 1024)], tmp_in__ssa_v0: pl.Tensor[[2, 32], pl.UINT8, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 64)], out__ssa_v0: pl.InOut[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 1024)]]) -> pl.Tensor[[1, 256], pl.FP32]:
        out__ssa_v1: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_4", pl.const(0, pl.INT64), 1024)] = self.kernel(src__ssa_v0, slope__ssa_v0, tmp_in__ssa_v0, out__ssa_v0)
        return out__ssa_v1
'''

PREDICATED_SUBMIT_PROGRAM = '''
# pypto.program: PredicatedDispatchProgram
import pypto.language as pl

@pl.program
class PredicatedDispatchProgram:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def clobber(x: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        # Overwrites X wholesale with POISON. Runs only when the predicate holds.
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 16], dtype=pl.FP32, value=999.0)
        return pl.tile.store(t, [0, 0], x)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def consumer(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        return pl.tile.store(t, [0, 0], out)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def x_producer(x: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 16], dtype=pl.FP32, value=42.0)
        return pl.tile.store(t, [0, 0], x)
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Out[pl.Tensor[[16, 16], pl.FP32]], gate: pl.Tensor[[16, 16], pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            _submit_tmp: pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.x_producer, x, core_num=1)
            x: pl.Tensor[[16, 16], pl.FP32] = _submit_tmp[0]
            xp_tid: pl.Scalar[pl.TASK_ID] = _submit_tmp[1]
            # Predicated clobber: reads gate[0, 0] at the dispatch point.
            _submit_tmp_1: pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.clobber, x, deps=[xp_tid], core_num=1, predicate=(pl.cast(pl.tensor.read(gate, [0, 0]), pl.INDEX) > 0))
            x: pl.Tensor[[16, 16], pl.FP32] = _submit_tmp_1[0]
            clobber_tid: pl.Scalar[pl.TASK_ID] = _submit_tmp_1[1]
            # Consumer depends on the clobber TaskId even when the clobber is
            # predicate-skipped — the retired task still settles fanout.
            _submit_tmp_2: pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.consumer, x, out, deps=[clobber_tid], core_num=1)
            out: pl.Tensor[[16, 16], pl.FP32] = _submit_tmp_2[0]
            _: pl.Scalar[pl.TASK_ID] = _submit_tmp_2[1]
        return out
'''


# PyPTO's own dumps of tests/st/runtime/ops/test_matmul_acc_init_cond.py's window
# program (TestMatmulAccWindowInitCond, PyPTO e2d0f78ae) after InitMemRef and
# AllocateMemoryAddr: the window's MemRef offset is an ND byte offset (t * 64 * 4)
# at 32, folded to 0 at 35; neither is where the device's pto.subview sits.
MATMUL_ACC_WINDOW_32_PROGRAM = '''
# pypto.program: MatmulAccWindowProgram
import pypto.language as pl

@pl.program
class MatmulAccWindowProgram:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def matmul_acc_window(a__ssa_v0: pl.Tensor[[16, 128], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 8192)], b__ssa_v0: pl.Tensor[[128, 128], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 65536)], c__ssa_v0: pl.Out[pl.Tensor[[16, 128], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 8192)]]) -> pl.Tensor[[16, 128], pl.FP32]:
        mem_acc_3: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 8192)
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 4096)
        mem_mat_5: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 16384)
        mem_left_6: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 4096)
        mem_right_7: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 16384)
        acc__ssa_v0: pl.Tile[[16, 128], pl.FP32, pl.MemRef(mem_acc_3, pl.const(0, pl.INT64), 8192), pl.Mem.Acc] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for t__idx_v0 in pl.range(2):
            for k0__idx_v0 in pl.range(0, 128, 64):
                a_l1__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_mat_4, pl.const(0, pl.INT64), 4096), pl.Mem.Mat] = pl.tile.load(a__ssa_v0, [0, k0__idx_v0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
                b_l1__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_mat_5, pl.const(0, pl.INT64), 16384), pl.Mem.Mat] = pl.tile.load(b__ssa_v0, [k0__idx_v0, t__idx_v0 * 64], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
                a_l0__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_left_6, pl.const(0, pl.INT64), 4096), pl.Mem.Left] = pl.tile.move(a_l1__ssa_v0, target_memory=pl.Mem.Left)
                b_l0__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_right_7, pl.const(0, pl.INT64), 16384), pl.Mem.Right] = pl.tile.move(b_l1__ssa_v0, target_memory=pl.Mem.Right)
                win__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_acc_3, t__idx_v0 * 64 * 4, 7936), pl.Mem.Acc] = pl.tile.slice(acc__ssa_v0, [16, 64], [0, t__idx_v0 * 64])
                win__ssa_v1: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_acc_3, t__idx_v0 * 64 * 4, 7936), pl.Mem.Acc] = pl.tile.matmul_acc(win__ssa_v0, a_l0__ssa_v0, b_l0__ssa_v0, k0__idx_v0 == 0)
        out_c__ssa_v0: pl.Tensor[[16, 128], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 8192)] = pl.tile.store(acc__ssa_v0, [0, 0], c__ssa_v0)
        return c__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, a__ssa_v0: pl.Tensor[[16, 128], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 8192)], b__ssa_v0: pl.Tensor[[128, 128], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 65536)], out_c__ssa_v0: pl.Out[pl.Tensor[[16, 128], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 8192)]]) -> pl.Tensor[[16, 128], pl.FP32]:
        out_c__ssa_v1: pl.Tensor[[16, 128], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 8192)] = self.matmul_acc_window(a__ssa_v0, b__ssa_v0, out_c__ssa_v0)
        return out_c__ssa_v1
'''

# AllocateMemoryAddr gives b_l1 its address and folds the window's offset to 0
MATMUL_ACC_WINDOW_35_PROGRAM = MATMUL_ACC_WINDOW_32_PROGRAM.replace(
    "MemRef(mem_mat_5, pl.const(0, pl.INT64), 16384)", "MemRef(mem_mat_5, pl.const(4096, pl.INT64), 16384)").replace(
    "MemRef(mem_acc_3, t__idx_v0 * 64 * 4, 7936)", "MemRef(mem_acc_3, pl.const(0, pl.INT64), 7936)")


def case(fn):
    CASES.append(fn)
    return fn


@case
def pad_value():
    """fillpad with PadValue.max/min on FP32 and FP16 tiles: +-inf."""
    prog = '''
# pypto.program: PadValueCase
import pypto.language as pl

@pl.program
class PadValueCase:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def pad_value(self, x: pl.Tensor[[16, 16], pl.FP32], h: pl.Tensor[[16, 16], pl.FP16], out_max: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_min: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_h: pl.Out[pl.Tensor[[16, 16], pl.FP16]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[16, 8])] = pl.tile.load(x, [0, 0], [16, 16], [16, 8], target_memory=pl.Mem.Vec)
            hi: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(pad=pl.PadValue.max)] = pl.tile.fillpad(t, pad_value=pl.PadValue.max)
            pl.tile.store(hi, [0, 0], out_max)
            lo: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(pad=pl.PadValue.min)] = pl.tile.fillpad(t, pad_value=pl.PadValue.min)
            pl.tile.store(lo, [0, 0], out_min)
            th: pl.Tile[[16, 16], pl.FP16, pl.Mem.Vec, pl.TileView(valid_shape=[16, 8])] = pl.tile.load(h, [0, 0], [16, 16], [16, 8], target_memory=pl.Mem.Vec)
            hh: pl.Tile[[16, 16], pl.FP16, pl.Mem.Vec, pl.TileView(pad=pl.PadValue.max)] = pl.tile.fillpad(th, pad_value=pl.PadValue.max)
            pl.tile.store(hh, [0, 0], out_h)
        return out_max
'''
    c = Case("pad_value", [
        "fillpad(PadValue.max/min) of a [16, 8]-valid tile of [16, 16]",
        "columns 0..7 are x's, columns 8..15 +inf (max) or -inf (min), FP32 and FP16:",
        "pto-isa cd4a3d3f include/pto/common/constants.hpp:303-310 (PadValueMap<float,",
        "Min/Max> = 0xff800000/0x7f800000), :373-384 (half: 0xfc00/0x7c00); PyPTO's",
        "tests/st/runtime/ops/test_fillpad.py:212 expects -inf the same way."],
        prog, "pad_value")
    rng = np.random.default_rng(1)
    x = rng.standard_normal((16, 16)).astype(F32)
    h = rng.standard_normal((16, 16)).astype(np.float16)
    c.inp("x", "fp32", x)
    c.inp("h", "fp16", h)
    hi = x.copy(); hi[:, 8:] = np.inf
    lo = x.copy(); lo[:, 8:] = -np.inf
    hh = h.copy(); hh[:, 8:] = np.inf
    c.out("out_max", "fp32", hi)
    c.out("out_min", "fp32", lo)
    c.out("out_h", "fp16", hh)
    # REF pads with torch.finfo's extremes: |inf - 3.4e38| is inf, it fails
    c.expect = ["device: PASS", "ref: FAIL",
                "note: PadValue.min/max pads a float tile with -inf/+inf"]
    return c


@case
def cube_accumulation():
    """A BF16 x BF16 tile.matmul into an FP32 accumulator, compared bit for bit."""
    prog = '''
# pypto.program: CubeAccumulation
import pypto.language as pl

@pl.program
class CubeAccumulation:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def cube_accumulation(self, a: pl.Tensor[[16, 32], pl.BF16], b: pl.Tensor[[32, 16], pl.BF16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            a_l1: pl.Tile[[16, 32], pl.BF16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 32], [16, 32], target_memory=pl.Mem.Mat)
            b_l1: pl.Tile[[32, 16], pl.BF16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [32, 16], [32, 16], target_memory=pl.Mem.Mat)
            a_l0a: pl.Tile[[16, 32], pl.BF16, pl.Mem.Left] = pl.tile.move(a_l1, target_memory=pl.Mem.Left)
            b_l0b: pl.Tile[[32, 16], pl.BF16, pl.Mem.Right] = pl.tile.move(b_l1, target_memory=pl.Mem.Right)
            c_l0c: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_l0a, b_l0b)
            pl.tile.store(c_l0c, [0, 0], c)
        return c
'''
    c = Case("cube_accumulation", [
        "BF16 [16, 32] x BF16 [32, 16] -> FP32 on the cube, tolerance 0 (bit for bit)",
        "per element an FP32 running sum from +0 in k order of the exact products",
        "(pto-isa cd4a3d3f include/pto/cpu/TMatmul.hpp:61-74: mul_acc = fma(a, b,",
        "mul_acc) in float; a BF16 product is exact in FP32), never rounded to BF16."],
        prog, "cube_accumulation", tol=(0.0, 0.0))
    rng = np.random.default_rng(2)
    a = bf16_bits(rng.standard_normal((16, 32)).astype(F32))
    b = bf16_bits(rng.standard_normal((32, 16)).astype(F32))
    A, B = bf16_widen(a), bf16_widen(b)
    acc = np.zeros((16, 16), dtype=F32)
    for k in range(32):  # float32 adds, k in order; each product exact in float32
        acc = (acc + (A[:, k:k + 1] * B[k:k + 1, :]).astype(F32)).astype(F32)
    rounded = bf16_widen(bf16_bits(acc))
    if np.array_equal(rounded, acc):
        sys.exit("gen_device_cases: cube_accumulation: BF16 rounding changes nothing; pick other data")
    c.inp("a", "bf16", a)
    c.inp("b", "bf16", b)
    c.out("c", "fp32", acc)
    c.expect = ["device: PASS", "ref: FAIL",
                "note: the cube accumulates a BF16/FP16 matmul in FP32"]
    return c


@case
def ci_uint32():
    """tensor.ci with dtype UINT32, stored into an INT64-held output."""
    prog = '''
# pypto.program: CiUint32
import pypto.language as pl

@pl.program
class CiUint32:
    @pl.function
    def ci_uint32(self, x: pl.Tensor[[1, 16], pl.FP32], out: pl.Out[pl.Tensor[[1, 16], pl.UINT32]]) -> pl.Tensor[[1, 16], pl.UINT32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            idx: pl.Tensor[[1, 16], pl.UINT32] = pl.tensor.ci(pl.cast(4294967290, pl.UINT32), [1, 16], dtype=pl.UINT32, descending=False)
            out: pl.Tensor[[1, 16], pl.UINT32] = pl.tensor.assemble(out, idx, [0, 0])
        return out
'''
    c = Case("ci_uint32", [
        "tensor.ci(start=2^32 - 6, [1, 16], dtype=UINT32): start + k for each column,",
        "wrapping at 2^32 (PyPTO accepts INT16/INT32/UINT16/UINT32: src/ir/op/tensor_ops/",
        "memory.cpp:636-638; pto-isa cd4a3d3f include/pto/cpu/TCI.hpp:19-27, dst = start + j",
        "in the tile's dtype). UINT32 data is held as int64, as torch_codegen's _DTYPE_MAP."],
        prog, "ci_uint32", tol=(0.0, 0.0))
    c.inp("x", "fp32", np.zeros((1, 16), dtype=F32))
    start = 2**32 - 6
    c.out("out", "int64", np.array([[(start + k) % 2**32 for k in range(16)]], dtype=np.int64))
    # torch_codegen has no handler for tensor.ci: the reference cannot run it
    c.expect = ["device: PASS", "ref: REF-FAIL"]
    return c


@case
def nan_dont_care():
    """A golden NaN element is "don't care", as PyPTO's device runner compares."""
    prog = '''
# pypto.program: NanDontCare
import pypto.language as pl

@pl.program
class NanDontCare:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def nan_dont_care(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 16])] = pl.tile.load(a, [0, 0], [16, 16], [8, 16], target_memory=pl.Mem.Vec)
            d: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 16])] = pl.tile.add(t, t)
            pl.tile.store(d, [0, 0], out)
        return out
'''
    c = Case("nan_dont_care", [
        "out[:8] = 2a[:8]; rows 8..15 are left undefined by the kernel, the golden",
        "marks them NaN: pypto python/pypto/runtime/device_runner.py:850-895",
        "(validate_golden: care_mask = ~isnan(expected)) skips them. REF's torch.allclose",
        "does not: a NaN golden element never matches."],
        prog, "nan_dont_care")
    rng = np.random.default_rng(3)
    a = rng.standard_normal((16, 16)).astype(F32)
    g = np.full((16, 16), np.nan, dtype=F32)
    g[:8] = (a[:8] + a[:8]).astype(F32)
    c.inp("a", "fp32", a)
    c.out("out", "fp32", g)
    c.expect = ["device: PASS", "ref: FAIL", "line: don't care: 128 of 256 golden elements are NaN"]
    return c


@case
def tensor_valid_assemble():
    """tensor.assemble of a tensor whose TensorView declares a narrower valid shape."""
    prog = '''
# pypto.program: TensorValidAssemble
import pypto.language as pl

@pl.program
class TensorValidAssemble:
    @pl.function
    def main(self, lhs: pl.Tensor[[16, 8], pl.FP32], rhs: pl.Tensor[[16, 8], pl.FP32], output: pl.Out[pl.Tensor[[16, 4], pl.FP32]]) -> pl.Tensor[[16, 4], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            lhs_narrow: pl.Tensor[[16, 8], pl.FP32, pl.TensorView(valid_shape=[16, 4], stride=[], layout=pl.TensorLayout.ND)] = pl.tensor.set_validshape(lhs, 16, 4)
            rhs_narrow: pl.Tensor[[16, 8], pl.FP32, pl.TensorView(valid_shape=[16, 4], stride=[], layout=pl.TensorLayout.ND)] = pl.tensor.set_validshape(rhs, 16, 4)
            summed: pl.Tensor[[16, 8], pl.FP32, pl.TensorView(valid_shape=[16, 4], stride=[], layout=pl.TensorLayout.ND)] = pl.tensor.add(lhs_narrow, rhs_narrow)
            output: pl.Tensor[[16, 4], pl.FP32] = pl.tensor.assemble(output, summed, [0, 0])
        return output
'''
    c = Case("tensor_valid_assemble", [
        "output[16, 4] = (lhs + rhs)[:, :4]: the sum's TensorView declares valid [16, 4] of",
        "[16, 8], and assemble writes that region (ConvertTensorToTileOps lowers it to a",
        "tile.store of the valid region: pto-isa docs/isa/tile/ops/memory-and-data-movement/",
        "tstore.md, GetValidRow x GetValidCol). From PyPTO's tests/st/runtime/control_flow/",
        "test_assemble_narrow_valid.py (its pattern, our data)."],
        prog, "main")
    rng = np.random.default_rng(4)
    lhs = rng.standard_normal((16, 8)).astype(F32)
    rhs = rng.standard_normal((16, 8)).astype(F32)
    c.inp("lhs", "fp32", lhs)
    c.inp("rhs", "fp32", rhs)
    c.out("output", "fp32", (lhs + rhs).astype(F32)[:, :4].copy())
    c.expect = ["device: PASS", "ref: REF-FAIL"]
    return c


@case
def cast_mode():
    """Float-to-integer casts round by their mode=, as TCVT does."""
    prog = '''
# pypto.program: CastMode
import pypto.language as pl

@pl.program
class CastMode:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def cast_mode(self, x: pl.Tensor[[8, 16], pl.FP32], o_rint: pl.Out[pl.Tensor[[8, 16], pl.INT32]], o_round: pl.Out[pl.Tensor[[8, 16], pl.INT32]], o_floor: pl.Out[pl.Tensor[[8, 16], pl.INT32]], o_ceil: pl.Out[pl.Tensor[[8, 16], pl.INT32]], o_trunc: pl.Out[pl.Tensor[[8, 16], pl.INT32]]) -> pl.Tensor[[8, 16], pl.INT32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
            a: pl.Tile[[8, 16], pl.INT32, pl.Mem.Vec] = pl.tile.cast(t, target_type=pl.INT32, mode='rint')
            pl.tile.store(a, [0, 0], o_rint)
            b: pl.Tile[[8, 16], pl.INT32, pl.Mem.Vec] = pl.tile.cast(t, target_type=pl.INT32, mode='round')
            pl.tile.store(b, [0, 0], o_round)
            c: pl.Tile[[8, 16], pl.INT32, pl.Mem.Vec] = pl.tile.cast(t, target_type=pl.INT32, mode='floor')
            pl.tile.store(c, [0, 0], o_floor)
            d: pl.Tile[[8, 16], pl.INT32, pl.Mem.Vec] = pl.tile.cast(t, target_type=pl.INT32, mode='ceil')
            pl.tile.store(d, [0, 0], o_ceil)
            e: pl.Tile[[8, 16], pl.INT32, pl.Mem.Vec] = pl.tile.cast(t, target_type=pl.INT32, mode='trunc')
            pl.tile.store(e, [0, 0], o_trunc)
        return o_rint
'''
    c = Case("cast_mode", [
        "FP32 -> INT32 by mode= written as a name, as the dumps write it: rint = nearest,",
        "ties to even; round = nearest, ties away from zero; floor; ceil; trunc (pto-isa",
        "cd4a3d3f include/pto/cpu/TCvt.hpp:66-100, then the conversion). Data: every x.5",
        "tie from -4.5 to 4.5 and values near them."],
        prog, "cast_mode", tol=(0.0, 0.0))
    vals = [k + 0.5 for k in range(-5, 5)] + [-2.49, 2.51, -0.5001, 0.4999, 300.7, -300.2]
    rng = np.random.default_rng(5)
    x = np.concatenate([np.array(vals, dtype=F32), (rng.standard_normal(128 - len(vals)) * 40).astype(F32)])
    x = x.reshape(8, 16)
    xd = x.astype(np.float64)
    c.inp("x", "fp32", x)
    c.out("o_rint", "int32", np.rint(xd).astype(np.int32))
    c.out("o_round", "int32", (np.sign(xd) * np.floor(np.abs(xd) + 0.5)).astype(np.int32))
    c.out("o_floor", "int32", np.floor(xd).astype(np.int32))
    c.out("o_ceil", "int32", np.ceil(xd).astype(np.int32))
    c.out("o_trunc", "int32", np.trunc(xd).astype(np.int32))
    c.expect = ["device: PASS", "ref: FAIL", "note: TCVT rounds a float to an integer by the cast's mode"]
    return c


@case
def assemble_into_create():
    """Rows assembled one by one into a fresh tile.create fill it: a write."""
    prog = '''
# pypto.program: AssembleIntoCreate
import pypto.language as pl

@pl.program
class AssembleIntoCreate:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def fill_rows(x__ssa_v0: pl.Tensor[[4, 64], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[4, 64], pl.FP32]]) -> pl.Tensor[[4, 64], pl.FP32]:
        x__tile: pl.Tile[[4, 64], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [4, 64], [4, 64], target_memory=pl.Mem.Vec)
        acc_init: pl.Tile[[4, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.create([4, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for r, (acc_iter,) in pl.range(4, init_values=(acc_init,)):
            row: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_0, r * 64 * 4, 256), pl.Mem.Vec] = pl.tile.slice(x__tile, [1, 64], [r, 0], [1, 64])
            twice: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.add(row, row)
            acc_next: pl.Tile[[4, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.assemble(acc_iter, twice, [r, 0])
            acc_rv: pl.Tile[[4, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.yield_(acc_next)
        out__ssa_v1: pl.Tensor[[4, 64], pl.FP32] = pl.tile.store(acc_rv, [0, 0], out__ssa_v0)
        return out__ssa_v1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[4, 64], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[4, 64], pl.FP32]]) -> pl.Tensor[[4, 64], pl.FP32]:
        out__ssa_v1: pl.Tensor[[4, 64], pl.FP32] = self.fill_rows(x__ssa_v0, out__ssa_v0)
        return out__ssa_v1
'''
    c = Case("assemble_into_create", [
        "out = 2x, row by row: each tile.assemble writes one row of a fresh tile.create in",
        "place (a copy into a pto.subview of the destination: pypto src/backend/common/",
        "pto_ops_datamove.cpp:76-130; an in-place input-0 op: src/codegen/pto/pto_codegen.cpp:",
        "411-413), so the target's unwritten rows are not read; the store reads all four, by",
        "then written. The memory sanitizer runs (an InitMemRef pass): no fault, PASS."],
        prog, "main", stem="32_after_InitMemRef")
    rng = np.random.default_rng(6)
    x = rng.standard_normal((4, 64)).astype(F32)
    c.inp("x", "fp32", x)
    c.out("out", "fp32", (x + x).astype(F32))
    c.expect = ["device: PASS", "ref: PASS"]
    return c


@case
def fillpad_inplace():
    """fillpad_inplace's result is the whole tile: a store of it writes the padding."""
    prog = '''
# pypto.program: FillpadInplace
import pypto.language as pl

@pl.program
class FillpadInplace:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def pad_kernel(x: pl.Tensor[[12, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[12, 16])] = pl.tile.load(x, [0, 0], [16, 16], [12, 16], target_memory=pl.Mem.Vec)
        p: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(pad=pl.PadValue.min)] = pl.tile.fillpad_inplace(t, pad_value=pl.PadValue.min)
        o: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(p, [0, 0], out)
        return o
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[12, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out: pl.Tensor[[16, 16], pl.FP32] = self.pad_kernel(x, out)
        return out
'''
    c = Case("fillpad_inplace", [
        "out = x's 12 rows, then 4 rows of -inf: fillpad_inplace pads outside the valid",
        "region and its result's valid shape is the whole tile (pypto src/ir/op/tile_ops/",
        "elementwise.cpp:1335-1339), so the store writes all 16 rows; -inf is PadValueMap",
        "<float, Min> (pto-isa cd4a3d3f include/pto/common/constants.hpp:303-305). PyPTO's",
        "tests/st/runtime/ops/test_fillpad_inplace.py expects the same."],
        prog, "main")
    rng = np.random.default_rng(7)
    x = rng.standard_normal((12, 16)).astype(F32)
    g = np.full((16, 16), -np.inf, dtype=F32)
    g[:12] = x
    c.inp("x", "fp32", x)
    c.out("out", "fp32", g)
    c.expect = ["device: PASS", "ref: FAIL"]
    return c


@case
def row_expand_target():
    """tile.row_expand's target gives only the shape: a fresh tile.create is not read."""
    prog = '''
# pypto.program: RowExpandTarget
import pypto.language as pl

@pl.program
class RowExpandTarget:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def row_expand_kernel(v__ssa_v0: pl.Tensor[[8, 1], pl.FP32], y__ssa_v0: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32)
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 512)
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 512)
        v_tile: pl.Tile[[8, 1], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 32), pl.Mem.Vec] = pl.tile.load(v__ssa_v0, [0, 0], [8, 1], [8, 1], target_memory=pl.Mem.Vec)
        target: pl.Tile[[8, 16], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 512), pl.Mem.Vec] = pl.tile.create([8, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        expanded: pl.Tile[[8, 16], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 512), pl.Mem.Vec] = pl.tile.row_expand(target, v_tile)
        y__ssa_v1: pl.Tensor[[8, 16], pl.FP32] = pl.tile.store(expanded, [0, 0], y__ssa_v0)
        return y__ssa_v1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, v__ssa_v0: pl.Tensor[[8, 1], pl.FP32], y__ssa_v0: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        y__ssa_v1: pl.Tensor[[8, 16], pl.FP32] = self.row_expand_kernel(v__ssa_v0, y__ssa_v0)
        return y__ssa_v1
'''
    c = Case("row_expand_target", [
        "y[i, j] = v[i, 0]: pto.trowexpand takes the vector alone; tile.row_expand's target",
        "(a fresh tile.create) gives the result's shape and type and is never read (pypto",
        "src/backend/common/pto_ops_elementwise.cpp:221-225). Memory sanitizer on: no fault.",
        "From PyPTO's tests/st/runtime/ops/test_broadcast.py TestTileRowExpand (our data)."],
        prog, "main", stem="32_after_InitMemRef")
    rng = np.random.default_rng(8)
    v = rng.standard_normal((8, 1)).astype(F32)
    c.inp("v", "fp32", v)
    c.out("y", "fp32", np.repeat(v, 16, axis=1))
    c.expect = ["device: PASS", "ref: PASS"]
    return c


@case
def gather_mask_uint32():
    """gather_mask with output_dtype=UINT32 reinterprets FP32 bits (UINT32 held as int64)."""
    prog = '''
# pypto.program: GatherMaskUint32
import pypto.language as pl

@pl.program
class GatherMaskUint32:
    @pl.function
    def main(self, inp: pl.Tensor[[8, 16], pl.FP32], output: pl.Out[pl.Tensor[[8, 8], pl.UINT32]]) -> pl.Tensor[[8, 8], pl.UINT32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            out: pl.Tensor[[8, 8], pl.UINT32] = pl.tensor.gather_mask(inp, mask_pattern=2, output_dtype=pl.UINT32)
            output: pl.Tensor[[8, 8], pl.UINT32] = pl.tensor.assemble(output, out, [0, 0])
        return output
'''
    c = Case("gather_mask_uint32", [
        "output = the odd columns of inp (mask pattern 2, P1010: pto-isa cd4a3d3f",
        "include/pto/cpu/TGather.hpp), their FP32 bits read as UINT32 (output_dtype",
        "reinterprets, the byte size unchanged: PyPTO tests/st/runtime/ops/test_gather.py",
        "GatherMaskOutputDtypeTestCase); UINT32 is held as int64, zero-extended",
        "(torch_codegen's _DTYPE_MAP)."],
        prog, "main", tol=(0.0, 0.0))
    rng = np.random.default_rng(9)
    inp = rng.standard_normal((8, 16)).astype(F32)
    c.inp("inp", "fp32", inp)
    c.out("output", "int64", np.ascontiguousarray(inp[:, 1::2]).view(np.uint32).astype(np.int64))
    c.expect = ["device: PASS", "ref: PASS"]
    return c


@case
def nested_valid():
    """An elementwise op nested in a store keeps its operand's valid region."""
    prog = '''
# pypto.program: NestedValid
import pypto.language as pl

@pl.program
class NestedValid:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(a: pl.Tensor[[16, 16], pl.INT16], out: pl.InOut[pl.Tensor[[16, 16], pl.INT16]]) -> pl.Tensor[[16, 16], pl.INT16]:
        a_tile: pl.Tile[[16, 16], pl.INT16, pl.Mem.Vec, pl.TileView(valid_shape=[8, 12])] = pl.tile.load(a, [0, 0], [16, 16], [8, 12], target_memory=pl.Mem.Vec)
        out: pl.Tensor[[16, 16], pl.INT16] = pl.tile.store(pl.tile.not_(a_tile), [0, 0], out)
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.INT16], out: pl.InOut[pl.Tensor[[16, 16], pl.INT16]]) -> pl.Tensor[[16, 16], pl.INT16]:
        out: pl.Tensor[[16, 16], pl.INT16] = self.kernel(a, out)
        return out
'''
    c = Case("nested_valid", [
        "out[:8, :12] = ~a[:8, :12], the rest as it was (zeros): tile.not_'s result keeps",
        "its operand's valid shape [8, 12] (PyPTO's type deduction: valid_shape =",
        "GetValidShape(operand)), written or not, and the store writes that region only",
        "(pto-isa TSTORE: GetValidRow x GetValidCol). From PyPTO's tests/st/runtime/ops/",
        "test_bitwise.py BitwiseNotTestCase [16x16_narrow_both] (our data)."],
        prog, "main", tol=(0.0, 0.0))
    a = np.arange(256, dtype=np.int16).reshape(16, 16)
    g = np.zeros((16, 16), dtype=np.int16)
    g[:8, :12] = ~a[:8, :12]
    c.inp("a", "int16", a)
    c.inp("out", "int16", np.zeros((16, 16), dtype=np.int16))
    c.out("out", "int16", g)
    c.expect = ["device: PASS", "ref: FAIL"]
    return c


@case
def expand_clone_target():
    """tensor.expand_clone writes its target in place (an Out parameter)."""
    prog = '''
# pypto.program: ExpandCloneTarget
import pypto.language as pl

@pl.program
class ExpandCloneTarget:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def expand_clone_kernel(x: pl.Tensor[[1, 8, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8, 8], pl.FP32]]) -> pl.Tensor[[4, 8, 8], pl.FP32]:
        out: pl.Tensor[[4, 8, 8], pl.FP32] = pl.tensor.expand_clone(x, y)
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[1, 8, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8, 8], pl.FP32]]) -> pl.Tensor[[4, 8, 8], pl.FP32]:
        y: pl.Tensor[[4, 8, 8], pl.FP32] = self.expand_clone_kernel(x, y)
        return y
'''
    c = Case("expand_clone_target", [
        "y[b] = x[0] for each b: expand_clone writes the expanded copy into its target y in",
        "place (ConvertTensorToTileOps lowers it to tile.store(..., target): pypto src/ir/",
        "transforms/op_conversion_registry.cpp:912-1010), so the Out parameter holds it.",
        "From PyPTO's tests/st/runtime/ops/test_broadcast.py TestTensorExpandClone (our data)."],
        prog, "main", tol=(0.0, 0.0))
    rng = np.random.default_rng(10)
    x = rng.standard_normal((1, 8, 8)).astype(F32)
    c.inp("x", "fp32", x)
    c.out("y", "fp32", np.repeat(x, 4, axis=0))
    c.expect = ["device: PASS", "ref: PASS"]
    return c


@case
def gemv_nested():
    """A gemv nested in a store: its [1, 30] valid region of a [1, 32] result is stored."""
    prog = '''
# pypto.program: GemvNested
import pypto.language as pl

@pl.program
class GemvNested:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(a: pl.Tensor[[1, 128], pl.FP32], b: pl.Tensor[[128, 30], pl.FP32], out: pl.Out[pl.Tensor[[1, 30], pl.FP32]]) -> pl.Tensor[[1, 30], pl.FP32]:
        tile_a: pl.Tile[[1, 128], pl.FP32, pl.Mem.Mat, pl.TileView(valid_shape=[1, 64], blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)] = pl.tile.load(a, [0, 0], [1, 128], [1, 64], target_memory=pl.Mem.Mat)
        tile_b: pl.Tile[[128, 32], pl.FP32, pl.Mem.Mat, pl.TileView(valid_shape=[64, 30])] = pl.tile.load(b, [0, 0], [128, 32], [64, 30], target_memory=pl.Mem.Mat, clamp=True)
        out: pl.Tensor[[1, 30], pl.FP32] = pl.tile.store(pl.tile.gemv(tile_a, tile_b, acc_phase='unspecified'), [0, 0], out)
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[1, 128], pl.FP32], b: pl.Tensor[[128, 30], pl.FP32], out: pl.Out[pl.Tensor[[1, 30], pl.FP32]]) -> pl.Tensor[[1, 30], pl.FP32]:
        out: pl.Tensor[[1, 30], pl.FP32] = self.kernel(a, b, out)
        return out
'''
    c = Case("gemv_nested", [
        "out = a[:, :64] @ b[:64, :30]: the gemv reads its operands' valid K = 64 and its",
        "result's valid region is [lhs's valid rows, rhs's valid columns] = [1, 30]",
        "(PyPTO's type deduction: a [16, 32] tile with valid [1, 30] once annotated), which",
        "the store writes. From PyPTO's tests/st/runtime/ops/test_gemv.py (our data)."],
        prog, "main", tol=(1e-4, 1e-4))
    rng = np.random.default_rng(11)
    a = rng.standard_normal((1, 128)).astype(F32)
    b = rng.standard_normal((128, 30)).astype(F32)
    c.inp("a", "fp32", a)
    c.inp("b", "fp32", b)
    c.out("out", "fp32", (a[:, :64].astype(np.float64) @ b[:64, :].astype(np.float64)).astype(F32))
    c.expect = ["device: PASS", "ref: REF-FAIL"]
    return c


@case
def external_kernel():
    """A call of an external C++ kernel is refused at the call, never run as `pass`."""
    prog = '''
# pypto.program: ExternalKernel
import pypto.language as pl

@pl.program
class ExternalKernel:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker, external_source="kernels/aiv/write_ones.cpp")
    def WRITE_ONES(out: pl.InOut[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        pass
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        out: pl.Tensor[[16], pl.FP32] = self.WRITE_ONES(out)
        return out
'''
    c = Case("external_kernel", [
        "WRITE_ONES's body is C++ (external_source=), not IR: running its `pass` would",
        "leave out as zeros and compare that (a silent wrong answer); the call is refused",
        "with the file named (PyPTO's tests/st/runtime/external_kernel/ have this form)."],
        prog, "main")
    c.out("out", "fp32", np.ones(16, dtype=F32))
    c.expect = ["device: ERROR", "ref: ERROR",
                "line: WRITE_ONES is an external kernel: its body is the C++ file write_ones.cpp"]
    return c


@case
def loop_carries_before_reuse():
    """Two loop carries before MemoryReuse: the iter_args keep their init values' buffers."""
    prog = '''
# pypto.program: LoopCarries
import pypto.language as pl

@pl.program
class LoopCarries:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def running_max(x__ssa_v0: pl.Tensor[[4, 64], pl.FP32], m_out: pl.Out[pl.Tensor[[1, 64], pl.FP32]], d_out: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
        m0: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)
        d0: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.sub(m0, m0)
        for r, (m_iter, d_iter) in pl.range(1, 4, init_values=(m0, d0)):
            row: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [r, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)
            m_next: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.maximum(m_iter, row)
            step: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.sub(m_next, m_iter)
            d_next: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_5, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.add(d_iter, step)
            m_rv, d_rv = pl.yield_(m_next, d_next)
        m_res: pl.Tensor[[1, 64], pl.FP32] = pl.tile.store(m_rv, [0, 0], m_out)
        d_res: pl.Tensor[[1, 64], pl.FP32] = pl.tile.store(d_rv, [0, 0], d_out)
        return m_res
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[4, 64], pl.FP32], m_out: pl.Out[pl.Tensor[[1, 64], pl.FP32]], d_out: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
        m_res: pl.Tensor[[1, 64], pl.FP32] = self.running_max(x__ssa_v0, m_out, d_out)
        return m_res
'''
    c = Case("loop_carries_before_reuse", [
        "m = max over rows of x, d = m - x[0] (the sum of each row's increase): a loop",
        "with two carries, the yield unannotated (as PyPTO prints several). Before",
        "MemoryReuse the iter_args share their init values' MemRefs and the yielded",
        "values have their own (pypto docs/en/dev/passes/31-init_memref.md:177-193, Group",
        "A / Group B; MemoryReuse's tile.move resolves it), so the next iteration's",
        "maximum into mem_vec_3 does not clobber the carry m_iter the sub reads."],
        prog, "main", stem="32_after_InitMemRef")
    rng = np.random.default_rng(12)
    x = rng.standard_normal((4, 64)).astype(F32)
    m = x[0].copy()
    d = np.zeros(64, dtype=F32)
    for r in range(1, 4):
        mn = np.maximum(m, x[r])
        d = (d + (mn - m).astype(F32)).astype(F32)
        m = mn
    c.inp("x", "fp32", x)
    c.out("m_out", "fp32", m.reshape(1, 64))
    c.out("d_out", "fp32", d.reshape(1, 64))
    c.expect = ["device: PASS", "ref: PASS"]
    return c


@case
def sels_mask_carrier():
    """tile.sels with an INT32 mask: a carrier of the predicate bits, byte by byte."""
    prog = '''
# pypto.program: SelsMaskCarrier
import pypto.language as pl

@pl.program
class SelsMaskCarrier:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(src: pl.Tensor[[2, 16], pl.FP32], mask_in: pl.Tensor[[2, 8], pl.INT32], out: pl.InOut[pl.Tensor[[2, 16], pl.FP32]]) -> pl.Tensor[[2, 16], pl.FP32]:
        src_tile: pl.Tile[[2, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [2, 16], [2, 16], target_memory=pl.Mem.Vec)
        mask: pl.Tile[[2, 8], pl.INT32, pl.Mem.Vec] = pl.tile.load(mask_in, [0, 0], [2, 8], [2, 8], target_memory=pl.Mem.Vec)
        tmp: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 8], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        result: pl.Tile[[2, 16], pl.FP32, pl.Mem.Vec] = pl.tile.sels(mask, src_tile, tmp, -3.0)
        return pl.tile.store(result, [0, 0], out)
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, src: pl.Tensor[[2, 16], pl.FP32], mask_in: pl.Tensor[[2, 8], pl.INT32], out: pl.InOut[pl.Tensor[[2, 16], pl.FP32]]) -> pl.Tensor[[2, 16], pl.FP32]:
        out: pl.Tensor[[2, 16], pl.FP32] = self.kernel(src, mask_in, out)
        return out
'''
    c = Case("sels_mask_carrier", [
        "out = src where the mask bit is set, else -3.0: the INT32 mask 0xAAAAAAAA is a",
        "carrier of bits read byte by byte, bit 0 of byte 0 first (pto-isa cd4a3d3f",
        "include/pto/cpu/TSel.hpp:21-45; PyPTO's tests/st/runtime/ops/test_sels.py:197-292,",
        "TileSelsMaskCarrierTestCase), so the odd columns keep src. REF's torch.where",
        "refuses an integer condition."],
        prog, "main", tol=(0.0, 0.0))
    rng = np.random.default_rng(13)
    src = rng.standard_normal((2, 16)).astype(F32)
    mask = np.full((2, 8), np.uint32(0xAAAAAAAA).view(np.int32), dtype=np.int32)
    g = np.full((2, 16), -3.0, dtype=F32)
    g[:, 1::2] = src[:, 1::2]
    c.inp("src", "fp32", src)
    c.inp("mask_in", "int32", mask)
    c.inp("out", "fp32", np.zeros((2, 16), dtype=F32))
    c.out("out", "fp32", g)
    c.expect = ["device: PASS", "ref: REF-FAIL"]
    return c


@case
def predicated_submit():
    """A submit with predicate= false retires without running; its dependents run."""
    prog = PREDICATED_SUBMIT_PROGRAM
    c = Case("predicated_submit", [
        "out = 42 everywhere: x_producer writes 42 into x; clobber (999) is submitted with",
        "predicate=(gate[0, 0] > 0), gate is 0, so it retires without running (its outputs",
        "as they were, its TaskId still valid), and consumer, which depends on it, copies",
        "x to out. The program of PyPTO's tests/st/runtime/scheduling/",
        "test_predicated_dispatch.py (_PredicatedDispatchPTO) at [16, 16]."],
        prog, "main")
    c.inp("gate", "int32", np.zeros((16, 16), dtype=np.int32))
    c.out("out", "fp32", np.full((16, 16), 42.0, dtype=F32))
    c.expect = ["device: PASS", "ref: REF-FAIL"]
    return c


@case
def prelu_tmp_950():
    """On 950 TPRELU never touches its tmp: an output MemoryReuse put there is fine."""
    c = Case("prelu_tmp_950", [
        "out = src where src > 0, else src * slope. After MemoryReuse the result shares",
        "tmp's buffer; on Ascend950 TPRELU passes dst, src0, src1 only (pto-isa cd4a3d3f",
        "include/pto/npu/a5/TPrelu.hpp:70-80), so that is no hazard there (on 910B its",
        "tmp is scratch and the alias would be). PyPTO's tests/st/runtime/ops/test_prelu.py",
        "one-row-wide-a5 program, our data; the folder's _950 names the target."],
        PRELU_TMP_950_PROGRAM, "orchestrator", stem="34_after_MemoryReuse")
    rng = np.random.default_rng(14)
    src = rng.standard_normal((1, 256)).astype(F32)
    slope = (rng.standard_normal((1, 256)) * 0.1).astype(F32)
    c.inp("src", "fp32", src)
    c.inp("slope", "fp32", slope)
    c.inp("tmp_in", "uint8", np.zeros((2, 32), dtype=np.uint8))
    c.inp("out", "fp32", np.zeros((1, 256), dtype=F32))
    c.out("out", "fp32", np.where(src > 0, src, (src * slope).astype(F32)).astype(F32))
    c.expect = ["device: PASS", "ref: PASS"]
    return c


@case
def matmul_acc_init_cond():
    """Split-K matmul_acc with init_cond k == 0 into a fresh tile.create accumulator."""
    c = Case("matmul_acc_init_cond", [
        "c = a @ b by four K chunks of 32: the first matmul_acc's init_cond (k0 == 0)",
        "overwrites the accumulator (pypto src/ir/op/tile_ops/matmul.cpp:427-436), so the",
        "fresh tile.create's bytes are never read (memory sanitizer on: no fault); FP32",
        "products summed as the cube's fma chain (pto-isa TMatmul.hpp:61-74), compared at",
        "1e-4. PyPTO's tests/st/runtime/ops/test_matmul_acc_init_cond.py program, our data."],
        MATMUL_ACC_INIT_PROGRAM, "orchestrator", tol=(1e-4, 1e-4), stem="32_after_InitMemRef")
    rng = np.random.default_rng(15)
    a = rng.standard_normal((32, 128)).astype(F32)
    b = rng.standard_normal((128, 64)).astype(F32)
    c.inp("a", "fp32", a)
    c.inp("b", "fp32", b)
    c.out("out_c", "fp32", (a.astype(np.float64) @ b.astype(np.float64)).astype(F32))
    c.expect = ["device: PASS", "ref: PASS"]
    return c


@case
def write_into_create():
    """Elements written one by one into a fresh tile.create: tile.write is no read."""
    prog = '''
# pypto.program: WriteIntoCreate
import pypto.language as pl

@pl.program
class WriteIntoCreate:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def fill(x__ssa_v0: pl.Tensor[[1, 8], pl.INT32], out__ssa_v0: pl.Out[pl.Tensor[[1, 8], pl.INT32]]) -> pl.Tensor[[1, 8], pl.INT32]:
        mem_vec_0: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32)
        mem_vec_1: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32)
        x__tile: pl.Tile[[1, 8], pl.INT32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 32), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [1, 8], [1, 8], target_memory=pl.Mem.Vec)
        ids__tile: pl.Tile[[1, 8], pl.INT32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 32), pl.Mem.Vec] = pl.tile.create([1, 8], dtype=pl.INT32, target_memory=pl.Mem.Vec)
        for k in pl.range(8):
            v: pl.Scalar[pl.INT32] = pl.tile.read(x__tile, [0, 7 - k])
            pl.tile.write(ids__tile, [0, k], v)
        out__ssa_v1: pl.Tensor[[1, 8], pl.INT32] = pl.tile.store(ids__tile, [0, 0], out__ssa_v0)
        return out__ssa_v1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[1, 8], pl.INT32], out__ssa_v0: pl.Out[pl.Tensor[[1, 8], pl.INT32]]) -> pl.Tensor[[1, 8], pl.INT32]:
        out__ssa_v1: pl.Tensor[[1, 8], pl.INT32] = self.fill(x__ssa_v0, out__ssa_v0)
        return out__ssa_v1
'''
    c = Case("write_into_create", [
        "out = x reversed: each tile.write stores one element of a fresh tile.create in",
        "place (a scalar SetValue, nothing of the tile read), so the store reads a tile",
        "whose every element was written. Memory sanitizer on (an InitMemRef pass): no",
        "fault. The pattern of pypto-lib's qwen3_14b topk_select."],
        prog, "main", tol=(0.0, 0.0), stem="32_after_InitMemRef")
    x = np.arange(10, 18, dtype=np.int32).reshape(1, 8)
    c.inp("x", "int32", x)
    c.out("out", "int32", x[:, ::-1].copy())
    c.expect = ["device: PASS", "ref: PASS"]
    return c


@case
def store_2d_into_3d():
    """2-D tiles stored into 3-D tensors: the tile's rows walk the tensor's leading axes."""
    prog = """
# pypto.program: Store2DInto3D
import pypto.language as pl

@pl.program
class Store2DInto3D:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(a: pl.Tensor[[4, 16], pl.FP32], x: pl.Tensor[[6, 8], pl.FP32], out: pl.InOut[pl.Tensor[[2, 4, 16], pl.FP32]], flat: pl.Out[pl.Tensor[[2, 3, 8], pl.FP32]]) -> pl.Tensor[[2, 4, 16], pl.FP32]:
        a_tile: pl.Tile[[2, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [1, 0], [2, 16], [2, 16], target_memory=pl.Mem.Vec)
        sq: pl.Tile[[2, 16], pl.FP32, pl.Mem.Vec] = pl.tile.mul(a_tile, a_tile)
        out: pl.Tensor[[2, 4, 16], pl.FP32] = pl.tile.store(sq, [1, 1, 0], out)
        x_tile: pl.Tile[[6, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [6, 8], [6, 8], target_memory=pl.Mem.Vec)
        flat: pl.Tensor[[2, 3, 8], pl.FP32] = pl.tile.store(x_tile, [0, 0, 0], flat)
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[4, 16], pl.FP32], x: pl.Tensor[[6, 8], pl.FP32], out: pl.InOut[pl.Tensor[[2, 4, 16], pl.FP32]], flat: pl.Out[pl.Tensor[[2, 3, 8], pl.FP32]]) -> pl.Tensor[[2, 4, 16], pl.FP32]:
        out: pl.Tensor[[2, 4, 16], pl.FP32] = self.kernel(a, x, out, flat)
        return out
"""
    c = Case("store_2d_into_3d", [
        "out[1, 1:3, :] = a[1:3]**2 (the rest of out as given) and flat = x.reshape(2, 3, 8):",
        "FlattenTileNdTo2D gives a store into a rank>2 tensor the partition [1, .., 1] + the",
        "tile's shape (pypto src/ir/transforms/flatten_tile_nd_to_2d/rewrite.cpp:811-828),",
        "codegen a pto.partition_view of those sizes at the offsets (src/backend/common/",
        "pto_ops_memory.cpp:195-212), and TSTORE puts tile row r on the partition's leading",
        "axes in row-major order at the tensor's strides (pto-isa cd4a3d3f include/pto/cpu/",
        "TStore.hpp:62-75, tile_offsets.hpp:169-186): [2, 16] at [1, 1, 0] is out[1, 1:3];",
        "[6, 8] through [1, 6, 8] at [0, 0, 0] walks axis 1 past 3 into axis 0, the whole",
        "[2, 3, 8] (PyPTO's tests/st/runtime/ops/test_elementwise_nd.py Tile2DStoreTo3D and",
        "test_gather.py GatherRank3LastDim patterns, our data)."],
        prog, "main")
    rng = np.random.default_rng(7)
    a = rng.standard_normal((4, 16)).astype(F32)
    x = rng.standard_normal((6, 8)).astype(F32)
    out_in = rng.standard_normal((2, 4, 16)).astype(F32)
    out = out_in.copy()
    out[1, 1:3, :] = a[1:3] * a[1:3]
    c.inp("a", "fp32", a)
    c.inp("x", "fp32", x)
    c.inp("out", "fp32", out_in)
    c.out("out", "fp32", out)
    c.out("flat", "fp32", x.reshape(2, 3, 8).copy())
    c.expect = ["device: PASS", "ref: REF-FAIL",
                "note: the tile is written through the tensor-rank partition"]
    return c


@case
def flatten_nd_partition():
    """FlattenTileNdTo2D's 2-D tiles of 4-D/3-D windows: loads and stores through N-D partitions."""
    prog = """
# pypto.program: FlattenNdPartition
import pypto.language as pl

@pl.program
class FlattenNdPartition:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(a__ssa_v0: pl.Tensor[[2, 2, 8, 16], pl.FP32], b__ssa_v0: pl.Tensor[[2, 4, 16], pl.FP32], out__ssa_v0: pl.InOut[pl.Tensor[[2, 2, 8, 16], pl.FP32]], packed__ssa_v0: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[2, 2, 8, 16], pl.FP32]:
        tile__ssa_v0: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 1, 0, 0], [1, 1, 8, 16], [1, 1, 8, 16], target_memory=pl.Mem.Vec)
        sq__ssa_v0: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.mul(tile__ssa_v0, tile__ssa_v0)
        out__ssa_v1: pl.Tensor[[2, 2, 8, 16], pl.FP32] = pl.tile.store(sq__ssa_v0, [1, 0, 0, 0], out__ssa_v0, [1, 1, 8, 16])
        top__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0, 0, 0], [1, 2, 8, 16], [1, 2, 8, 16], target_memory=pl.Mem.Vec)
        neg__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.neg(top__ssa_v0)
        out__ssa_v2: pl.Tensor[[2, 2, 8, 16], pl.FP32] = pl.tile.store(neg__ssa_v0, [1, 0, 0, 0], out__ssa_v1, [1, 2, 8, 16])
        p__ssa_v0: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[6, 16])] = pl.tile.load(b__ssa_v0, [0, 0, 0], [2, 4, 16], [2, 3, 16], target_memory=pl.Mem.Vec)
        packed__ssa_v1: pl.Tensor[[8, 16], pl.FP32] = pl.tile.store(p__ssa_v0, [0, 0], packed__ssa_v0)
        return out__ssa_v2
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a__ssa_v0: pl.Tensor[[2, 2, 8, 16], pl.FP32], b__ssa_v0: pl.Tensor[[2, 4, 16], pl.FP32], out__ssa_v0: pl.InOut[pl.Tensor[[2, 2, 8, 16], pl.FP32]], packed__ssa_v0: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[2, 2, 8, 16], pl.FP32]:
        out__ssa_v1: pl.Tensor[[2, 2, 8, 16], pl.FP32] = self.kernel(a__ssa_v0, b__ssa_v0, out__ssa_v0, packed__ssa_v0)
        return out__ssa_v1
"""
    c = Case("flatten_nd_partition", [
        "After FlattenTileNdTo2D: a load keeps its tensor-rank window and makes the tile",
        "[prod(shapes[:-1]), shapes[-1]], valid [prod(valid[:-1]), valid[-1]] (pypto src/ir/",
        "transforms/flatten_tile_nd_to_2d/rewrite.cpp:666-700, rewrite_utils.cpp:117-136); a",
        "store carries the partition as its 4th operand (:811-828). Codegen partitions the",
        "tensor by the load's valid_shape and the store's shapes (src/backend/common/",
        "pto_ops_memory.cpp:129-137, 195-212); TLOAD/TSTORE map tile row r to the leading",
        "axes in row-major order (pto-isa cd4a3d3f include/pto/cpu/tile_offsets.hpp:169-186,",
        "TLoad.hpp:152-158, TStore.hpp:62-75). So out[1, 0] = a[0, 1]**2, then out[1] =",
        "-a[0] (a [16, 16] tile through [1, 2, 8, 16]); out[0] stays as given; packed[0:6] =",
        "b[:, 0:3, :] rows in order (the valid [2, 3, 16] box packed), rows 6-7 zero (a pure",
        "output, stored valid [6, 16] only). From PyPTO's tests/st/runtime/ops/",
        "test_elementwise_nd.py (Tile4DQuadrant, Tile4DTopToBottom; our data)."],
        prog, "main", stem="14_after_FlattenTileNdTo2D")
    rng = np.random.default_rng(8)
    a = rng.standard_normal((2, 2, 8, 16)).astype(F32)
    b = rng.standard_normal((2, 4, 16)).astype(F32)
    out_in = rng.standard_normal((2, 2, 8, 16)).astype(F32)
    out = out_in.copy()
    out[1, 0] = a[0, 1] * a[0, 1]
    out[1] = -a[0]
    packed = np.zeros((8, 16), dtype=F32)
    packed[0:6] = b[:, 0:3, :].reshape(6, 16)
    c.inp("a", "fp32", a)
    c.inp("b", "fp32", b)
    c.inp("out", "fp32", out_in)
    c.out("out", "fp32", out)
    c.out("packed", "fp32", packed)
    c.expect = ["device: PASS", "ref: REF-FAIL",
                "note: the 2-D tile holds the N-D window's valid rows in row-major order"]
    return c


@case
def assemble_2d_into_3d():
    """tensor.assemble of a 2-D source with a narrower valid shape into a 3-D tensor."""
    prog = """
# pypto.program: Assemble2DInto3D
import pypto.language as pl

@pl.program
class Assemble2DInto3D:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[4, 16], pl.FP32], y: pl.Tensor[[4, 16], pl.FP32], out: pl.InOut[pl.Tensor[[2, 4, 16], pl.FP32]]) -> pl.Tensor[[2, 4, 16], pl.FP32]:
        out: pl.Tensor[[2, 4, 16], pl.FP32] = pl.tensor.assemble(out, x, [0, 0, 0])
        narrow: pl.Tensor[[4, 16], pl.FP32, pl.TensorView(valid_shape=[3, 16], stride=[], layout=pl.TensorLayout.ND)] = pl.tensor.set_validshape(y, 3, 16)
        out: pl.Tensor[[2, 4, 16], pl.FP32] = pl.tensor.assemble(out, narrow, [1, 1, 0])
        return out
"""
    c = Case("assemble_2d_into_3d", [
        "out[0] = x; out[1, 1:4] = y[0:3] (y's valid [3, 16] of [4, 16]); out[1, 0] as given.",
        "A lower-rank source lands in the trailing axes, leading axes 1 (pypto docs/en/dev/",
        "passes/36-fuse_create_assemble_to_slice.md:45; src/ir/op/tensor_ops/memory.cpp:",
        "424-430, a reinterpreting write), and only the source's valid region moves",
        "(memory.cpp:420-423, kValidRegionTransfer): the transfer of nd-partition with the",
        "partition [1, 4, 16] (pto-isa cd4a3d3f include/pto/cpu/TStore.hpp:62-75).",
        "From PyPTO's tests/st/runtime/ops/test_elementwise_nd.py TensorAssemble2DTo3D and",
        "control_flow/test_assemble_narrow_valid.py (their patterns, our data)."],
        prog, "main")
    rng = np.random.default_rng(9)
    x = rng.standard_normal((4, 16)).astype(F32)
    y = rng.standard_normal((4, 16)).astype(F32)
    out_in = rng.standard_normal((2, 4, 16)).astype(F32)
    out = out_in.copy()
    out[0] = x
    out[1, 1:4] = y[0:3]
    c.inp("x", "fp32", x)
    c.inp("y", "fp32", y)
    c.inp("out", "fp32", out_in)
    c.out("out", "fp32", out)
    # REF runs it: its first assemble writes x over out[0:4] clipped to both batches
    # (broadcast), so out[1, 0] is x[0], not what it held
    c.expect = ["device: PASS", "ref: FAIL",
                "note: the tile is written through the tensor-rank partition"]
    return c


@case
def matmul_acc_window():
    """matmul_acc into a column window (a view) of a larger accumulator updates it."""
    c = Case("matmul_acc_window", [
        "c = a @ b, each 64-column half accumulated in a window (tile.slice) of one",
        "[16, 128] L0C tile: matmul_acc's output reuses its accumulator's buffer",
        "(set_output_reuses_input(0): pypto src/ir/op/tile_ops/matmul.cpp:427-442), so",
        "the window's parent holds the sums the final store writes. PyPTO's",
        "tests/st/runtime/ops/test_matmul_acc_init_cond.py (window case), our data."],
        MATMUL_ACC_WINDOW_PROGRAM, "orchestrator", tol=(1e-4, 1e-4))
    rng = np.random.default_rng(16)
    a = rng.standard_normal((16, 128)).astype(F32)
    b = rng.standard_normal((128, 128)).astype(F32)
    c.inp("a", "fp32", a)
    c.inp("b", "fp32", b)
    c.out("out_c", "fp32", (a.astype(np.float64) @ b.astype(np.float64)).astype(F32))
    c.expect = ["device: PASS", "ref: FAIL"]
    return c


@case
def predicated_scope_ssa():
    """A skipped predicated pl.spmd scope in SSA form: its result names are its outputs as given."""
    c = Case("predicated_scope_ssa", [
        "out = 42: the clobber scope `with pl.spmd(1, ..., predicate=gate[0, 0] > 0)` does",
        "not run (gate is 0) and x__ssa_v2, defined inside it, is x__ssa_v1 as given (the",
        "retired task's output buffer), which the consumer copies. PyPTO's",
        "tests/st/runtime/scheduling/test_predicated_dispatch.py (scope form) after",
        "ConvertToSSA, at [16, 16]."],
        PREDICATED_SCOPE_PROGRAM, "main", stem="04_after_ConvertToSSA")
    c.inp("gate", "int32", np.zeros((16, 16), dtype=np.int32))
    c.out("out", "fp32", np.full((16, 16), 42.0, dtype=F32))
    c.expect = ["device: PASS", "ref: PASS"]
    return c


@case
def assemble_squeeze():
    """A [1, 4, 8] source assembled into a [4, 16] tensor: the unit axis is dropped."""
    prog = '''
# pypto.program: AssembleSqueeze
import pypto.language as pl

@pl.program
class AssembleSqueeze:
    @pl.function
    def main(self, x: pl.Tensor[[1, 4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            y: pl.Tensor[[1, 4, 8], pl.FP32] = pl.tensor.muls(x, 2.0)
            out: pl.Tensor[[4, 16], pl.FP32] = pl.tensor.assemble(out, y, [0, 8])
        return out
'''
    c = Case("assemble_squeeze", [
        "out[:, 8:16] = 2x[0], the rest as it was (zeros): a source of higher rank whose",
        "leading axis is 1 moves the same elements into the lower-rank target (PyPTO's",
        "tensor.assemble accepts it; pypto-lib's DeepSeek V4 sparse attention assembles a",
        "[1, 16, 128] matmul result into a [16, 1024] tensor). REF's slice assignment",
        "cannot broadcast it."],
        prog, "main", tol=(0.0, 0.0))
    rng = np.random.default_rng(17)
    x = rng.standard_normal((1, 4, 8)).astype(F32)
    g = np.zeros((4, 16), dtype=F32)
    g[:, 8:] = (x[0] * F32(2.0)).astype(F32)
    c.inp("x", "fp32", x)
    c.inp("out", "fp32", np.zeros((4, 16), dtype=F32))
    c.out("out", "fp32", g)
    c.expect = ["device: PASS", "ref: REF-FAIL"]
    return c


@case
def group_by_type():
    """A Group whose kernels are not named <group>_aic / <group>_aiv."""
    prog = '''
# pypto.program: GroupByType
import pypto.language as pl

@pl.program
class GroupByType:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def cube_consumer(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        s_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
        b_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        s_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(s_mat, target_memory=pl.Mem.Left)
        b_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s_left, b_right)
        pl.system.tfree_to_aiv(s_mat)
        return pl.tile.store(acc, [0, 0], output)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def vector_producer(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        a_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        s: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.adds(a_tile, 1.0)
        pl.tile.tpush_to_aic(s, split=0)
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def group_func(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        result: pl.Tensor[[16, 16], pl.FP32] = self.cube_consumer(a, b, output)
        self.vector_producer(a, b, output)
        return result
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        result: pl.Tensor[[16, 16], pl.FP32] = self.group_func(a, b, output)
        return result
'''
    c = Case("group_by_type", [
        "output = (a + 1) @ b: the Group launches its AIC-typed callee on the cube and its",
        "AIV-typed callee on a vector lane, whatever their names (pypto src/ir/transforms/",
        "utils/wrapper_call_utils.cpp:93-125, FindGroupCallees by FunctionType;",
        "src/codegen/orchestration/orchestration_codegen.cpp:3325-3383, one MixedKernels",
        "task). The cube pops what the vector pushes. REF pairs <group>_aic/<group>_aiv by",
        "name only (docs/en/dev/debug/00-torch_codegen.md:190-200): it runs the body in line",
        "and the cube's pop never returns. Pattern of PyPTO's tests/st/runtime/cross_core/",
        "test_cross_core.py MultiPipeNoSplitTest, our data."],
        prog, "main")
    a, b = ab_inputs(c, 11)
    c.out("output", "fp32", matmul_f32((a + F32(1)).astype(F32), b))
    c.expect = ["device: PASS", "ref: REF-FAIL",
                "note: the Group group_func launches cube_consumer and vector_producer by their types"]
    return c



@case
def dual_dispatch_direct():
    """Kernels called straight from orchestration: an AIC one, a dual_aiv_dispatch AIV one."""
    prog = '''
# pypto.program: DualDispatchDirect
import pypto.language as pl

@pl.program
class DualDispatchDirect:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def cube_mm(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], mm: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
''' + MM_KERNEL + '''        o: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(acc, [0, 0], mm)
        return mm
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def halves(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split_aiv": True, "dual_aiv_dispatch": True})
        aiv_id: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        row: pl.Scalar[pl.INDEX] = aiv_id * 8
        t: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [row, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
        d: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, 2.0)
        o: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(d, [row, 0], out)
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], mm: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        m: pl.Tensor[[16, 16], pl.FP32] = self.cube_mm(a, b, mm)
        r: pl.Tensor[[16, 16], pl.FP32] = self.halves(a, out)
        return r
'''
    c = Case("dual_dispatch_direct", [
        "mm = a @ b, out = 2a: orchestration calls an AIC kernel, which runs on the cube core",
        "(rt_submit_aic_task: orchestration_codegen.cpp:180-185), and a kernel stamped",
        "dual_aiv_dispatch, which runs on both vector lanes even when",
        "orchestration calls it directly; each lane doubles its 8 rows (get_subblock_idx).",
        "pypto src/codegen/orchestration/orchestration_codegen.cpp:2796-2822",
        "(BuildSingleKernelSubmit: MixedKernels {INVALID, aiv, aiv}, PyPTO #2379, fixing",
        "#2006 where lane 1 never ran); split_aiv: a task-parallel pl.split_aiv kernel, so",
        "no lane-1 replay (split_vector_kernel_pass.cpp:626-661). REF runs it once, as",
        "lane 0: rows 8..15 stay zero."],
        prog, "main")
    a, b = ab_inputs(c, 12)
    c.out("mm", "fp32", matmul_f32(a, b))
    c.out("out", "fp32", (a * F32(2)).astype(F32))
    c.expect = ["device: PASS", "ref: FAIL",
                "note: the dual-dispatch kernel halves runs on both AIV lanes"]
    return c



@case
def pipe_id():
    """Two pipes told apart by id=, pushed in the other order than popped."""
    prog = '''
# pypto.program: PipeId
import pypto.language as pl

@pl.program
class PipeId:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def g_aic(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf0: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='v2c_buf_0', size=8192, base=-1)
        buf1: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='v2c_buf_1', size=8192, base=-1)
        pl.system.aic_initialize_pipe(pl.const(0, pl.INT32), buf0, dir_mask=2, slot_size=1024, id=0)
        pl.system.aic_initialize_pipe(pl.const(0, pl.INT32), buf1, dir_mask=2, slot_size=1024, id=1)
        sum_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0, id=0)
        diff_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0, id=1)
        sum_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(sum_tile, target_memory=pl.Mem.Left)
        diff_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(diff_tile, target_memory=pl.Mem.Right)
        result: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(sum_left, diff_right)
        pl.system.tfree_to_aiv(sum_tile, id=0)
        pl.system.tfree_to_aiv(diff_tile, id=1)
        return pl.tile.store(result, [0, 0], output)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def g_aiv(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        peer0: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='v2c_buf_0', peer_func='g_aic')
        peer1: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='v2c_buf_1', peer_func='g_aic')
        pl.system.aiv_initialize_pipe(pl.const(0, pl.INT32), peer0, dir_mask=2, slot_size=1024, id=0)
        pl.system.aiv_initialize_pipe(pl.const(0, pl.INT32), peer1, dir_mask=2, slot_size=1024, id=1)
        a_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        b_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(b, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        sum_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(a_tile, b_tile)
        diff_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.sub(a_tile, b_tile)
        pl.tile.tpush_to_aic(diff_tile, split=0, id=1)
        pl.tile.tpush_to_aic(sum_tile, split=0, id=0)
        return output
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def g(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.g_aic(a, b, output)
        result: pl.Tensor[[16, 16], pl.FP32] = self.g_aiv(a, b, output)
        return result
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        result: pl.Tensor[[16, 16], pl.FP32] = self.g(a, b, output)
        return result
'''
    c = Case("pipe_id", [
        "output = (a + b) @ (a - b): the vector side pushes a - b on pipe id=1, then a + b",
        "on id=0; the cube pops id=0 first. Each id is a FIFO of its own (pypto",
        "src/ir/op/tile_ops/cross_core.cpp:455-495, emitted as the pipe's id by",
        "src/backend/common/pto_ops_crosscore.cpp:178-188; pto-isa cd4a3d3f",
        "docs/isa/TPUSH.md:45-48, TPipe<FlagID, ...>). REF ignores id: its one FIFO gives",
        "the cube a - b first, (a - b) @ (a + b). Pattern of PyPTO's test_cross_core.py",
        "MultiPipeNoSplitTest (\"fails if ids collapse onto one FIFO\"), our data."],
        prog, "main")
    a, b = ab_inputs(c, 13)
    c.out("output", "fp32", matmul_f32((a + b).astype(F32), (a - b).astype(F32)))
    c.expect = ["device: PASS", "ref: FAIL", "note: a pipe with id= is a FIFO of its own"]
    return c



@case
def nosplit_replay():
    """A no-split dual-dispatch kernel that accumulates into its output (Ascend910B)."""
    prog = '''
# pypto.program: NoSplitReplay
import pypto.language as pl

@pl.program
class NoSplitReplay:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def g_aic(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], c: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]):
''' + MM_KERNEL + '''        pl.tile.tpush_to_aiv(acc, split=0)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def g_aiv(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], c: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"dual_aiv_dispatch": True})
        c_prev: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(c, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
        c_next: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(c_prev, t)
        pl.system.tfree_to_aic(t)
        c_out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(c_next, [0, 0], c)
        return c_out
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def g(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], c: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.g_aic(a, b, c)
        r: pl.Tensor[[16, 16], pl.FP32] = self.g_aiv(a, b, c)
        return r
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], c: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r: pl.Tensor[[16, 16], pl.FP32] = self.g(a, b, c)
        return r
'''
    c = Case("nosplit_replay", [
        "c = c + a @ b, once: on Ascend910B (no backend named: ptodb's default) a no-split",
        "kernel marked dual_aiv_dispatch runs on both lanes, lane 0 the body and lane 1 a",
        "replay for the pipe handshakes whose tile.store is dropped (pypto src/ir/transforms/",
        "split_vector_kernel_pass.cpp:58-64 RequiresNoSplitDualAivSync, :398-456",
        "BuildNoSplitLane1ReplayStmts; docs/en/dev/passes/21-expand_mixed_kernel.md:248-254).",
        "REF runs the whole body on both lanes: c + 2 a @ b. Pattern of PyPTO's",
        "test_cross_core.py C2VNoSplitTest at ExpandMixedKernel, our data."],
        prog, "main")
    a, b = ab_inputs(c, 14)
    c0 = np.random.default_rng(15).standard_normal((16, 16)).astype(F32)
    c.inp("c", "fp32", c0)
    c.out("c", "fp32", (c0 + matmul_f32(a, b)).astype(F32))
    c.expect = ["device: PASS", "ref: FAIL",
                "note: lane 1 of the no-split dual-dispatch kernel g_aiv replays the pipe handshakes"]
    return c



@case
def split_kernel_whole():
    """A hand-written split kernel at full shape, before SplitVectorKernel halves it."""
    prog = '''
# pypto.program: SplitKernelWhole
import pypto.language as pl

@pl.program
class SplitKernelWhole:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def g_aic(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
''' + MM_KERNEL + '''        pl.tile.tpush_to_aiv(acc, split=1)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def g_aiv(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        popped: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)
        inc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.adds(popped, 1.0)
        pl.system.tfree_to_aic(popped)
        o: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(inc, [0, 0], out)
        return o
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def g(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        self.g_aic(a, b, out)
        r: pl.Tensor[[16, 16], pl.FP32] = self.g_aiv(a, b, out)
        return r
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r: pl.Tensor[[16, 16], pl.FP32] = self.g(a, b, out)
        return r
'''
    c = Case("split_kernel_whole", [
        "out = a @ b + 1: an AIV kernel with split UP_DOWN written at full shape (no",
        "split_aiv, no dual_aiv_dispatch yet) is one SplitVectorKernel halves into two lanes",
        "later, each popping and storing its 8 rows (pypto src/ir/transforms/",
        "split_vector_kernel_pass.cpp:64-80,496-531,667-681); together they compute the",
        "full-shape body once. REF runs it on two lanes as written: each pops 8 rows into",
        "a [16, 16] variable (check_shapes stops it). Pattern of PyPTO's tests/st/runtime/",
        "cross_core/test_cross_core_tpush_valid_shape.py V2SetValidShapeOnVectorTestCase."],
        prog, "main")
    a, b = ab_inputs(c, 16)
    c.out("out", "fp32", (matmul_f32(a, b) + F32(1)).astype(F32))
    c.expect = ["device: PASS", "ref: REF-FAIL",
                "note: the split kernel g_aiv, not halved yet, runs as one vector core over the whole tile"]
    return c



@case
def idle_lane_valid_shape():
    """A halved split kernel whose lane 1 holds no valid rows: its tiles' declared
    valid shape is an expression of the subblock index."""
    prog = '''
# pypto.program: IdleLaneValidShape
import pypto.language as pl

@pl.program
class IdleLaneValidShape:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def g_aic(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], vr: pl.Scalar[pl.INDEX]):
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
''' + MM_KERNEL + '''        narrowed: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc, pl.TileView(valid_shape=[vr, 16])] = pl.tile.set_validshape(acc, vr, 16)
        pl.tile.tpush_to_aiv(narrowed, split=1)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def g_aiv(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], vr: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN, "dual_aiv_dispatch": True})
        sb: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        popped: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[pl.min(pl.max(vr - sb * pl.const(8, pl.INDEX), pl.const(0, pl.INDEX)), pl.const(8, pl.INDEX)), 16])] = pl.tile.tpop_from_aic(split=1)
        inc: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[pl.min(pl.max(vr - sb * pl.const(8, pl.INDEX), pl.const(0, pl.INDEX)), pl.const(8, pl.INDEX)), 16])] = pl.tile.adds(popped, 1.0)
        pl.system.tfree_to_aic(popped)
        o: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(inc, [sb * 8, 0], out)
        return o
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def g(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], vr: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        self.g_aic(a, b, out, vr)
        r: pl.Tensor[[16, 16], pl.FP32] = self.g_aiv(a, b, out, vr)
        return r
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], valid_shape: pl.Tensor[[1], pl.INDEX], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        vr: pl.Scalar[pl.INDEX] = pl.tensor.read(valid_shape, [0])
        r: pl.Tensor[[16, 16], pl.FP32] = self.g(a, b, out, vr)
        return r
'''
    c = Case("idle_lane_valid_shape", [
        "out[:8] = (a @ b)[:8] + 1, out[8:] = 0: the cube pushes its result with 8 valid rows",
        "split UP_DOWN; each lane's tiles are typed valid_shape=[min(max(vr - sb*8, 0), 8),",
        "16] (SplitVectorKernel's localized form, as in PyPTO's test_cross_core_tpush_valid_",
        "shape.py C2VTpushValidShapeTestCase at pass 24), so lane 1's is 0 rows and its store",
        "writes nothing (pto-isa docs/isa/tile/ops/memory-and-data-movement/tstore.md: the",
        "transfer is GetValidRow x GetValidCol). Ignoring the symbolic extent, lane 1 would",
        "store 8 rows of the cube's padding + 1."],
        prog, "main")
    a, b = ab_inputs(c, 17)
    c.inp("valid_shape", "int64", np.array([8], dtype=np.int64))
    g = np.zeros((16, 16), dtype=F32)
    g[:8] = (matmul_f32(a, b)[:8] + F32(1)).astype(F32)
    c.out("out", "fp32", g)
    c.expect = ["device: PASS", "ref: FAIL",
                "note: the store writes the valid region its tile's type declares"]
    return c



@case
def split_aiv_scope():
    """A pl.split_aiv region inside a frontend pl.at(CORE_GROUP) scope."""
    prog = '''
# pypto.program: SplitAivScope
import pypto.language as pl

@pl.program
class SplitAivScope:
    @pl.function
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="qk"):
            a_l1: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
            b_l1: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
            a_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(a_l1, target_memory=pl.Mem.Left)
            b_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(b_l1, target_memory=pl.Mem.Right)
            qk: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, b_right)
            for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                h: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.aiv_shard(qk)
                sc: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.muls(h, 2.0)
                off: pl.Scalar[pl.INDEX] = aiv_id * 8
                out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(sc, [off, 0], out)
        return out
'''
    c = Case("split_aiv_scope", [
        "out = 2 (a @ b): the CORE_GROUP scope holding a split_aiv region is the InCore",
        "kernel OutlineIncoreScopes makes of it (stamped split_aiv), run on both vector lanes:",
        "each shards its 8 rows of the cube's result and stores them at aiv_id * 8 (pypto",
        "docs/en/dev/passes/99-verifier.md AivSplitValid (h); tile.aiv_shard: ir-format.md).",
        "Run once, as lane 0 (REF cannot run aiv_shard), rows 8..15 stay zero. Pattern of",
        "PyPTO's tests/st/runtime/cross_core/test_cross_core_split_parity.py",
        "_SplitAivMultiModeCase, our data."],
        prog, "main")
    a, b = ab_inputs(c, 18)
    c.out("out", "fp32", (matmul_f32(a, b) * F32(2)).astype(F32))
    c.expect = ["device: PASS", "ref: FAIL",
                "note: the CORE_GROUP scope holding a pl.split_aiv region runs on both AIV lanes"]
    return c



@case
def split_aiv_none_fence():
    """A task-parallel pl.split_aiv(mode=NONE) region: no shard op, both lanes run."""
    prog = '''
# pypto.program: SplitAivNoneFence
import pypto.language as pl

@pl.program
class SplitAivNoneFence:
    @pl.function
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.NONE):
                row: pl.Scalar[pl.INDEX] = aiv_id * 8
                t: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [row, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
                d: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 3.0)
                out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(d, [row, 0], out)
        return out
'''
    c = Case("split_aiv_none_fence", [
        "out = a + 3: a mode=NONE split_aiv region is task-parallel, both lanes run the full",
        "body on disjoint work chosen by aiv_id (pypto docs/en/dev/passes/",
        "21-expand_mixed_kernel.md:256-259: \"both lanes run the full body ... dropping lane-1",
        "stores would be a miscompile\"; the kernel is dual_aiv_dispatch, PyPTO #2379). REF",
        "runs the region once (it has no shard op REF lacks), as lane 0: rows 8..15 stay",
        "zero. Pattern of PyPTO's tests/st/runtime/cross_core/test_sync_set_wait.py."],
        prog, "main")
    rng = np.random.default_rng(19)
    a = rng.standard_normal((16, 16)).astype(F32)
    c.inp("a", "fp32", a)
    c.out("out", "fp32", (a + F32(3)).astype(F32))
    c.expect = ["device: PASS", "ref: FAIL",
                "note: the CORE_GROUP scope holding a pl.split_aiv region runs on both AIV lanes"]
    return c



@case
def multi_mode_split():
    """A split_aiv group whose pipes use two split modes."""
    prog = '''
# pypto.program: MultiModeSplit
import pypto.language as pl

@pl.program
class MultiModeSplit:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def qk_aic(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out_ud: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_lr: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.func_attr({"split_aiv": True})
''' + MM_KERNEL + '''        pl.tile.tpush_to_aiv(acc, split=1)
        pl.tile.tpush_to_aiv(acc, split=2)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def qk_aiv(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out_ud: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_lr: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split_aiv": True, "dual_aiv_dispatch": True})
        aiv_id: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        h: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)
        sc: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.muls(h, 2.0)
        o1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(sc, [aiv_id * 8, 0], out_ud)
        h2: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=2)
        sc2: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.muls(h2, 3.0)
        o2: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(sc2, [0, aiv_id * 8], out_lr)
        return out_lr
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def qk(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out_ud: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_lr: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split_aiv": True})
        self.qk_aic(a, b, out_ud, out_lr)
        self.qk_aiv(a, b, out_ud, out_lr)
        return out_lr
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out_ud: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_lr: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r: pl.Tensor[[16, 16], pl.FP32] = self.qk(a, b, out_ud, out_lr)
        return r
'''
    c = Case("multi_mode_split", [
        "out_ud = 2 (a @ b), out_lr = 3 (a @ b): a split_aiv kernel with one UP_DOWN and",
        "one LEFT_RIGHT pipe; each pipe op's own split is authoritative (pypto",
        "src/ir/transforms/split_vector_kernel_pass.cpp:646-661, multi-mode split_aiv), so",
        "lane L gets rows 8L..8L+7 of the first and columns 8L..8L+7 of the second. REF's",
        "codegen refuses a group with two split kwargs. Pattern of PyPTO's",
        "test_cross_core_split_parity.py _SplitAivMultiModeCase at ExpandMixedKernel."],
        prog, "main")
    a, b = ab_inputs(c, 20)
    mm = matmul_f32(a, b)
    c.out("out_ud", "fp32", (mm * F32(2)).astype(F32))
    c.out("out_lr", "fp32", (mm * F32(3)).astype(F32))
    c.expect = ["device: PASS", "ref: REF-FAIL",
                "line: Conflicting cross-core split kwargs in group qk: [1, 2]"]
    return c





def _window_case(name, stem, prog, seed):
    c = Case(name, [
        "c = a @ b with each 64-column half accumulated in place in a window (tile.slice)",
        "of one [16, 128] L0C tile, as PyPTO dumps it after %s: tile.slice is a pure" % stem[3:],
        "pto.subview of its source (pypto src/backend/common/pto_ops_datamove.cpp:1074-1080)",
        "and the MAD writes that subview (tests/st/runtime/ops/test_matmul_acc_init_cond.py:",
        "108-113), so the window's bytes are the parent's columns t*64.. whatever the window's",
        "MemRef offset says; memory sanitizer on: no fault. FP32 fma chain, compared at 1e-4."],
        prog, "orchestrator", tol=(1e-4, 1e-4), stem=stem)
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((16, 128)).astype(F32)
    b = rng.standard_normal((128, 128)).astype(F32)
    c.inp("a", "fp32", a)
    c.inp("b", "fp32", b)
    c.out("out_c", "fp32", (a.astype(np.float64) @ b.astype(np.float64)).astype(F32))
    c.expect = ["device: PASS"]
    return c


@case
def matmul_acc_window_memref():
    """The window program after InitMemRef: the window's MemRef offset is no placement."""
    return _window_case("matmul_acc_window_memref", "32_after_InitMemRef", MATMUL_ACC_WINDOW_32_PROGRAM, 31)


@case
def matmul_acc_window_addressed():
    """The window program after AllocateMemoryAddr (every window at offset 0)."""
    return _window_case("matmul_acc_window_addressed", "35_after_AllocateMemoryAddr",
                        MATMUL_ACC_WINDOW_35_PROGRAM, 32)


@case
def int8_matmul():
    """An INT8 x INT8 tensor.matmul to INT32: the cube's INT32 accumulator, no INT8 wrap."""
    prog = '''
# pypto.program: Int8Matmul
import pypto.language as pl

@pl.program
class Int8Matmul:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def int8_matmul(self, a: pl.Tensor[[16, 64], pl.INT8], b: pl.Tensor[[32, 64], pl.INT8], c: pl.Out[pl.Tensor[[16, 32], pl.INT32]]) -> pl.Tensor[[16, 32], pl.INT32]:
        acc: pl.Tensor[[16, 32], pl.INT32] = pl.tensor.matmul(a, b, a_trans=False, b_trans=True, c_matrix_nz=False, out_dtype=pl.INT32)
        c: pl.Tensor[[16, 32], pl.INT32] = pl.tensor.assemble(c, acc, [0, 0])
        return c
'''
    c = Case("int8_matmul", [
        "c = a @ b.T of INT8 [16, 64] and [32, 64] into INT32, exact (tolerance 0): the",
        "cube's only integer form takes INT8 operands into an INT32 accumulator (pto-isa",
        "cd4a3d3f include/pto/cpu/TMatmul.hpp:28, the sum in the accumulator's type at",
        ":61-74). torch's int8 matmul wraps each sum to INT8 first. The pattern of",
        "pypto-lib's quantised projections (deepseek_v4 mtp_projection, qkv_proj_rope)."],
        prog, "int8_matmul", tol=(0.0, 0.0))
    rng = np.random.default_rng(33)
    a = rng.integers(-127, 128, size=(16, 64)).astype(np.int8)
    b = rng.integers(0, 128, size=(32, 64)).astype(np.int8)
    exact = a.astype(np.int64) @ b.astype(np.int64).T
    if np.array_equal(exact.astype(np.int8).astype(np.int64), exact):
        sys.exit("gen_device_cases: int8_matmul: no sum leaves INT8; pick other data")
    c.inp("a", "int8", a)
    c.inp("b", "int8", b)
    c.out("c", "int32", exact.astype(np.int32))
    c.expect = ["device: PASS", "ref: FAIL", "note: the cube accumulates an INT8 matmul in INT32"]
    return c


@case
def spmd_submit_deps():
    """deps= on a pl.spmd_submit's TaskId orders after all of its blocks."""
    prog = '''
# pypto.program: SpmdSubmitDeps
import pypto.language as pl

@pl.program
class SpmdSubmitDeps:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def producer(x: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        blk: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 16], dtype=pl.FP32, value=7.0)
        return pl.tile.store(t, [blk * 16, 0], x)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def consumer(x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        t: pl.Tile[[64, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [64, 16], [64, 16], target_memory=pl.Mem.Vec)
        return pl.tile.store(t, [0, 0], out)
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Out[pl.Tensor[[64, 16], pl.FP32]], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            _submit_tmp: pl.Tuple[pl.Tensor[[64, 16], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.producer, x, core_num=4)
            x: pl.Tensor[[64, 16], pl.FP32] = _submit_tmp[0]
            prod_tid: pl.Scalar[pl.TASK_ID] = _submit_tmp[1]
            _submit_tmp_1: pl.Tuple[pl.Tensor[[64, 16], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.consumer, x, out, deps=[prod_tid], core_num=1)
            out: pl.Tensor[[64, 16], pl.FP32] = _submit_tmp_1[0]
        return out
'''
    c = Case("spmd_submit_deps", [
        "out = 7 everywhere: producer runs as one task on 4 blocks (pl.spmd_submit,",
        "core_num=4), each block storing its 16 rows of x; consumer, submitted with",
        "deps=[producer's TaskId], reads all 64 rows. A pl.spmd_submit is one task (one",
        "PTO2TaskId) however many blocks run it, so the dependency orders the consumer after",
        "every block: no race (the pattern of pypto-lib's deepseek_v4 decode attention)."],
        prog, "main")
    c.out("out", "fp32", np.full((64, 16), 7.0, dtype=F32))
    c.expect = ["device: PASS", "ref: REF-FAIL"]
    return c


@case
def yield_phi_view():
    """Before MemoryReuse, an if's phi is read through a view on the then-branch's buffer."""
    prog = """
# pypto.program: YieldPhiView
import pypto.language as pl

@pl.program
class YieldPhiView:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def kernel(x__ssa_v0: pl.Tensor[[16, 1], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 64)], out__ssa_v0: pl.Out[pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 64)]]) -> pl.Tensor[[1, 16], pl.FP32]:
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        a__tile: pl.Tile[[16, 1], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 1], [16, 1], target_memory=pl.Mem.Vec)
        b__tile: pl.Tile[[16, 1], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.muls(a__tile, 3.0)
        for i__idx_v0 in pl.range(1):
            if i__idx_v0 == 1:
                c__tile: pl.Tile[[16, 1], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.adds(a__tile, 1.0)
                d__tile: pl.Tile[[16, 1], pl.FP32, pl.MemRef(mem_vec_5, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.adds(b__tile, 2.0)
                c__phi_v1, d__phi_v1 = pl.yield_(c__tile, d__tile)
            else:
                c__phi_v1, d__phi_v1 = pl.yield_(a__tile, b__tile)
            c__rm_v2: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.reshape(c__phi_v1, [1, 16])
            d__rm_v2: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.reshape(d__phi_v1, [1, 16])
            s__tile: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_6, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.sub(d__rm_v2, c__rm_v2)
            out__ssa_v1: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 64)] = pl.tile.store(s__tile, [0, 0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, x__ssa_v0: pl.Tensor[[16, 1], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 64)], out__ssa_v0: pl.Out[pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 64)]]) -> pl.Tensor[[1, 16], pl.FP32]:
        out__ssa_v1: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 64)] = self.kernel(x__ssa_v0, out__ssa_v0)
        return out__ssa_v1
"""
    c = Case("yield_phi_view", [
        "out = 3x - x = 2x (the else branch): after InitMemRef, before MemoryReuse, the if's",
        "phis are read through reshape views on the then-branch's buffers (a view inherits",
        "its source's MemRef: the phi lives there), while the else branch yields tiles of",
        "other buffers. MemoryReuse's YieldFixup (memory_reuse_pass.cpp:3226), or codegen's",
        "tmov under PTOAS (pto_control_flow_codegen.cpp:426-459), moves them in: no uninit",
        "read. A multi-value yield carries no type in the dump. The pattern of pypto-lib's",
        "deepseek_v4 merge_rope_pack (online-softmax merge)."],
        prog, "orchestrator", stem="32_after_InitMemRef")
    rng = np.random.default_rng(34)
    x = rng.standard_normal((16, 1)).astype(F32)
    c.inp("x", "fp32", x)
    c.inp("out", "fp32", np.zeros((1, 16), dtype=F32))
    c.out("out", "fp32", ((x * F32(3.0)).astype(F32) - x).astype(F32).reshape(1, 16))
    c.expect = ["device: PASS"]
    return c


@case
def declared_valid_box():
    """A tile whose type declares its valid shape: the instruction runs over that box."""
    prog = """
# pypto.program: DeclaredValidBox
import pypto.language as pl

@pl.program
class DeclaredValidBox:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def kernel(x__ssa_v0: pl.Tensor[[8, 16], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 512)], out__ssa_v0: pl.Out[pl.Tensor[[8, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 512)]]) -> pl.Tensor[[8, 16], pl.FP32]:
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        for i__idx_v0 in pl.range(1):
            if i__idx_v0 == 0:
                t__tile_1: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 1024), pl.Mem.Vec, pl.TileView(valid_shape=[16, 16])] = pl.tile.load(x__ssa_v0, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
                t__tile: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 1024), pl.Mem.Vec, pl.TileView(valid_shape=[16, 16])] = pl.yield_(t__tile_1)
            else:
                t__tile_2: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 1024), pl.Mem.Vec, pl.TileView(valid_shape=[16, 16])] = pl.tile.load(x__ssa_v0, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
                t__tile: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 1024), pl.Mem.Vec, pl.TileView(valid_shape=[16, 16])] = pl.yield_(t__tile_2)
        u__tile: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.adds(t__tile, 1.0)
        v__tile: pl.Tile[[8, 16], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 512), pl.Mem.Vec] = pl.tile.slice(u__tile, [8, 16], [0, 0])
        out__ssa_v1: pl.Tensor[[8, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 512)] = pl.tile.store(v__tile, [0, 0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, x__ssa_v0: pl.Tensor[[8, 16], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 512)], out__ssa_v0: pl.Out[pl.Tensor[[8, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 512)]]) -> pl.Tensor[[8, 16], pl.FP32]:
        out__ssa_v1: pl.Tensor[[8, 16], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 512)] = self.kernel(x__ssa_v0, out__ssa_v0)
        return out__ssa_v1
"""
    c = Case("declared_valid_box", [
        "out = x + 1: a [16, 16] tile loaded from the [8, 16] x with a declared valid shape",
        "of [16, 16] (pl.TileView) reaches tile.adds through an if's typed yield. The load",
        "writes the box the tile's type declares (the device reads on past the tensor's 8",
        "rows; this interpreter's value holds 8 valid rows), so the adds reading 16 rows",
        "reads written bytes: no uninit fault. The pattern of pypto-lib's hc_head linear",
        "(a [16, 4]-valid accumulator yielded into matmul_acc); out keeps the first 8 rows."],
        prog, "orchestrator", stem="32_after_InitMemRef")
    x = np.arange(128, dtype=F32).reshape(8, 16)
    c.inp("x", "fp32", x)
    c.inp("out", "fp32", np.zeros((8, 16), dtype=F32))
    c.out("out", "fp32", (x + F32(1.0)).astype(F32))
    c.expect = ["device: PASS"]
    return c



@case
def fold_alias_slice():
    """A slice of a FoldNoOpReshape alias reads its source's bytes."""
    prog = '''
# pypto.program: FoldAliasSlice
import pypto.language as pl

@pl.program
class FoldAliasSlice:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(scale__ssa_v0: pl.Tensor[[16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[1, 16], pl.FP32]]) -> pl.Tensor[[1, 16], pl.FP32]:
        mem_vec_0: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_1: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32)
        s1: pl.Tile[[16], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.load(scale__ssa_v0, [0], [16], [16], target_memory=pl.Mem.Vec)
        s2: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = s1
        for j, (o_iter,) in pl.range(2, init_values=(out__ssa_v0,)):
            part: pl.Tile[[1, 8], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.slice(s2, [1, 8], [0, j * 8])
            shifted: pl.Tile[[1, 8], pl.FP32, pl.MemRef(mem_vec_1, pl.const(64, pl.INT64), 32), pl.Mem.Vec] = pl.tile.adds(part, 1.0)
            o_next: pl.Tensor[[1, 16], pl.FP32] = pl.tile.store(shifted, [0, j * 8], o_iter)
            o_rv: pl.Tensor[[1, 16], pl.FP32] = pl.yield_(o_next)
        return o_rv
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, scale__ssa_v0: pl.Tensor[[16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[1, 16], pl.FP32]]) -> pl.Tensor[[1, 16], pl.FP32]:
        out__ssa_v1: pl.Tensor[[1, 16], pl.FP32] = self.kernel(scale__ssa_v0, out__ssa_v0)
        return out__ssa_v1
'''
    c = Case("fold_alias_slice", [
        "out = scale + 1, half by half: FoldNoOpReshape left `s2 = s1` for a reshape of the",
        "rank-1 scale to [1, 16] (both on one MemRef: pypto src/ir/transforms/",
        "fold_no_op_reshape_pass.cpp:37-73), and a tile.slice of s2 at a loop offset is a",
        "pto.subview of those bytes (pypto src/backend/common/pto_ops_datamove.cpp:1074-1080):",
        "the second half reads scale[8:16] where the load put it. The memory sanitizer runs",
        "(after AllocateMemoryAddr): no fault, PASS. The reference's shape check of s2",
        "([16] for [1, 16]) is a note."],
        prog, "main", stem="36_after_FoldNoOpReshape")
    scale = np.arange(1, 17, dtype=F32)
    c.inp("scale", "fp32", scale)
    c.out("out", "fp32", (scale + 1).reshape(1, 16).astype(F32))
    c.expect = ["device: PASS", "ref: REF-FAIL", "note: the value has another shape or dtype than its type says"]
    return c


_SYNCALL_DOC = [
    "out rows 16b..16b+15 = x rows of block (b+1) % 4: each of the 4 blocks of",
    "a pl.spmd(4, sync_start=True) launch copies its 16 rows of x into scratch, passes",
    "pl.system.syncall, then reads its neighbour's rows. SYNCALL is a barrier of every",
    "participant (pto-isa include/pto/npu/a2a3/SyncAll.hpp:19-46; PyPTO lowers",
    "system.syncall to it: src/backend/common/pto_ops_crosscore.cpp:633-646), so every",
    "block's copy lands before any block reads (the pattern of pypto-lib's qwen3_14b",
    "prefill attention: qk_pv_skew_probe_spmd's finalize reads other blocks' rows)."]


def _syncall_x():
    return np.random.default_rng(39).standard_normal((64, 16)).astype(F32)


def _syncall_golden(x):
    return np.concatenate([x[16 * ((b + 1) % 4):16 * ((b + 1) % 4) + 16] for b in range(4)])


@case
def syncall_barrier():
    """system.syncall in a frontend pl.spmd loop: a barrier of every block."""
    prog = """
# pypto.program: SyncallBarrier
import pypto.language as pl

@pl.program
class SyncallBarrier:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        scratch: pl.Tensor[[64, 16], pl.FP32] = pl.tensor.create([64, 16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        for blk in pl.spmd(4, sync_start=True, name_hint="two_phase_spmd"):
            scratch: pl.Tensor[[64, 16], pl.FP32] = pl.tensor.assemble(scratch, pl.tensor.slice(x, [16, 16], [blk * 16, 0]), [blk * 16, 0])
            pl.system.syncall(core_type='mix')
            nxt: pl.Scalar[pl.INDEX] = (blk + 1) % 4
            out: pl.Tensor[[64, 16], pl.FP32] = pl.tensor.assemble(out, pl.tensor.slice(scratch, [16, 16], [nxt * 16, 0]), [blk * 16, 0])
        return out
"""
    c = Case("syncall_barrier", _SYNCALL_DOC, prog, "main")
    x = _syncall_x()
    c.inp("x", "fp32", x)
    c.out("out", "fp32", _syncall_golden(x))
    c.expect = ["device: PASS", "ref: FAIL"]
    return c


def _syncall_kernel_case(name, cls, decorator, core_type, stem):
    """Each block of a core_num=4 launch of kernel two_phase copies its rows of x to
    scratch, passes the syncall, then reads its neighbour's rows."""
    prog = """
# pypto.program: %(cls)s
import pypto.language as pl

@pl.program
class %(cls)s:
    %(decorator)s
    def two_phase(x: pl.Tensor[[64, 16], pl.FP32], scratch: pl.InOut[pl.Tensor[[64, 16], pl.FP32]], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        blk: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [blk * 16, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        scratch_1: pl.Tensor[[64, 16], pl.FP32] = pl.tile.store(t, [blk * 16, 0], scratch)
        pl.system.syncall(core_type='%(core_type)s')
        nxt: pl.Scalar[pl.INDEX] = (blk + 1) %% 4
        u: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(scratch_1, [nxt * 16, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        out_1: pl.Tensor[[64, 16], pl.FP32] = pl.tile.store(u, [blk * 16, 0], out)
        return out_1
    @pl.function(type=pl.FunctionType.Spmd)
    def two_phase_spmd(self, x: pl.Tensor[[64, 16], pl.FP32], scratch: pl.InOut[pl.Tensor[[64, 16], pl.FP32]], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        r: pl.Tensor[[64, 16], pl.FP32] = self.two_phase(x, scratch, out)
        return r
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        scratch: pl.Tensor[[64, 16], pl.FP32] = pl.tensor.create([64, 16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        out_1: pl.Tensor[[64, 16], pl.FP32] = self.two_phase_spmd(x, scratch, out, attrs={"core_num": 4, "sync_start": True})
        return out_1
""" % {"cls": cls, "decorator": decorator, "core_type": core_type}
    c = Case(name, _SYNCALL_DOC, prog, "main", stem=stem)
    x = _syncall_x()
    c.inp("x", "fp32", x)
    c.out("out", "fp32", _syncall_golden(x))
    c.expect = ["device: PASS", "ref: FAIL"]
    return c


@case
def syncall_barrier_call():
    """system.syncall in a kernel a core_num launch calls on the host: the blocks park in the callee."""
    return _syncall_kernel_case(
        "syncall_barrier_call", "SyncallBarrierCall",
        "@pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)",
        "aiv_only", "11_after_ConvertTensorToTileOps")


@case
def syncall_barrier_kernel():
    """system.syncall in an AIV kernel a core_num launch runs: the block parks with its group run."""
    return _syncall_kernel_case(
        "syncall_barrier_kernel", "SyncallBarrierKernel",
        "@pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)",
        "aiv_only", "24_after_SplitVectorKernel")


@case
def move_source_stays():
    """A tile.move leaves its source where it is: a Mat tile moved into Right twice."""
    ddr = lambda i, n: 'pl.MemRef("mem_ddr_%d", pl.const(0, pl.INT64), %d)' % (i, n)
    prog = """
# pypto.program: MoveSourceStays
import pypto.language as pl

@pl.program
class MoveSourceStays:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def two_moves(x__ssa_v0: pl.Tensor[[16, 64], pl.FP32, %(x)s], k__ssa_v0: pl.Tensor[[64, 64], pl.FP32, %(k)s], v__ssa_v0: pl.Tensor[[64, 64], pl.FP32, %(v)s], out_k__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32, %(ok)s]], out_v__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32, %(ov)s]]) -> pl.Tensor[[16, 64], pl.FP32]:
        mem_mat_5: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 4096)
        mem_mat_6: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 16384)
        mem_mat_7: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 16384)
        mem_left_8: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 4096)
        mem_right_9: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 16384)
        mem_acc_10: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 4096)
        mem_acc_11: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 4096)
        x_l1__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_mat_5, pl.const(0, pl.INT64), 4096), pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
        k_l1__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_mat_6, pl.const(4096, pl.INT64), 16384), pl.Mem.Mat] = pl.tile.load(k__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        v_l1__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_mat_7, pl.const(20480, pl.INT64), 16384), pl.Mem.Mat] = pl.tile.load(v__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        x_l0__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_left_8, pl.const(0, pl.INT64), 4096), pl.Mem.Left] = pl.tile.move(x_l1__ssa_v0, target_memory=pl.Mem.Left)
        for i__idx_v0 in pl.range(2):
            k_l0__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_right_9, pl.const(0, pl.INT64), 16384), pl.Mem.Right] = pl.tile.move(k_l1__ssa_v0, target_memory=pl.Mem.Right)
            sk__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_acc_10, pl.const(0, pl.INT64), 4096), pl.Mem.Acc] = pl.tile.matmul(x_l0__ssa_v0, k_l0__ssa_v0)
            v_l0__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_right_9, pl.const(0, pl.INT64), 16384), pl.Mem.Right] = pl.tile.move(v_l1__ssa_v0, target_memory=pl.Mem.Right)
            sv__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_acc_11, pl.const(4096, pl.INT64), 4096), pl.Mem.Acc] = pl.tile.matmul(x_l0__ssa_v0, v_l0__ssa_v0)
            ok__ssa_v0: pl.Tensor[[16, 64], pl.FP32, %(ok)s] = pl.tile.store(sk__ssa_v0, [0, 0], out_k__ssa_v0)
            ov__ssa_v0: pl.Tensor[[16, 64], pl.FP32, %(ov)s] = pl.tile.store(sv__ssa_v0, [0, 0], out_v__ssa_v0)
        return out_k__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, x__ssa_v0: pl.Tensor[[16, 64], pl.FP32, %(x)s], k__ssa_v0: pl.Tensor[[64, 64], pl.FP32, %(k)s], v__ssa_v0: pl.Tensor[[64, 64], pl.FP32, %(v)s], out_k__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32, %(ok)s]], out_v__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32, %(ov)s]]) -> pl.Tensor[[16, 64], pl.FP32]:
        r__ssa_v0: pl.Tensor[[16, 64], pl.FP32, %(ok)s] = self.two_moves(x__ssa_v0, k__ssa_v0, v__ssa_v0, out_k__ssa_v0, out_v__ssa_v0)
        return out_k__ssa_v0
""" % {"x": ddr(0, 4096), "k": ddr(1, 16384), "v": ddr(2, 16384), "ok": ddr(3, 4096), "ov": ddr(4, 4096)}
    c = Case("move_source_stays", [
        "out_k = x @ k, out_v = x @ v, each stored twice: k and v sit in Mat, and each",
        "iteration moves k, then v, into the one Right buffer (the pattern of pypto-lib's",
        "qwen3_14b prefill attention after MemoryReuse: k_tile and v_tile share L0B). TMOV",
        "copies a tile into the target's buffer and leaves the source where it is, so the",
        "second iteration's move of k reads Mat, which nothing overwrote: no memory fault.",
        "The cube's FP32 matmul: an fma chain (pto-isa include/pto/cpu/TMatmul.hpp:61-74)."],
        prog, "orchestrator", stem="35_after_AllocateMemoryAddr")
    rng = np.random.default_rng(40)
    x = rng.standard_normal((16, 64)).astype(F32)
    k = rng.standard_normal((64, 64)).astype(F32)
    v = rng.standard_normal((64, 64)).astype(F32)
    for name, arr in (("x", x), ("k", k), ("v", v)):
        c.inp(name, "fp32", arr)
    c.inp("out_k", "fp32", np.zeros((16, 64), dtype=F32))
    c.inp("out_v", "fp32", np.zeros((16, 64), dtype=F32))
    c.out("out_k", "fp32", matmul_f32(x, k))
    c.out("out_v", "fp32", matmul_f32(x, v))
    c.expect = ["device: PASS", "ref: PASS"]
    return c



@case
def syncall_barrier_memory():
    """A block parked at a syncall keeps its cores' on-chip memory: a tile loaded before it is read after."""
    ddr = lambda i: 'pl.MemRef("mem_ddr_%d", pl.const(0, pl.INT64), 4096)' % i
    t = lambda n: ("pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_%d, pl.const(0, pl.INT64), 1024), pl.Mem.Vec]" % n)
    params = ("x__ssa_v0: pl.Tensor[[64, 16], pl.FP32, %s], scratch__ssa_v0: pl.InOut[pl.Tensor[[64, 16], pl.FP32, %s]], "
              "out__ssa_v0: pl.Out[pl.Tensor[[64, 16], pl.FP32, %s]]" % (ddr(0), ddr(1), ddr(2)))
    prog = """
# pypto.program: SyncallBarrierMemory
import pypto.language as pl

@pl.program
class SyncallBarrierMemory:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def two_phase(%(params)s) -> pl.Tensor[[64, 16], pl.FP32]:
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        blk__ssa_v0: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        mine__ssa_v0: %(t3)s = pl.tile.load(x__ssa_v0, [blk__ssa_v0 * 16, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        scratch__ssa_v1: pl.Tensor[[64, 16], pl.FP32, %(d1)s] = pl.tile.store(mine__ssa_v0, [blk__ssa_v0 * 16, 0], scratch__ssa_v0)
        pl.system.syncall(core_type='aiv_only')
        nxt__ssa_v0: pl.Scalar[pl.INDEX] = (blk__ssa_v0 + 1) %% 4
        theirs__ssa_v0: %(t4)s = pl.tile.load(scratch__ssa_v1, [nxt__ssa_v0 * 16, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        sum__ssa_v0: %(t5)s = pl.tile.add(mine__ssa_v0, theirs__ssa_v0)
        out__ssa_v1: pl.Tensor[[64, 16], pl.FP32, %(d2)s] = pl.tile.store(sum__ssa_v0, [blk__ssa_v0 * 16, 0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Spmd)
    def two_phase_spmd(self, %(params)s) -> pl.Tensor[[64, 16], pl.FP32]:
        out__ssa_v1: pl.Tensor[[64, 16], pl.FP32, %(d2)s] = self.two_phase(x__ssa_v0, scratch__ssa_v0, out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, %(params)s) -> pl.Tensor[[64, 16], pl.FP32]:
        out__ssa_v1: pl.Tensor[[64, 16], pl.FP32, %(d2)s] = self.two_phase_spmd(x__ssa_v0, scratch__ssa_v0, out__ssa_v0, attrs={"core_num": 4, "sync_start": True})
        return out__ssa_v1
""" % {"params": params, "t3": t(3), "t4": t(4), "t5": t(5), "d1": ddr(1), "d2": ddr(2)}
    c = Case("syncall_barrier_memory", [
        "out rows 16b.. = x rows of block b + x rows of block (b+1) % 4: each block loads its",
        "rows into a Vec tile, stores them to scratch, passes pl.system.syncall, loads its",
        "neighbour's rows and adds the tile it loaded before the barrier. On the device every",
        "block runs on cores of its own (pl.spmd(4, sync_start=True)), so that tile is still",
        "in its Vec when it resumes: SYNCALL only waits (pto-isa include/pto/npu/a2a3/",
        "SyncAll.hpp:19-46). The pattern of PyPTO's tests/st cross_core.syncall cases."],
        prog, "main", stem="32_after_InitMemRef")
    x = _syncall_x()
    c.inp("x", "fp32", x)
    c.inp("scratch", "fp32", np.zeros((64, 16), dtype=F32))
    c.inp("out", "fp32", np.zeros((64, 16), dtype=F32))
    c.out("out", "fp32", (x + _syncall_golden(x)).astype(F32))
    c.expect = ["device: PASS", "ref: FAIL"]
    return c


@case
def gm_fence_cube_vector():
    """The cube stores a GM scratch and pushes a fence token; the vector side pops it, then loads the scratch."""
    prog = """
# pypto.program: GmFenceCubeVector
import pypto.language as pl

@pl.program
class GmFenceCubeVector:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def mm_aic(x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], kv: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        x_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        w_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        x_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
        w_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, w_right)
        kv_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(t, [0, 0], kv)
        pl.tile.tpush_to_aiv(t, split=0)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def mm_aiv(x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], kv: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        fence: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
        pl.system.tfree_to_aic(fence)
        k: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(kv, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        k_1: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.adds(k, 1.0)
        out_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(k_1, [0, 0], out)
        return out_1
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def mm_group(x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], kv: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.mm_aic(x, w, kv, out)
        out_1: pl.Tensor[[16, 16], pl.FP32] = self.mm_aiv(x, w, kv, out)
        return out_1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        kv: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.create([16, 16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        out_1: pl.Tensor[[16, 16], pl.FP32] = self.mm_group(x, w, kv, out)
        return out_1
"""
    c = Case("gm_fence_cube_vector", [
        "out = x @ w + 1: the cube stores x @ w to the GM scratch kv, then pushes the tile",
        "to the vector core as a fence token; the vector core pops it (and frees it) before",
        "it loads kv. The pop waits for the push, which follows the store, so the load reads",
        "the cube's bytes: the handshake PyPTO's ExpandMixedKernel emits for such a GM",
        "store/load pair (pypto src/ir/transforms/expand_mixed_kernel_pass.cpp:297-311 at",
        "63614e60f). The GM race check finds the edge: no race (tests/cli/gm_race.sh)."],
        prog, "main", stem="22_after_ExpandMixedKernel")
    rng = np.random.default_rng(41)
    x = rng.standard_normal((16, 16)).astype(F32)
    w = rng.standard_normal((16, 16)).astype(F32)
    c.inp("x", "fp32", x)
    c.inp("w", "fp32", w)
    c.out("out", "fp32", (matmul_f32(x, w) + np.float32(1.0)).astype(F32))
    c.expect = ["device: PASS", "ref: PASS"]
    return c


@case
def spmd_gm_write_race():
    """Two blocks of one launch store different rows of x into the same rows of out, with no syncall between."""
    prog = """
# pypto.program: SpmdGmWriteRace
import pypto.language as pl

@pl.program
class SpmdGmWriteRace:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def fill(x: pl.Tensor[[32, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        blk: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [blk * 16, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        out_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(t, [0, 0], out)
        return out_1
    @pl.function(type=pl.FunctionType.Spmd)
    def fill_spmd(self, x: pl.Tensor[[32, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r: pl.Tensor[[16, 16], pl.FP32] = self.fill(x, out)
        return r
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[32, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out_1: pl.Tensor[[16, 16], pl.FP32] = self.fill_spmd(x, out, attrs={"core_num": 2})
        return out_1
"""
    c = Case("spmd_gm_write_race", [
        "A race: block b of a core_num=2 launch stores rows 16b..16b+15 of x into out[0:16],",
        "the same bytes for both blocks, with no pl.system.syncall between. The blocks run in",
        "parallel on cores of their own, ordered by nothing (only a syncall orders them: pto-isa",
        "include/pto/npu/a2a3/SyncAll.hpp:19-46), so out is either block's rows. ptodb's fixed",
        "schedule runs block 0 then block 1 (out = x[16:32], the golden here); the GM race",
        "check stops the pass at block 1's store, naming both stores and both blocks."],
        prog, "main", stem="24_after_SplitVectorKernel")
    x = np.random.default_rng(42).standard_normal((32, 16)).astype(F32)
    c.inp("x", "fp32", x)
    c.out("out", "fp32", x[16:32].copy())
    c.expect = ["device: ERROR", "ref: FAIL",
                "line: 24_after_SplitVectorKernel.py:10:47: in fill: race: AIV0 of block 1 writes out[0:16, 0:16] "
                "at 24:10:9 that AIV0 of block 0 wrote at 24:10:9 (in fill) with no barrier between"]
    return c


def main():
    for make in CASES:
        c = make()
        c.write()
        print("tests/data/device/%s: %s" % (c.name, c.doc[0]))


if __name__ == "__main__":
    main()
