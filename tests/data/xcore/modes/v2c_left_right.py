# pypto.program: V2CLeftRight
import pypto.language as pl

@pl.program
class V2CLeftRight:
    @pl.function(type=pl.FunctionType.AIC)
    def g_aic(a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]):
        m: pl.Tile[[4, 4], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=2)
        o: pl.Tensor[[4, 4], pl.FP32] = pl.tile.store(m, [0, 0], out)
    @pl.function(type=pl.FunctionType.AIV)
    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        pl.func_attr({"dual_aiv_dispatch": True})
        lane: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        h: pl.Tile[[4, 2], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, lane * 2], [4, 2], [4, 2], target_memory=pl.Mem.Vec)
        d: pl.Tile[[4, 2], pl.FP32, pl.Mem.Vec] = pl.tile.muls(h, 2.0)
        pl.tile.tpush_to_aic(d, split=2)
        return out
    @pl.function(type=pl.FunctionType.Group)
    def g(a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        self.g_aic(a, out)
        r: pl.Tensor[[4, 4], pl.FP32] = self.g_aiv(a, out)
        return r
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        r: pl.Tensor[[4, 4], pl.FP32] = self.g(a, out)
        return r
