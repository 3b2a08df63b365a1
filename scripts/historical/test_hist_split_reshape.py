# A ptodb test program (not PyPTO's): the pattern of PyPTO #1784 (fixed by 6c9481b2b), as its unit test
# tests/ut/ir/transforms/test_split_vector_kernel.py::...reshape_of_full_tile describes it: under a
# LEFT_RIGHT split a rank-1 per-channel scale is loaded whole and reshaped to a [1, N] row; each AIV lane
# must read its own half of the scale (here: add 1 and store it beside the popped matmul result).
# The kernel shape follows tests/st/runtime/cross_core/test_cross_core_split_parity.py (LEFT_RIGHT program).
from typing import Any

import pypto.language as pl
import pytest
import torch
from harness.core.harness import DataType, PTOTestCase, TensorSpec

ROWS = 16
COLS = 16
SLOT_SIZE_BYTES = ROWS * COLS * 4
BUFFER_SIZE_BYTES = SLOT_SIZE_BYTES * 4


def _program() -> Any:
    @pl.program
    class SplitScaleReshapeLR:
        @pl.function(type=pl.FunctionType.AIC, attrs={"split": pl.SplitMode.LEFT_RIGHT})
        def cube_producer(
            self,
            a: pl.Tensor[[ROWS, COLS], pl.BF16],
            b: pl.Tensor[[ROWS, COLS], pl.BF16],
            scale: pl.Tensor[[COLS], pl.FP32],
            output: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
            scale_out: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
        ):
            c2v_peer = pl.import_peer_buffer(name="c2v_slot_buffer", peer_func="vector_consumer")
            pl.aic_initialize_pipe(dir_mask=1, slot_size=SLOT_SIZE_BYTES, c2v_consumer_buf=c2v_peer)
            a_mat: pl.Tile[[ROWS, COLS], pl.BF16, pl.Mem.Mat] = pl.load(
                a, [0, 0], [ROWS, COLS], target_memory=pl.MemorySpace.Mat
            )
            b_mat: pl.Tile[[ROWS, COLS], pl.BF16, pl.Mem.Mat] = pl.load(
                b, [0, 0], [ROWS, COLS], target_memory=pl.MemorySpace.Mat
            )
            a_left: pl.Tile[[ROWS, COLS], pl.BF16, pl.Mem.Left] = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
            b_right: pl.Tile[[ROWS, COLS], pl.BF16, pl.Mem.Right] = pl.move(
                b_mat, target_memory=pl.MemorySpace.Right
            )
            acc: pl.Tile[[ROWS, COLS], pl.FP32] = pl.matmul(a_left, b_right)
            pl.tpush_to_aiv(acc, split=2)

        @pl.function(type=pl.FunctionType.AIV, attrs={"split": pl.SplitMode.LEFT_RIGHT})
        def vector_consumer(
            self,
            a: pl.Tensor[[ROWS, COLS], pl.BF16],
            b: pl.Tensor[[ROWS, COLS], pl.BF16],
            scale: pl.Tensor[[COLS], pl.FP32],
            output: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
            scale_out: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
        ) -> tuple[pl.Tensor[[ROWS, COLS], pl.FP32], pl.Tensor[[1, COLS], pl.FP32]]:
            c2v_buf = pl.reserve_buffer(name="c2v_slot_buffer", size=BUFFER_SIZE_BYTES, base=0x2000)
            pl.aiv_initialize_pipe(dir_mask=1, slot_size=SLOT_SIZE_BYTES, c2v_consumer_buf=c2v_buf)
            popped: pl.Tile[[ROWS, COLS], pl.FP32, pl.Mem.Vec] = pl.tpop_from_aic(split=2)
            s1: pl.Tile[[COLS], pl.FP32] = pl.load(scale, [0], [COLS])
            s2: pl.Tile[[1, COLS], pl.FP32] = pl.reshape(s1, [1, COLS])
            shifted: pl.Tile[[1, COLS], pl.FP32] = pl.add(s2, 1.0)
            incremented: pl.Tile[[ROWS, COLS], pl.FP32] = pl.add(popped, 1.0)
            pl.tfree_to_aic(popped)
            scale_out = pl.store(shifted, [0, 0], scale_out)
            output = pl.store(incremented, [0, 0], output)
            return output, scale_out

        @pl.function(type=pl.FunctionType.Group, attrs={"split": pl.SplitMode.LEFT_RIGHT})
        def group_func(
            self,
            a: pl.Tensor[[ROWS, COLS], pl.BF16],
            b: pl.Tensor[[ROWS, COLS], pl.BF16],
            scale: pl.Tensor[[COLS], pl.FP32],
            output: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
            scale_out: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
        ) -> tuple[pl.Tensor[[ROWS, COLS], pl.FP32], pl.Tensor[[1, COLS], pl.FP32]]:
            self.cube_producer(a, b, scale, output, scale_out)
            output, scale_out = self.vector_consumer(a, b, scale, output, scale_out)
            return output, scale_out

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self,
            a: pl.Tensor[[ROWS, COLS], pl.BF16],
            b: pl.Tensor[[ROWS, COLS], pl.BF16],
            scale: pl.Tensor[[COLS], pl.FP32],
            output: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
            scale_out: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
        ) -> tuple[pl.Tensor[[ROWS, COLS], pl.FP32], pl.Tensor[[1, COLS], pl.FP32]]:
            output, scale_out = self.group_func(a, b, scale, output, scale_out)
            return output, scale_out

    return SplitScaleReshapeLR


class SplitScaleReshapeTestCase(PTOTestCase):
    """Per-channel scale, loaded rank-1 and reshaped to [1, N], under a LEFT_RIGHT split (#1784)."""

    __test__ = False

    def __init__(self, *, platform: str | None = None, config=None):
        super().__init__(config, platform=platform)

    def get_name(self) -> str:
        return "hist_split_scale_reshape_lr"

    def define_tensors(self) -> list[TensorSpec]:
        return [
            TensorSpec("a", [ROWS, COLS], DataType.BF16, init_value=torch.randn),
            TensorSpec("b", [ROWS, COLS], DataType.BF16, init_value=torch.randn),
            TensorSpec("scale", [COLS], DataType.FP32,
                       init_value=torch.arange(1, COLS + 1, dtype=torch.float32)),
            TensorSpec("output", [ROWS, COLS], DataType.FP32, is_output=True),
            TensorSpec("scale_out", [1, COLS], DataType.FP32, is_output=True),
        ]

    def get_program(self) -> Any:
        return _program()

    def compute_expected(self, tensors, params=None) -> None:
        mm = torch.matmul(tensors["a"].float(), tensors["b"].float())
        tensors["output"][:] = mm + 1.0
        tensors["scale_out"][:] = tensors["scale"].reshape(1, COLS) + 1.0


class TestHistSplitScaleReshape:
    @pytest.mark.platforms("a2a3")
    @pytest.mark.parametrize("platform", [pytest.param("a2a3", id="a2a3")])
    def test_split_scale_reshape(self, test_runner, platform):
        result = test_runner.run(SplitScaleReshapeTestCase(platform=platform))
        assert result.passed, result.error
