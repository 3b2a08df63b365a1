# pypto.program: AssembleIntoCreate
import pypto.language as pl

@pl.program
class AssembleIntoCreate:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def fill_rows(x__ssa_v0: pl.Tensor[[4, 64], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[4, 64], pl.FP32]]) -> pl.Tensor[[4, 64], pl.FP32]:
        x__tile: pl.Tile[[4, 64], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [4, 64], [4, 64], target_memory=pl.Mem.Vec)
        acc_init: pl.Tile[[4, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.create([4, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        for r, (acc_iter,) in pl.range(4, init_values=(acc_init,)):
            row: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_0, r * 64 * 4, 256), pl.Mem.Vec] = pl.tile.slice(x__tile, [1, 64], [r, 0], [1, 64])
            twice: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.add(row, row)
            acc_next: pl.Tile[[4, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.tile.assemble(acc_iter, twice, [r, 0])
            acc_rv: pl.Tile[[4, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 1024), pl.Mem.Vec] = pl.yield_(acc_next)
        out__ssa_v1: pl.Tensor[[4, 64], pl.FP32] = pl.tile.store(acc_rv, [0, 0], out__ssa_v0)
        return out__ssa_v1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[4, 64], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[4, 64], pl.FP32]]) -> pl.Tensor[[4, 64], pl.FP32]:
        out__ssa_v1: pl.Tensor[[4, 64], pl.FP32] = self.fill_rows(x__ssa_v0, out__ssa_v0)
        return out__ssa_v1
