# A ptodb test program (not PyPTO's): the regression program of PyPTO #2405 (fixed by ec1baa88c),
# tests/ut/ir/transforms/test_flatten_tile_nd_to_2d.py::TestFlattenTileNdTo2DAssemble::
# test_nd_assemble_offset_collapses_to_row, made runnable: a [1, 8, 16] page of ones assembled into
# batch slot 2 of a [4, 8, 16] tile (loaded from x instead of a fresh tile.create, so that every
# element of the output is defined), then stored.
from typing import Any

import pypto.language as pl
import pytest
import torch
from harness.core.harness import DataType, PTOTestCase, TensorSpec


def _program() -> Any:
    @pl.program
    class NdAssembleProgram:
        @pl.function(type=pl.FunctionType.InCore)
        def main_incore_0(
            self,
            x: pl.Tensor[[4, 8, 16], pl.FP32],
            out_0: pl.Out[pl.Tensor[[4, 8, 16], pl.FP32]],
        ) -> pl.Tensor[[4, 8, 16], pl.FP32]:
            page: pl.Tile[[1, 8, 16], pl.FP32] = pl.tile.full([1, 8, 16], dtype=pl.FP32, value=1.0)
            acc: pl.Tile[[4, 8, 16], pl.FP32] = pl.load(x, [0, 0, 0], [4, 8, 16])
            # Write the page into batch slot 2.
            acc2: pl.Tile[[4, 8, 16], pl.FP32] = pl.tile.assemble(acc, page, [2, 0, 0])
            out_0: pl.Tensor[[4, 8, 16], pl.FP32] = pl.store(acc2, [0, 0, 0], out_0)
            return out_0

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(
            self, x: pl.Tensor[[4, 8, 16], pl.FP32], out_0: pl.Out[pl.Tensor[[4, 8, 16], pl.FP32]]
        ) -> pl.Tensor[[4, 8, 16], pl.FP32]:
            out_0 = self.main_incore_0(x, out_0)
            return out_0

    return NdAssembleProgram


class NdAssembleTestCase(PTOTestCase):
    """out = x with batch slot 2 set to ones (#2405)."""

    __test__ = False

    def __init__(self, *, platform: str | None = None, config=None):
        super().__init__(config, platform=platform)

    def get_name(self) -> str:
        return "hist_nd_assemble"

    def define_tensors(self) -> list[TensorSpec]:
        return [
            TensorSpec("x", [4, 8, 16], DataType.FP32, init_value=torch.randn),
            TensorSpec("out_0", [4, 8, 16], DataType.FP32, is_output=True),
        ]

    def get_program(self) -> Any:
        return _program()

    def compute_expected(self, tensors, params=None) -> None:
        tensors["out_0"][:] = tensors["x"]
        tensors["out_0"][2] = 1.0


class TestHistNdAssemble:
    def test_nd_assemble(self, test_runner):
        result = test_runner.run(NdAssembleTestCase())
        assert result.passed, result.error
