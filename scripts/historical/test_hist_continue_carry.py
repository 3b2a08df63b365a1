# A ptodb test program (not PyPTO's): the regression program of PyPTO #652 (fixed by 79a52f1c6),
# tests/ut/ir/transforms/test_ctrl_flow_transform.py::test_continue_in_for, made runnable: a loop
# with an explicit carry whose body continues on i < 5 and doubles the carry otherwise.
# The kernel shape follows tests/st/runtime/control_flow/test_ctrl_flow.py::TestForLoopContinue.
from typing import Any

import pypto.language as pl
import pytest
import torch
from harness.core.harness import DataType, PTOTestCase, TensorSpec

ROWS = 16
COLS = 64


def _program() -> Any:
    @pl.program
    class ContinueCarryProgram:
        @pl.function(type=pl.FunctionType.InCore, strict_ssa=True)
        def kernel_continue_carry(
            self,
            x: pl.Tensor[[ROWS, COLS], pl.FP32],
            out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
            x_0: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(x, [0, 0], [ROWS, COLS])
            for i, (x_iter,) in pl.range(0, 10, 1, init_values=(x_0,)):
                if i < 5:
                    continue
                y: pl.Tile[[ROWS, COLS], pl.FP32] = pl.add(x_iter, x_iter)
                x_iter = pl.yield_(y)
            out_1: pl.Tensor[[ROWS, COLS], pl.FP32] = pl.store(x_iter, [0, 0], out)
            return out_1

        @pl.function(type=pl.FunctionType.Orchestration)
        def orchestrator(
            self,
            x: pl.Tensor[[ROWS, COLS], pl.FP32],
            out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
        ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
            out = self.kernel_continue_carry(x, out)
            return out

    return ContinueCarryProgram


class ContinueCarryTestCase(PTOTestCase):
    """for i in range(10) with a carry: continue while i < 5, else double it: out = x * 2**5 (#652)."""

    __test__ = False

    def __init__(self, *, platform: str | None = None, config=None):
        super().__init__(config, platform=platform)

    def get_name(self) -> str:
        return "hist_continue_carry"

    def define_tensors(self) -> list[TensorSpec]:
        return [
            TensorSpec("x", [ROWS, COLS], DataType.FP32, init_value=torch.randn),
            TensorSpec("out", [ROWS, COLS], DataType.FP32, is_output=True),
        ]

    def get_program(self) -> Any:
        return _program()

    def compute_expected(self, tensors, params=None) -> None:
        tensors["out"][:] = tensors["x"] * 32.0


class TestHistContinueCarry:
    def test_continue_carry(self, test_runner):
        result = test_runner.run(ContinueCarryTestCase())
        assert result.passed, result.error
