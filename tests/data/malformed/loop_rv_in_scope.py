# pypto.program: P
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        for _i__idx_v0, (out__iter_v1,) in pl.range(2, init_values=(out,)):
            for aiv_id__ssa_v0 in pl.split_aiv(2, mode=pl.SplitMode.NONE):
                t__ssa_v0: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [aiv_id__ssa_v0 * 8, 0], [8, 16], [8, 16], target_memory=pl.Mem.Vec)
                out__ssa_v3: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(t__ssa_v0, [aiv_id__ssa_v0 * 8, 0], out__iter_v1)
                pl.yield_(out__ssa_v3)
        return out__rv_v2
