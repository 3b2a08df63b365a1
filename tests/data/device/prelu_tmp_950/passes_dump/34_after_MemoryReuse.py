# pypto.program: PreluProgram
import pypto.language as pl

@pl.program
class PreluProgram:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def kernel(src__ssa_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 1024)], slope__ssa_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 1024)], tmp_in__ssa_v0: pl.Tensor[[2, 32], pl.UINT8, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 64)], out__ssa_v0: pl.InOut[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 1024)]]) -> pl.Tensor[[1, 256], pl.FP32]:
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_7: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        src_tile__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.load(src__ssa_v0, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        slope_tile__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_5, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.load(slope__ssa_v0, [0, 0], [1, 256], [1, 256], target_memory=pl.Mem.Vec)
        tmp__ssa_v0: pl.Tile[[2, 32], pl.UINT8, pl.MemRef(mem_vec_7, pl.const(0, pl.INT64), 1024), pl.Mem.Vec, pl.TileView(valid_shape=[1, 32])] = pl.tile.load(tmp_in__ssa_v0, [0, 0], [2, 32], [1, 32], target_memory=pl.Mem.Vec)
        result__ssa_v0: pl.Tile[[1, 256], pl.FP32, pl.MemRef(mem_vec_7, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.prelu(src_tile__ssa_v0, slope_tile__ssa_v0, tmp__ssa_v0)
        out__ssa_v1: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 1024)] = pl.tile.store(result__ssa_v0, [0, 0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, src__ssa_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 1024)], slope__ssa_v0: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 1024)], tmp_in__ssa_v0: pl.Tensor[[2, 32], pl.UINT8, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 64)], out__ssa_v0: pl.InOut[pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 1024)]]) -> pl.Tensor[[1, 256], pl.FP32]:
        out__ssa_v1: pl.Tensor[[1, 256], pl.FP32, pl.MemRef("mem_ddr_4", pl.const(0, pl.INT64), 1024)] = self.kernel(src__ssa_v0, slope__ssa_v0, tmp_in__ssa_v0, out__ssa_v0)
        return out__ssa_v1
