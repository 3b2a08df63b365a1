# pypto.program: DeclaredValidBox
import pypto.language as pl

@pl.program
class DeclaredValidBox:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def kernel(x__ssa_v0: pl.Tensor[[8, 16], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 512)], out__ssa_v0: pl.Out[pl.Tensor[[8, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 512)]]) -> pl.Tensor[[8, 16], pl.FP32]:
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        for i__idx_v0 in pl.range(1):
            if i__idx_v0 == 0:
                t__tile_1: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 1024), pl.Mem.Vec, pl.TileView(valid_shape=[16, 16])] = pl.tile.load(x__ssa_v0, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
                t__tile: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 1024), pl.Mem.Vec, pl.TileView(valid_shape=[16, 16])] = pl.yield_(t__tile_1)
            else:
                t__tile_2: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 1024), pl.Mem.Vec, pl.TileView(valid_shape=[16, 16])] = pl.tile.load(x__ssa_v0, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
                t__tile: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 1024), pl.Mem.Vec, pl.TileView(valid_shape=[16, 16])] = pl.yield_(t__tile_2)
        u__tile: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.adds(t__tile, 1.0)
        v__tile: pl.Tile[[8, 16], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 512), pl.Mem.Vec] = pl.tile.slice(u__tile, [8, 16], [0, 0])
        out__ssa_v1: pl.Tensor[[8, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 512)] = pl.tile.store(v__tile, [0, 0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, x__ssa_v0: pl.Tensor[[8, 16], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 512)], out__ssa_v0: pl.Out[pl.Tensor[[8, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 512)]]) -> pl.Tensor[[8, 16], pl.FP32]:
        out__ssa_v1: pl.Tensor[[8, 16], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 512)] = self.kernel(x__ssa_v0, out__ssa_v0)
        return out__ssa_v1
