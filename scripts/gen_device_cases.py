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
                "tolerance: {rtol: %r, atol: %r}" % self.tol, "inputs:"]
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


CASES = []


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


def main():
    for make in CASES:
        c = make()
        c.write()
        print("tests/data/device/%s: %s" % (c.name, c.doc[0]))


if __name__ == "__main__":
    main()
