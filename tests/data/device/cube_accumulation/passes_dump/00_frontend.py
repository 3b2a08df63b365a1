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
