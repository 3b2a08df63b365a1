# pypto.program: WriteIntoCreate
import pypto.language as pl

@pl.program
class WriteIntoCreate:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def fill(x__ssa_v0: pl.Tensor[[1, 8], pl.INT32], out__ssa_v0: pl.Out[pl.Tensor[[1, 8], pl.INT32]]) -> pl.Tensor[[1, 8], pl.INT32]:
        mem_vec_0: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32)
        mem_vec_1: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32)
        x__tile: pl.Tile[[1, 8], pl.INT32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 32), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [1, 8], [1, 8], target_memory=pl.Mem.Vec)
        ids__tile: pl.Tile[[1, 8], pl.INT32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 32), pl.Mem.Vec] = pl.tile.create([1, 8], dtype=pl.INT32, target_memory=pl.Mem.Vec)
        for k in pl.range(8):
            v: pl.Scalar[pl.INT32] = pl.tile.read(x__tile, [0, 7 - k])
            pl.tile.write(ids__tile, [0, k], v)
        out__ssa_v1: pl.Tensor[[1, 8], pl.INT32] = pl.tile.store(ids__tile, [0, 0], out__ssa_v0)
        return out__ssa_v1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[1, 8], pl.INT32], out__ssa_v0: pl.Out[pl.Tensor[[1, 8], pl.INT32]]) -> pl.Tensor[[1, 8], pl.INT32]:
        out__ssa_v1: pl.Tensor[[1, 8], pl.INT32] = self.fill(x__ssa_v0, out__ssa_v0)
        return out__ssa_v1
