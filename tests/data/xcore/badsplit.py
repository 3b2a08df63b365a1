# pypto.program: BadSplit
import pypto.language as pl

@pl.program
class BadSplit:
    @pl.function(type=pl.FunctionType.AIC)
    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):
        pl.tile.tpush_to_aiv(a, split=5)
    @pl.function(type=pl.FunctionType.AIV)
    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):
        x: pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=5)
    @pl.function(type=pl.FunctionType.Group)
    def g(a: pl.Tensor[[4, 4], pl.FP32]):
        self.g_aic(a)
        self.g_aiv(a)
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        self.g(a)
        return out
