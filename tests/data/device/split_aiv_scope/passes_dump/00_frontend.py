# pypto.program: SplitAivScope
import pypto.language as pl

@pl.program
class SplitAivScope:
    @pl.function
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="qk"):
            a_l1: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
            b_l1: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)
            a_left: pl.Tile[[16, 16], pl.FP32, pl.Mem.Left] = pl.tile.move(a_l1, target_memory=pl.Mem.Left)
            b_right: pl.Tile[[16, 16], pl.FP32, pl.Mem.Right] = pl.tile.move(b_l1, target_memory=pl.Mem.Right)
            qk: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a_left, b_right)
            for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                h: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.aiv_shard(qk)
                sc: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.muls(h, 2.0)
                off: pl.Scalar[pl.INDEX] = aiv_id * 8
                out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(sc, [off, 0], out)
        return out
