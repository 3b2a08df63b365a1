# pypto.program: DualDispatchDirect
import pypto.language as pl

@pl.program
class DualDispatchDirect:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def cube_mm(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], mm: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        b_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        a_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(a_mat, target_memory=pl.Mem.Left)
        b_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, b_right)
        o: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(acc, [0, 0], mm)
        return mm
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def halves(a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.func_attr({"split_aiv": True, "dual_aiv_dispatch": True})
        aiv_id: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        row: pl.Scalar[pl.INDEX] = aiv_id * 8
        t: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [row, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
        d: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, 2.0)
        o: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(d, [row, 0], out)
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], mm: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        m: pl.Tensor[[16, 16], pl.FP32] = self.cube_mm(a, b, mm)
        r: pl.Tensor[[16, 16], pl.FP32] = self.halves(a, out)
        return r
