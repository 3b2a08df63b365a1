# pypto.program: ExpandCloneTarget
import pypto.language as pl

@pl.program
class ExpandCloneTarget:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def expand_clone_kernel(x: pl.Tensor[[1, 8, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8, 8], pl.FP32]]) -> pl.Tensor[[4, 8, 8], pl.FP32]:
        out: pl.Tensor[[4, 8, 8], pl.FP32] = pl.tensor.expand_clone(x, y)
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[1, 8, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8, 8], pl.FP32]]) -> pl.Tensor[[4, 8, 8], pl.FP32]:
        y: pl.Tensor[[4, 8, 8], pl.FP32] = self.expand_clone_kernel(x, y)
        return y
