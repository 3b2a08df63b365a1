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
