# pypto.program: LoopCarries
import pypto.language as pl

@pl.program
class LoopCarries:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def running_max(x__ssa_v0: pl.Tensor[[4, 64], pl.FP32], m_out: pl.Out[pl.Tensor[[1, 64], pl.FP32]], d_out: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
        m0: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_0, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)
        d0: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_1, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.sub(m0, m0)
        for r, (m_iter, d_iter) in pl.range(1, 4, init_values=(m0, d0)):
            row: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_2, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [r, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)
            m_next: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_3, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.maximum(m_iter, row)
            step: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.sub(m_next, m_iter)
            d_next: pl.Tile[[1, 64], pl.FP32, pl.MemRef(mem_vec_5, pl.const(0, pl.INT64), 256), pl.Mem.Vec] = pl.tile.add(d_iter, step)
            m_rv, d_rv = pl.yield_(m_next, d_next)
        m_res: pl.Tensor[[1, 64], pl.FP32] = pl.tile.store(m_rv, [0, 0], m_out)
        d_res: pl.Tensor[[1, 64], pl.FP32] = pl.tile.store(d_rv, [0, 0], d_out)
        return m_res
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[4, 64], pl.FP32], m_out: pl.Out[pl.Tensor[[1, 64], pl.FP32]], d_out: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
        m_res: pl.Tensor[[1, 64], pl.FP32] = self.running_max(x__ssa_v0, m_out, d_out)
        return m_res
