# pypto.program: IsaMemory
# written by scripts/gen_isa_expected (issue 42's memory-model check): tiles placed on overlapping
# Vec bytes, read after another tile wrote them; the golden is pto-isa's CPU simulator running the
# same placements (TASSIGN), so ptodb's memory model must give its bytes. Do not edit.
import pypto.language as pl

@pl.program
class IsaMemory:
    # overlap: a [16, 64] FP32 at 0, then b [16, 64] FP32 at 2048 over a's rows 8-15; the add reads a's bytes: its rows 8-15 are b's rows 0-7
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def overlap_kernel(a__ssa_v0: pl.Tensor[[16, 64], pl.FP32], b__ssa_v0: pl.Tensor[[16, 64], pl.FP32], h__ssa_v0: pl.Tensor[[16, 128], pl.FP16], o1__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        mem_vec_1: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        a__tile: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        b__tile: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_2, pl.const(2048, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.load(b__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        s__tile: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_3, pl.const(8192, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.add(a__tile, b__tile)
        o__tile: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(s__tile, [0, 0], o1__ssa_v0)
        return o__tile
    # dtype: a [16, 64] FP32 at 16384, then h [8, 128] FP16 at 17408 over a's rows 4-11: a + a reads those rows as the FP16 pairs' bits
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def dtype_kernel(a__ssa_v0: pl.Tensor[[16, 64], pl.FP32], b__ssa_v0: pl.Tensor[[16, 64], pl.FP32], h__ssa_v0: pl.Tensor[[16, 128], pl.FP16], o2__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        mem_vec_1: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 2048)
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        a__tile: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(16384, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        h__tile: pl.Tile[[8, 128], pl.FP16, pl.MemRef(mem_vec_2, pl.const(17408, pl.INT64), 2048), pl.Mem.Vec] = pl.tile.load(h__ssa_v0, [0, 0], [8, 128], [8, 128], target_memory=pl.Mem.Vec)
        s__tile: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_3, pl.const(24576, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.add(a__tile, a__tile)
        o__tile: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(s__tile, [0, 0], o2__ssa_v0)
        return o__tile
    # offset: a [16, 64] FP32 at 32768, then c [8, 16] FP32 at 32864 (96 bytes in: elements 24 of row 0 to 23 of row 2); a + a
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def offset_kernel(a__ssa_v0: pl.Tensor[[16, 64], pl.FP32], b__ssa_v0: pl.Tensor[[16, 64], pl.FP32], h__ssa_v0: pl.Tensor[[16, 128], pl.FP16], o3__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        mem_vec_1: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 512)
        mem_vec_3: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        a__tile: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(32768, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        c__tile: pl.Tile[[8, 16], pl.FP32, pl.MemRef(mem_vec_2, pl.const(32864, pl.INT64), 512), pl.Mem.Vec] = pl.tile.load(b__ssa_v0, [2, 16], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
        s__tile: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_3, pl.const(40960, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.add(a__tile, a__tile)
        o__tile: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(s__tile, [0, 0], o3__ssa_v0)
        return o__tile
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(a__ssa_v0: pl.Tensor[[16, 64], pl.FP32], b__ssa_v0: pl.Tensor[[16, 64], pl.FP32], h__ssa_v0: pl.Tensor[[16, 128], pl.FP16], o1__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]], o2__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]], o3__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        o1__ssa_v1: pl.Tensor[[16, 64], pl.FP32] = self.overlap_kernel(a__ssa_v0, b__ssa_v0, h__ssa_v0, o1__ssa_v0)
        o2__ssa_v1: pl.Tensor[[16, 64], pl.FP32] = self.dtype_kernel(a__ssa_v0, b__ssa_v0, h__ssa_v0, o2__ssa_v0)
        o3__ssa_v1: pl.Tensor[[16, 64], pl.FP32] = self.offset_kernel(a__ssa_v0, b__ssa_v0, h__ssa_v0, o3__ssa_v0)
        return o3__ssa_v1
