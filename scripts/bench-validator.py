#!/usr/bin/env python3
"""One run of PyPTO's validator on a case, timed in-process: the inputs and
goldens loaded from CASE/data/{in,out}/*.pt, then one call of
pypto.debug.torch_codegen.validate_pass_ir_codegen_results(CASE/passes_dump,
...) (what a case's timing.txt records). Prints the call's wall seconds and
its CPU seconds on one line; exit 2 when torch or PyPTO cannot be imported.
Used by scripts/bench.d/large; needs PyPTO on PYTHONPATH (its env.sh)."""
import os
import sys
import time

try:
    import torch
    from pypto.debug.torch_codegen import validate_pass_ir_codegen_results
except Exception as e:  # noqa: BLE001 - any import failure means "not here"
    print(f"validator unavailable: {e}", file=sys.stderr)
    sys.exit(2)


def load(folder):
    out = {}
    for f in sorted(os.listdir(folder)):
        if f.endswith(".pt"):
            out[f[:-3]] = torch.load(os.path.join(folder, f))
    return out


def main():
    case = sys.argv[1]
    tensors = load(os.path.join(case, "data", "in"))
    expected = load(os.path.join(case, "data", "out"))
    # pure outputs start as zeros (the case's README: "start as zeros")
    for k, v in expected.items():
        tensors.setdefault(k, torch.zeros_like(v))
    w0, c0 = time.perf_counter(), time.process_time()
    validate_pass_ir_codegen_results(os.path.join(case, "passes_dump"), tensors, expected)
    print(f"{time.perf_counter() - w0:.3f} {time.process_time() - c0:.3f}")


if __name__ == "__main__":
    main()
