# pypto.program: YieldPhiView
import pypto.language as pl

@pl.program
class YieldPhiView:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def kernel(x__ssa_v0: pl.Tensor[[16, 1], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 64)], out__ssa_v0: pl.Out[pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 64)]]) -> pl.Tensor[[1, 16], pl.FP32]:
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        mem_vec_6: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)
        a__tile: pl.Tile[[16, 1], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 1], [16, 1], target_memory=pl.Mem.Vec)
        b__tile: pl.Tile[[16, 1], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.muls(a__tile, 3.0)
        for i__idx_v0 in pl.range(1):
            if i__idx_v0 == 1:
                c__tile: pl.Tile[[16, 1], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.adds(a__tile, 1.0)
                d__tile: pl.Tile[[16, 1], pl.FP32, pl.MemRef(mem_vec_5, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.adds(b__tile, 2.0)
                c__phi_v1, d__phi_v1 = pl.yield_(c__tile, d__tile)
            else:
                c__phi_v1, d__phi_v1 = pl.yield_(a__tile, b__tile)
            c__rm_v2: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.reshape(c__phi_v1, [1, 16])
            d__rm_v2: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_5, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.reshape(d__phi_v1, [1, 16])
            s__tile: pl.Tile[[1, 16], pl.FP32, pl.MemRef(mem_vec_6, pl.const(0, pl.INT64), 64), pl.Mem.Vec] = pl.tile.sub(d__rm_v2, c__rm_v2)
            out__ssa_v1: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 64)] = pl.tile.store(s__tile, [0, 0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, x__ssa_v0: pl.Tensor[[16, 1], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 64)], out__ssa_v0: pl.Out[pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 64)]]) -> pl.Tensor[[1, 16], pl.FP32]:
        out__ssa_v1: pl.Tensor[[1, 16], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 64)] = self.kernel(x__ssa_v0, out__ssa_v0)
        return out__ssa_v1
