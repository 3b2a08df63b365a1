# pypto.program: SyncallBarrier
import pypto.language as pl

@pl.program
class SyncallBarrier:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        scratch: pl.Tensor[[64, 16], pl.FP32] = pl.tensor.create([64, 16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        for blk in pl.spmd(4, sync_start=True, name_hint="two_phase_spmd"):
            scratch: pl.Tensor[[64, 16], pl.FP32] = pl.tensor.assemble(scratch, pl.tensor.slice(x, [16, 16], [blk * 16, 0]), [blk * 16, 0])
            pl.system.syncall(core_type='mix')
            nxt: pl.Scalar[pl.INDEX] = (blk + 1) % 4
            out: pl.Tensor[[64, 16], pl.FP32] = pl.tensor.assemble(out, pl.tensor.slice(scratch, [16, 16], [nxt * 16, 0]), [blk * 16, 0])
        return out
