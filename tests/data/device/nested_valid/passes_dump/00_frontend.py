# pypto.program: NestedValid
import pypto.language as pl

@pl.program
class NestedValid:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(a: pl.Tensor[[16, 16], pl.INT16], out: pl.InOut[pl.Tensor[[16, 16], pl.INT16]]) -> pl.Tensor[[16, 16], pl.INT16]:
        a_tile: pl.Tile[[16, 16], pl.INT16, pl.Mem.Vec, pl.TileView(valid_shape=[8, 12])] = pl.tile.load(a, [0, 0], [16, 16], [8, 12], target_memory=pl.Mem.Vec)
        out: pl.Tensor[[16, 16], pl.INT16] = pl.tile.store(pl.tile.not_(a_tile), [0, 0], out)
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.INT16], out: pl.InOut[pl.Tensor[[16, 16], pl.INT16]]) -> pl.Tensor[[16, 16], pl.INT16]:
        out: pl.Tensor[[16, 16], pl.INT16] = self.kernel(a, out)
        return out
