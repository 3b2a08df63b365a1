# pypto.program: GroupByType
import pypto.language as pl

@pl.program
class GroupByType:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def cube_consumer(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        s_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
        b_mat: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
        s_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(s_mat, target_memory=pl.Mem.Left)
        b_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(b_mat, target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(s_left, b_right)
        pl.system.tfree_to_aiv(s_mat)
        return pl.tile.store(acc, [0, 0], output)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def vector_producer(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        a_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        s: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.adds(a_tile, 1.0)
        pl.tile.tpush_to_aic(s, split=0)
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def group_func(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        result: pl.Tensor[[16, 16], pl.FP32] = self.cube_consumer(a, b, output)
        self.vector_producer(a, b, output)
        return result
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        result: pl.Tensor[[16, 16], pl.FP32] = self.group_func(a, b, output)
        return result
