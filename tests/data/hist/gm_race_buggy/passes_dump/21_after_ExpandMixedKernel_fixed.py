# pypto.program: GmRaceProgram
import pypto.language as pl

@pl.program
class GmRaceProgram:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def fused_aic(x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], kv: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT, "split_aiv": True})
        c2v_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='c2v_slot_buffer', peer_func='fused_aiv')
        pl.system.aic_initialize_pipe(c2v_import, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        x_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        w_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        x_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
        w_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, w_right)
        kv_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(t, [0, 0], kv)
        pl.tile.tpush_to_aiv(t, split=0)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def fused_aiv(x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], kv: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT, "split_aiv": True})
        subblock_idx: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        c2v_buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='c2v_slot_buffer', size=2048, base=-1)
        pl.system.aiv_initialize_pipe(c2v_buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=1024, slot_num=2)
        kv_gm_sync: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
        pl.system.tfree_to_aic(kv_gm_sync)
        for b, (out_iter,) in pl.range(16, init_values=(out,)):
            row: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(kv, [b, 0 + subblock_idx * 8], [1, 8], [1, 8], target_memory=pl.Mem.Vec)
            row_1: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.adds(row, 1.0)
            out_2: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(row_1, [b, 0 + subblock_idx * 8], out_iter)
            out_rv: pl.Tensor[[16, 16], pl.FP32] = pl.yield_(out_2)
        return out_rv
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def fused_group(x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], kv: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.LEFT_RIGHT, "split_aiv": True})
        self.fused_aic(x, w, kv, out)
        out_1: pl.Tensor[[16, 16], pl.FP32] = self.fused_aiv(x, w, kv, out)
        return out_1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def fused(self, x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        kv: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.create([16, 16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        out_1: pl.Tensor[[16, 16], pl.FP32] = self.fused_group(x, w, kv, out)
        return out_1
