# pypto.program: NanDontCare
import pypto.language as pl

@pl.program
class NanDontCare:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def nan_dont_care(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 16])] = pl.tile.load(a, [0, 0], [16, 16], [8, 16], target_memory=pl.Mem.Vec)
            d: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 16])] = pl.tile.add(t, t)
            pl.tile.store(d, [0, 0], out)
        return out
