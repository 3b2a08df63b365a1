# pypto.program: FlattenNdPartition
import pypto.language as pl

@pl.program
class FlattenNdPartition:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(a__ssa_v0: pl.Tensor[[2, 2, 8, 16], pl.FP32], b__ssa_v0: pl.Tensor[[2, 4, 16], pl.FP32], out__ssa_v0: pl.InOut[pl.Tensor[[2, 2, 8, 16], pl.FP32]], packed__ssa_v0: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[2, 2, 8, 16], pl.FP32]:
        tile__ssa_v0: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 1, 0, 0], [1, 1, 8, 16], [1, 1, 8, 16], target_memory=pl.Mem.Vec)
        sq__ssa_v0: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.mul(tile__ssa_v0, tile__ssa_v0)
        out__ssa_v1: pl.Tensor[[2, 2, 8, 16], pl.FP32] = pl.tile.store(sq__ssa_v0, [1, 0, 0, 0], out__ssa_v0, [1, 1, 8, 16])
        top__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0, 0, 0], [1, 2, 8, 16], [1, 2, 8, 16], target_memory=pl.Mem.Vec)
        neg__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.neg(top__ssa_v0)
        out__ssa_v2: pl.Tensor[[2, 2, 8, 16], pl.FP32] = pl.tile.store(neg__ssa_v0, [1, 0, 0, 0], out__ssa_v1, [1, 2, 8, 16])
        p__ssa_v0: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[6, 16])] = pl.tile.load(b__ssa_v0, [0, 0, 0], [2, 4, 16], [2, 3, 16], target_memory=pl.Mem.Vec)
        packed__ssa_v1: pl.Tensor[[8, 16], pl.FP32] = pl.tile.store(p__ssa_v0, [0, 0], packed__ssa_v0)
        return out__ssa_v2
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a__ssa_v0: pl.Tensor[[2, 2, 8, 16], pl.FP32], b__ssa_v0: pl.Tensor[[2, 4, 16], pl.FP32], out__ssa_v0: pl.InOut[pl.Tensor[[2, 2, 8, 16], pl.FP32]], packed__ssa_v0: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[2, 2, 8, 16], pl.FP32]:
        out__ssa_v1: pl.Tensor[[2, 2, 8, 16], pl.FP32] = self.kernel(a__ssa_v0, b__ssa_v0, out__ssa_v0, packed__ssa_v0)
        return out__ssa_v1
