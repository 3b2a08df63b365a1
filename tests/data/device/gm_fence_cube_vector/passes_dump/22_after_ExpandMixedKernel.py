# pypto.program: GmFenceCubeVector
import pypto.language as pl

@pl.program
class GmFenceCubeVector:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def mm_aic(x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], kv: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        x_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        w_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(w, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        x_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(x_mat, target_memory=pl.Mem.Left)
        w_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(w_mat, target_memory=pl.Mem.Right)
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(x_left, w_right)
        kv_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(t, [0, 0], kv)
        pl.tile.tpush_to_aiv(t, split=0)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def mm_aiv(x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], kv: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        fence: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
        pl.system.tfree_to_aic(fence)
        k: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(kv, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        k_1: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.adds(k, 1.0)
        out_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(k_1, [0, 0], out)
        return out_1
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def mm_group(x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], kv: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.mm_aic(x, w, kv, out)
        out_1: pl.Tensor[[16, 16], pl.FP32] = self.mm_aiv(x, w, kv, out)
        return out_1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        kv: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.create([16, 16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        out_1: pl.Tensor[[16, 16], pl.FP32] = self.mm_group(x, w, kv, out)
        return out_1
