# pypto.program: Race
import pypto.language as pl

@pl.program
class Race:
    @pl.function(type=pl.FunctionType.AIC)
    def g_aic(a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]):
        t: pl.Tile[[4, 4], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [4, 4], [4, 4], target_memory=pl.Mem.Mat)
        u: pl.Tile[[4, 4], pl.FP32, pl.Mem.Mat] = pl.tile.adds(t, 1.0)
        pl.tile.store(u, [0, 0], out)
    @pl.function(type=pl.FunctionType.AIV)
    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        t: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [4, 4], [4, 4], target_memory=pl.Mem.Vec)
        u: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 2.0)
        pl.tile.store(u, [0, 0], out)
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
