# pypto.program: ContinueCarryProgram
import pypto.language as pl

@pl.program
class ContinueCarryProgram:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kernel_continue_carry(x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        x_0: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 8], [4, 8], target_memory=pl.Mem.Vec)
        for i, (x_iter_1,) in pl.range(10, init_values=(x_0,)):
            if i < 5:
                x_iter__phi_v0: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.yield_(x_iter_1)
            else:
                y: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.add(x_iter_1, x_iter_1)
                x_iter__phi_v0: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.yield_(x_iter_1)
            x_iter: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.yield_(x_iter__phi_v0)
        out_1: pl.Tensor[[4, 8], pl.FP32] = pl.tile.store(x_iter, [0, 0], out)
        return out_1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        out: pl.Tensor[[4, 8], pl.FP32] = self.kernel_continue_carry(x, out)
        return out
