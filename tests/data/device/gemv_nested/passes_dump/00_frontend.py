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
