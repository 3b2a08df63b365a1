# pypto.program: Region
import pypto.language as pl

@pl.program
class Region:
    @pl.function(type=pl.FunctionType.InCore)
    def k(a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        t: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [4, 4], [4, 4], target_memory=pl.Mem.Vec)
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            h: pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec] = pl.tile.aiv_shard(t)
            o: pl.Tensor[[4, 4], pl.FP32] = pl.tile.store(h, [aiv_id * 2, 0], out)
        return out
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        r: pl.Tensor[[4, 4], pl.FP32] = self.k(a, out)
        return r
