# pypto.program: PredicatedDispatchProgram
import pypto.language as pl

@pl.program
class PredicatedDispatchProgram:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def clobber(x: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        # Overwrites X wholesale with POISON. Runs only when the predicate holds.
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 16], dtype=pl.FP32, value=999.0)
        return pl.tile.store(t, [0, 0], x)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def consumer(x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        return pl.tile.store(t, [0, 0], out)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def x_producer(x: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 16], dtype=pl.FP32, value=42.0)
        return pl.tile.store(t, [0, 0], x)
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Out[pl.Tensor[[16, 16], pl.FP32]], gate: pl.Tensor[[16, 16], pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            _submit_tmp: pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.x_producer, x, core_num=1)
            x: pl.Tensor[[16, 16], pl.FP32] = _submit_tmp[0]
            xp_tid: pl.Scalar[pl.TASK_ID] = _submit_tmp[1]
            # Predicated clobber: reads gate[0, 0] at the dispatch point.
            _submit_tmp_1: pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.clobber, x, deps=[xp_tid], core_num=1, predicate=(pl.cast(pl.tensor.read(gate, [0, 0]), pl.INDEX) > 0))
            x: pl.Tensor[[16, 16], pl.FP32] = _submit_tmp_1[0]
            clobber_tid: pl.Scalar[pl.TASK_ID] = _submit_tmp_1[1]
            # Consumer depends on the clobber TaskId even when the clobber is
            # predicate-skipped — the retired task still settles fanout.
            _submit_tmp_2: pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.spmd_submit(self.consumer, x, out, deps=[clobber_tid], core_num=1)
            out: pl.Tensor[[16, 16], pl.FP32] = _submit_tmp_2[0]
            _: pl.Scalar[pl.TASK_ID] = _submit_tmp_2[1]
        return out
