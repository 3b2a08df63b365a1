# pypto.program: MultiModeSplit
import pypto.language as pl

@pl.program
class MultiModeSplit:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def qk_aic(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out_ud: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_lr: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.func_attr({"split_aiv": True})
        a_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        b_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        a_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
        b_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, b_right)
        pl.tile.tpush_to_aiv(acc, split=1)
        pl.tile.tpush_to_aiv(acc, split=2)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def qk_aiv(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out_ud: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_lr: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split_aiv": True, "dual_aiv_dispatch": True})
        aiv_id: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        h: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)
        sc: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.muls(h, 2.0)
        o1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(sc, [aiv_id * 8, 0], out_ud)
        h2: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=2)
        sc2: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.muls(h2, 3.0)
        o2: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(sc2, [0, aiv_id * 8], out_lr)
        return out_lr
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def qk(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out_ud: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_lr: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split_aiv": True})
        self.qk_aic(a, b, out_ud, out_lr)
        self.qk_aiv(a, b, out_ud, out_lr)
        return out_lr
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out_ud: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_lr: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r: pl.Tensor[[16, 16], pl.FP32] = self.qk(a, b, out_ud, out_lr)
        return r
