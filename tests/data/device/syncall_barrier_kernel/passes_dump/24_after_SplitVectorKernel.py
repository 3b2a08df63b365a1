# pypto.program: SyncallBarrierKernel
import pypto.language as pl

@pl.program
class SyncallBarrierKernel:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def two_phase(x: pl.Tensor[[64, 16], pl.FP32], scratch: pl.InOut[pl.Tensor[[64, 16], pl.FP32]], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        blk: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [blk * 16, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        scratch_1: pl.Tensor[[64, 16], pl.FP32] = pl.tile.store(t, [blk * 16, 0], scratch)
        pl.system.syncall(core_type='aiv_only')
        nxt: pl.Scalar[pl.INDEX] = (blk + 1) % 4
        u: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(scratch_1, [nxt * 16, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        out_1: pl.Tensor[[64, 16], pl.FP32] = pl.tile.store(u, [blk * 16, 0], out)
        return out_1
    @pl.function(type=pl.FunctionType.Spmd)
    def two_phase_spmd(self, x: pl.Tensor[[64, 16], pl.FP32], scratch: pl.InOut[pl.Tensor[[64, 16], pl.FP32]], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        r: pl.Tensor[[64, 16], pl.FP32] = self.two_phase(x, scratch, out)
        return r
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        scratch: pl.Tensor[[64, 16], pl.FP32] = pl.tensor.create([64, 16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        out_1: pl.Tensor[[64, 16], pl.FP32] = self.two_phase_spmd(x, scratch, out, attrs={"core_num": 4, "sync_start": True})
        return out_1
