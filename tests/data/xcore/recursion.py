# pypto.program: Recursion
import pypto.language as pl

@pl.program
class Recursion:
    @pl.function(type=pl.FunctionType.InCore)
    def down(a: pl.Tensor[[4, 4], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        r: pl.Scalar[pl.INDEX] = self.down(a, n + 1)
        return r
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        r: pl.Scalar[pl.INDEX] = self.down(a, 0)
        return out
