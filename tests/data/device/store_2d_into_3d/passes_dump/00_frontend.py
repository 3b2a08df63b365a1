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
