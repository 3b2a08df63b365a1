# pypto.program: SplitAivNoneFence
import pypto.language as pl

@pl.program
class SplitAivNoneFence:
    @pl.function
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.NONE):
                row: pl.Scalar[pl.INDEX] = aiv_id * 8
                t: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [row, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
                d: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 3.0)
                out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(d, [row, 0], out)
        return out
