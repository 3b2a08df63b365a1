# pypto.program: Endless
import pypto.language as pl

@pl.program
class Endless:
    @pl.function(type=pl.FunctionType.Orchestration)
    def endless(self, x: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        for i, (acc,) in pl.range(1000000000, init_values=(x,)):
            acc_next: pl.Tensor[[4, 4], pl.FP32] = pl.tensor.adds(acc, 1.0)
            acc_out: pl.Tensor[[4, 4], pl.FP32] = pl.yield_(acc_next)
        out: pl.Tensor[[4, 4], pl.FP32] = pl.tensor.assemble(out, acc_out, [0, 0])
        return out
