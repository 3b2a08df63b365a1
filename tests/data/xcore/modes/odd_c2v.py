# pypto.program: OddC2V
import pypto.language as pl

@pl.program
class OddC2V:
    @pl.function(type=pl.FunctionType.AIC)
    def g_aic(a: pl.Tensor[[5, 4], pl.FP32], out: pl.Out[pl.Tensor[[5, 4], pl.FP32]]):
        t: pl.Tile[[6, 4], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [6, 4], [5, 4], target_memory=pl.Mem.Mat)
        pl.tile.tpush_to_aiv(t, split=3)
    @pl.function(type=pl.FunctionType.AIV)
    def g_aiv(a: pl.Tensor[[5, 4], pl.FP32], out: pl.Out[pl.Tensor[[5, 4], pl.FP32]]) -> pl.Tensor[[5, 4], pl.FP32]:
        pl.func_attr({"dual_aiv_dispatch": True})
        lane: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        x: pl.Tile[[3, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=3)
        o: pl.Tensor[[5, 4], pl.FP32] = pl.tile.store(x, [lane * 3, 0], out)
        return out
    @pl.function(type=pl.FunctionType.Group)
    def g(a: pl.Tensor[[5, 4], pl.FP32], out: pl.Out[pl.Tensor[[5, 4], pl.FP32]]) -> pl.Tensor[[5, 4], pl.FP32]:
        self.g_aic(a, out)
        r: pl.Tensor[[5, 4], pl.FP32] = self.g_aiv(a, out)
        return r
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[5, 4], pl.FP32], out: pl.Out[pl.Tensor[[5, 4], pl.FP32]]) -> pl.Tensor[[5, 4], pl.FP32]:
        r: pl.Tensor[[5, 4], pl.FP32] = self.g(a, out)
        return r
