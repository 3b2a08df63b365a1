# pypto.program: SplitKernelWhole
import pypto.language as pl

@pl.program
class SplitKernelWhole:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def g_aic(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        a_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        b_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        a_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
        b_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, b_right)
        pl.tile.tpush_to_aiv(acc, split=1)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def g_aiv(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        popped: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)
        inc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.adds(popped, 1.0)
        pl.system.tfree_to_aic(popped)
        o: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(inc, [0, 0], out)
        return o
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def g(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        self.g_aic(a, b, out)
        r: pl.Tensor[[16, 16], pl.FP32] = self.g_aiv(a, b, out)
        return r
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r: pl.Tensor[[16, 16], pl.FP32] = self.g(a, b, out)
        return r
