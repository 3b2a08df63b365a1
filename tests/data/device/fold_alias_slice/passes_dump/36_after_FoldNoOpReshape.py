# pypto.program: FoldAliasSlice
import pypto.language as pl

@pl.program
class FoldAliasSlice:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel(scale__ssa_v0: pl.Tensor[[16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[1, 16], pl.FP32]]) -> pl.Tensor[[1, 16], pl.FP32]:
        mem_vec_0: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_1: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32)
        s1: pl.Tile[[16], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.load(scale__ssa_v0, [0], [16], [16], target_memory=pl.Mem.Vec)
        s2: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = s1
        for j, (o_iter,) in pl.range(2, init_values=(out__ssa_v0,)):
            part: pl.Tile[[1, 8], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.slice(s2, [1, 8], [0, j * 8])
            shifted: pl.Tile[[1, 8], pl.FP32, pl.MemRef(mem_vec_1, pl.const(64, pl.INT64), 32), pl.Mem.Vec] = pl.tile.adds(part, 1.0)
            o_next: pl.Tensor[[1, 16], pl.FP32] = pl.tile.store(shifted, [0, j * 8], o_iter)
            o_rv: pl.Tensor[[1, 16], pl.FP32] = pl.yield_(o_next)
        return o_rv
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, scale__ssa_v0: pl.Tensor[[16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[1, 16], pl.FP32]]) -> pl.Tensor[[1, 16], pl.FP32]:
        out__ssa_v1: pl.Tensor[[1, 16], pl.FP32] = self.kernel(scale__ssa_v0, out__ssa_v0)
        return out__ssa_v1
