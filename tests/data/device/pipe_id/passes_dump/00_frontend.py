# pypto.program: PipeId
import pypto.language as pl

@pl.program
class PipeId:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def g_aic(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        buf0: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='v2c_buf_0', size=8192, base=-1)
        buf1: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='v2c_buf_1', size=8192, base=-1)
        pl.system.aic_initialize_pipe(pl.const(0, pl.INT32), buf0, dir_mask=2, slot_size=1024, id=0)
        pl.system.aic_initialize_pipe(pl.const(0, pl.INT32), buf1, dir_mask=2, slot_size=1024, id=1)
        sum_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0, id=0)
        diff_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0, id=1)
        sum_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(sum_tile, target_memory=pl.Mem.Left)
        diff_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(diff_tile, target_memory=pl.Mem.Right)
        result: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(sum_left, diff_right)
        pl.system.tfree_to_aiv(sum_tile, id=0)
        pl.system.tfree_to_aiv(diff_tile, id=1)
        return pl.tile.store(result, [0, 0], output)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def g_aiv(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        peer0: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='v2c_buf_0', peer_func='g_aic')
        peer1: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='v2c_buf_1', peer_func='g_aic')
        pl.system.aiv_initialize_pipe(pl.const(0, pl.INT32), peer0, dir_mask=2, slot_size=1024, id=0)
        pl.system.aiv_initialize_pipe(pl.const(0, pl.INT32), peer1, dir_mask=2, slot_size=1024, id=1)
        a_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        b_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(b, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        sum_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(a_tile, b_tile)
        diff_tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.sub(a_tile, b_tile)
        pl.tile.tpush_to_aic(diff_tile, split=0, id=1)
        pl.tile.tpush_to_aic(sum_tile, split=0, id=0)
        return output
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def g(a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.g_aic(a, b, output)
        result: pl.Tensor[[16, 16], pl.FP32] = self.g_aiv(a, b, output)
        return result
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        result: pl.Tensor[[16, 16], pl.FP32] = self.g(a, b, output)
        return result
