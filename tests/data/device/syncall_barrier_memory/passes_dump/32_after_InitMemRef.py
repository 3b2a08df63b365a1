# pypto.program: SyncallBarrierMemory
import pypto.language as pl

@pl.program
class SyncallBarrierMemory:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def two_phase(x__ssa_v0: pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)], scratch__ssa_v0: pl.InOut[pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 4096)]], out__ssa_v0: pl.Out[pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 4096)]]) -> pl.Tensor[[64, 16], pl.FP32]:
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 1024)
        blk__ssa_v0: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        mine__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [blk__ssa_v0 * 16, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        scratch__ssa_v1: pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 4096)] = pl.tile.store(mine__ssa_v0, [blk__ssa_v0 * 16, 0], scratch__ssa_v0)
        pl.system.syncall(core_type='aiv_only')
        nxt__ssa_v0: pl.Scalar[pl.INDEX] = (blk__ssa_v0 + 1) % 4
        theirs__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.load(scratch__ssa_v1, [nxt__ssa_v0 * 16, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        sum__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_vec_5, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.add(mine__ssa_v0, theirs__ssa_v0)
        out__ssa_v1: pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 4096)] = pl.tile.store(sum__ssa_v0, [blk__ssa_v0 * 16, 0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Spmd)
    def two_phase_spmd(self, x__ssa_v0: pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)], scratch__ssa_v0: pl.InOut[pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 4096)]], out__ssa_v0: pl.Out[pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 4096)]]) -> pl.Tensor[[64, 16], pl.FP32]:
        out__ssa_v1: pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 4096)] = self.two_phase(x__ssa_v0, scratch__ssa_v0, out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)], scratch__ssa_v0: pl.InOut[pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 4096)]], out__ssa_v0: pl.Out[pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 4096)]]) -> pl.Tensor[[64, 16], pl.FP32]:
        out__ssa_v1: pl.Tensor[[64, 16], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 4096)] = self.two_phase_spmd(x__ssa_v0, scratch__ssa_v0, out__ssa_v0, attrs={"core_num": 4, "sync_start": True})
        return out__ssa_v1
