# pypto.program: SpmdSubmitDeps
import pypto.language as pl

@pl.program
class SpmdSubmitDeps:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def producer(x: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        blk: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 16], dtype=pl.FP32, value=7.0)
        return pl.tile.store(t, [blk * 16, 0], x)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def consumer(x: pl.Tensor[[64, 16], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        t: pl.Tile[[64, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [64, 16], [64, 16], target_memory=pl.Mem.Vec)
        return pl.tile.store(t, [0, 0], out)
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Out[pl.Tensor[[64, 16], pl.FP32]], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            _submit_tmp: pl.Tuple[pl.Tensor[[64, 16], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.producer, x, core_num=4)
            x: pl.Tensor[[64, 16], pl.FP32] = _submit_tmp[0]
            prod_tid: pl.Scalar[pl.TASK_ID] = _submit_tmp[1]
            _submit_tmp_1: pl.Tuple[pl.Tensor[[64, 16], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.consumer, x, out, deps=[prod_tid], core_num=1)
            out: pl.Tensor[[64, 16], pl.FP32] = _submit_tmp_1[0]
        return out
