# pypto.program: Dual
import pypto.language as pl

@pl.program
class Dual:
    @pl.function(type=pl.FunctionType.AIC)
    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):
        pl.tile.tpush_to_aiv(a, split=0)
        back: pl.Tile[[4, 4], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)
    @pl.function(type=pl.FunctionType.AIV)
    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]) -> pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec]:
        pl.func_attr({"dual_aiv_dispatch": True})
        x: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
        pl.tile.tpush_to_aic(x, split=0)
        return x
    @pl.function(type=pl.FunctionType.Group)
    def g(a: pl.Tensor[[4, 4], pl.FP32]) -> pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec]:
        self.g_aic(a)
        r: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = self.g_aiv(a)
        return r
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        r: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = self.g(a)
        return out
