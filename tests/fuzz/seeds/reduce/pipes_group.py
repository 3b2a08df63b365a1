# pypto.program: Q
import pypto.language as pl

@pl.program
class Q:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def g_aic(a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        m__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(a__ssa_v0, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        pl.tile.tpush_to_aiv(m__tile, split=0)
        r__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
        pl.system.tfree_to_aiv(r__tile, split=0)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def g_aiv(a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        w__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        v__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
        s__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(w__tile, v__tile)
        pl.system.tfree_to_aic(v__tile, split=0)
        pl.tile.tpush_to_aic(s__tile, split=0)
        o__tile: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(s__tile, [0, 0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def g(a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def copy(x__ssa_v0: pl.Tensor[[16, 16], pl.FP32], y__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        c__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        y__store: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(c__tile, [0, 0], y__ssa_v0)
        return y__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], unused__ssa_v0: pl.Tensor[[32, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t__ssa_v0: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.create([16, 16], dtype=pl.FP32)
        u__ssa_v0: pl.Tensor[[16, 16], pl.FP32] = self.g(a__ssa_v0, t__ssa_v0)
        out__ssa_v1: pl.Tensor[[16, 16], pl.FP32] = self.copy(u__ssa_v0, out__ssa_v0)
        return out__ssa_v1
