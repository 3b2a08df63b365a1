# pypto.program: CastMode
import pypto.language as pl

@pl.program
class CastMode:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def cast_mode(self, x: pl.Tensor[[8, 16], pl.FP32], o_rint: pl.Out[pl.Tensor[[8, 16], pl.INT32]], o_round: pl.Out[pl.Tensor[[8, 16], pl.INT32]], o_floor: pl.Out[pl.Tensor[[8, 16], pl.INT32]], o_ceil: pl.Out[pl.Tensor[[8, 16], pl.INT32]], o_trunc: pl.Out[pl.Tensor[[8, 16], pl.INT32]]) -> pl.Tensor[[8, 16], pl.INT32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
            a: pl.Tile[[8, 16], pl.INT32, pl.Mem.Vec] = pl.tile.cast(t, target_type=pl.INT32, mode='rint')
            pl.tile.store(a, [0, 0], o_rint)
            b: pl.Tile[[8, 16], pl.INT32, pl.Mem.Vec] = pl.tile.cast(t, target_type=pl.INT32, mode='round')
            pl.tile.store(b, [0, 0], o_round)
            c: pl.Tile[[8, 16], pl.INT32, pl.Mem.Vec] = pl.tile.cast(t, target_type=pl.INT32, mode='floor')
            pl.tile.store(c, [0, 0], o_floor)
            d: pl.Tile[[8, 16], pl.INT32, pl.Mem.Vec] = pl.tile.cast(t, target_type=pl.INT32, mode='ceil')
            pl.tile.store(d, [0, 0], o_ceil)
            e: pl.Tile[[8, 16], pl.INT32, pl.Mem.Vec] = pl.tile.cast(t, target_type=pl.INT32, mode='trunc')
            pl.tile.store(e, [0, 0], o_trunc)
        return o_rint
