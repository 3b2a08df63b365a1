# pypto.program: RowExpandTarget
import pypto.language as pl

@pl.program
class RowExpandTarget:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def row_expand_kernel(v__ssa_v0: pl.Tensor[[8, 1], pl.FP32], y__ssa_v0: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32)
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 512)
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 512)
        v_tile: pl.Tile[[8, 1], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 32), pl.Mem.Vec] = pl.tile.load(v__ssa_v0, [0, 0], [8, 1], [8, 1], target_memory=pl.Mem.Vec)
        target: pl.Tile[[8, 16], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 512), pl.Mem.Vec] = pl.tile.create([8, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        expanded: pl.Tile[[8, 16], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 512), pl.Mem.Vec] = pl.tile.row_expand(target, v_tile)
        y__ssa_v1: pl.Tensor[[8, 16], pl.FP32] = pl.tile.store(expanded, [0, 0], y__ssa_v0)
        return y__ssa_v1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, v__ssa_v0: pl.Tensor[[8, 1], pl.FP32], y__ssa_v0: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        y__ssa_v1: pl.Tensor[[8, 16], pl.FP32] = self.row_expand_kernel(v__ssa_v0, y__ssa_v0)
        return y__ssa_v1
