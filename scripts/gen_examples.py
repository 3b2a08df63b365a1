#!/usr/bin/python3
"""Generate the input and golden .npy files of the bundled examples.

Run with Debian's /usr/bin/python3 (it has numpy; the python3 first on PATH may
not):

    /usr/bin/python3 scripts/gen_examples.py            # from the repository root

The golden outputs are computed here with numpy, independently of ptodb, by
emulating what the device computes for the frontend program of each example
(where it differs from PyPTO's torch reference, semantics.md, the device):

* fp32 elementwise ops are single IEEE float32 operations (numpy float32);
* exp and sums are done in double and rounded once to float32;
* rsqrt is 1/sqrt(x) with two float32 roundings;
* bf16 is the upper half of an fp32 pattern, rounded to nearest even;
* a matmul of two bf16 operands with an fp32 result accumulates in fp32 on
  the cube, k in order, never rounded to bf16 (the device's semantics;
  PyTorch's reference rounds it to bf16 first);
* a cast to bf16 rounds to nearest even.

bf16 arrays are stored as '<u2' (the raw 16-bit patterns); the manifests say
`dtype: bf16` for them. The seed is fixed and the script writes the same bytes
on every run.
"""

import os
import sys

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
EXAMPLES = os.path.join(ROOT, "examples")
F32 = np.float32


# ---- bf16 helpers ---------------------------------------------------------

def bf16_bits(a):
    """fp32 array -> uint16 bf16 patterns, round to nearest, ties to even."""
    bits = np.ascontiguousarray(a, dtype=F32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def bf16_widen(bits):
    """uint16 bf16 patterns -> fp32 values (exact)."""
    return (bits.astype(np.uint32) << 16).view(F32)


def to_bf16(a):
    """Round an fp32 array to bf16 and return the values as fp32."""
    return bf16_widen(bf16_bits(a))


# ---- reference ops (REF rounding points) ---------------------------------

def matmul_bf16(a, b):
    """bf16 @ bf16 -> fp32 as the cube computes it: per element an fp32
    running sum from +0 in k order of the exact products, never rounded to
    bf16 (pto-isa cd4a3d3f include/pto/cpu/TMatmul.hpp:61-74)."""
    a = np.asarray(a, dtype=F32)
    b = np.asarray(b, dtype=F32)
    acc = np.zeros((a.shape[0], b.shape[1]), dtype=F32)
    for k in range(a.shape[1]):
        acc = (acc + (a[:, k:k + 1] * b[k:k + 1, :]).astype(F32)).astype(F32)
    return acc


def row_sum(a):
    return a.astype(np.float64).sum(axis=-1, keepdims=True).astype(F32)


def exp32(a):
    return np.exp(a.astype(np.float64)).astype(F32)


def rsqrt32(a):
    return (F32(1.0) / np.sqrt(a.astype(F32))).astype(F32)


def recip32(a):
    return (F32(1.0) / a).astype(F32)


# ---- the examples ----------------------------------------------------------

def mlp_inputs():
    rng = np.random.RandomState(20261129)
    x = rng.standard_normal((16, 64)).astype(F32)
    norm_w = (1.0 + 0.1 * rng.standard_normal((1, 64))).astype(F32)
    w_gate = bf16_bits((0.125 * rng.standard_normal((64, 128))).astype(F32))
    w_up = bf16_bits((0.125 * rng.standard_normal((64, 128))).astype(F32))
    w_down = bf16_bits((0.1 * rng.standard_normal((128, 64))).astype(F32))
    return x, norm_w, w_gate, w_up, w_down


def mlp_golden(x, norm_w, w_gate, w_up, w_down, swap_sigmoid_input=False):
    """00_frontend.py of examples/mlp, step by step.

    swap_sigmoid_input=True computes what the planted bug of examples/mlp-broken
    computes (sigmoid of the up projection instead of the gate projection); it is
    used only to check that the bug is far outside the tolerance.
    """
    wg, wu, wd = bf16_widen(w_gate), bf16_widen(w_up), bf16_widen(w_down)
    # RMSNorm, eps = 1e-6 (the printed constant 9.9999999999999995e-07)
    sq_sum = row_sum(x * x)                                   # [16, 1]
    ms = (sq_sum.reshape(1, 16) * F32(0.015625)).astype(F32)  # [1, 16]
    inv_rms = rsqrt32((ms + F32(9.9999999999999995e-07)).astype(F32))
    xn = (x * inv_rms.reshape(16, 1)).astype(F32)             # row_expand_mul
    xn = (xn * norm_w).astype(F32)                            # col_expand_mul
    xn_bf16 = to_bf16(xn)
    # SwiGLU over two 64-wide chunks of the intermediate dim, fp32 accumulation
    down_acc = np.zeros((16, 64), dtype=F32)
    for ib in range(2):
        i0 = ib * 64
        gate = matmul_bf16(xn_bf16, wg[:, i0:i0 + 64])
        up = matmul_bf16(xn_bf16, wu[:, i0:i0 + 64])
        s_in = up if swap_sigmoid_input else gate
        sigmoid = recip32((exp32(-s_in) + F32(1.0)).astype(F32))
        h = ((gate * sigmoid).astype(F32) * up).astype(F32)
        h_bf16 = to_bf16(h)
        down_acc = (down_acc + matmul_bf16(h_bf16, wd[i0:i0 + 64, :])).astype(F32)
    return (x + down_acc).astype(F32)


def deadlock_inputs():
    rng = np.random.RandomState(20261130)
    x = rng.standard_normal((16, 64)).astype(F32)
    w = bf16_bits((0.125 * rng.standard_normal((64, 64))).astype(F32))
    bias = (0.5 * rng.standard_normal((16, 64))).astype(F32)
    return x, w, bias


def deadlock_golden(x, w, bias):
    """00_frontend.py of examples/deadlock."""
    xs_bf16 = to_bf16((x * F32(0.5)).astype(F32))
    acc = matmul_bf16(xs_bf16, bf16_widen(w))
    return (acc + bias).astype(F32)


def spmd_inputs():
    rng = np.random.RandomState(20261201)
    a = rng.standard_normal((64, 32)).astype(F32)
    b = rng.standard_normal((64, 32)).astype(F32)
    return a, b


def spmd_golden(a, b):
    """examples/spmd: every one of the 4 blocks computes its 16 rows."""
    return (a * F32(2.0) + b).astype(F32)


def memory_inputs():
    rng = np.random.RandomState(20261201)
    a = rng.standard_normal((16, 64)).astype(F32)
    b = rng.standard_normal((16, 64)).astype(F32)
    return a, b


def multirank_signals_inputs():
    """examples/multirank_signals: rank r's slice of x, [1, 8] fp32."""
    rng = np.random.RandomState(20261202)
    return [rng.standard_normal((1, 8)).astype(F32) for _ in range(2)]


# ---- output -----------------------------------------------------------------

def save(case, sub, name, arr):
    d = os.path.join(EXAMPLES, case, "data", sub)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name + ".npy")
    # Fixed dtype byte order so the header is the same on every machine.
    if arr.dtype == np.uint16:
        arr = arr.astype("<u2")
    else:
        arr = arr.astype("<f4")
    np.save(path, np.ascontiguousarray(arr), allow_pickle=False)
    return path


def main():
    x, norm_w, w_gate, w_up, w_down = mlp_inputs()
    golden = mlp_golden(x, norm_w, w_gate, w_up, w_down)
    broken = mlp_golden(x, norm_w, w_gate, w_up, w_down, swap_sigmoid_input=True)
    tol = 0.05 + 0.05 * np.abs(golden)
    bad = np.abs(broken - golden) > tol
    if bad.mean() < 0.25:
        sys.exit("gen_examples: the planted mlp-broken bug is too small to detect")
    for case in ("mlp", "mlp-broken"):
        for name, arr in (("x", x), ("norm_w", norm_w), ("w_gate", w_gate),
                          ("w_up", w_up), ("w_down", w_down)):
            save(case, "in", name, arr)
        save(case, "out", "out", golden)

    dx, dw, dbias = deadlock_inputs()
    for name, arr in (("x", dx), ("w", dw), ("bias", dbias)):
        save("deadlock", "in", name, arr)
    save("deadlock", "out", "out", deadlock_golden(dx, dw, dbias))

    # a multi-rank case: data/in/rank<R>/, data/out/rank<R>/ (docs/multirank.md);
    # every pass computes out = x + 1 on each rank (one fp32 add)
    for r, xr in enumerate(multirank_signals_inputs()):
        save("multirank_signals", "in/rank%d" % r, "x", xr)
        save("multirank_signals", "out/rank%d" % r, "out", (xr + F32(1.0)).astype(F32))

    sa, sb = spmd_inputs()
    save("spmd", "in", "a", sa)
    save("spmd", "in", "b", sb)
    save("spmd", "out", "out", spmd_golden(sa, sb))
    ma, mb = memory_inputs()
    save("memory", "in", "a", ma)
    save("memory", "in", "b", mb)
    save("memory", "out", "out", (ma + mb).astype(F32))  # one fp32 add per element

    print("mlp: out max |golden| %.3f; mlp-broken differs beyond tolerance in %.0f%% "
          "of elements (max diff %.3f)"
          % (np.abs(golden).max(), 100.0 * bad.mean(), np.abs(broken - golden).max()))


if __name__ == "__main__":
    main()
