# pypto.program: MemoryChecks
# ptodb's own example (examples/memory/README.md): planted: 36's overlap with b__tile loaded in a column-major block layout: the add reads a__tile's bytes in another layout than b__tile wrote them: the value is unknown
import pypto.language as pl

@pl.program
class MemoryChecks:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def add_kernel(a__ssa_v0: pl.Tensor[[16, 64], pl.FP32], b__ssa_v0: pl.Tensor[[16, 64], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        mem_vec_1: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        mem_vec_2: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)
        a__tile: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        b__tile: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 4096), pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.col_major)] = pl.tile.load(b__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        s__tile: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 4096), pl.Mem.Vec] = pl.tile.add(a__tile, b__tile)
        out__tile: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(s__tile, [0, 0], out__ssa_v0)
        return out__tile
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(a__ssa_v0: pl.Tensor[[16, 64], pl.FP32], b__ssa_v0: pl.Tensor[[16, 64], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        out__ssa_v1: pl.Tensor[[16, 64], pl.FP32] = self.add_kernel(a__ssa_v0, b__ssa_v0, out__ssa_v0)
        return out__ssa_v1
