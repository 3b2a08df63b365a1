# pypto.program: SpmdGmWriteRace
import pypto.language as pl

@pl.program
class SpmdGmWriteRace:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def fill(x: pl.Tensor[[32, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        blk: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [blk * 16, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        out_1: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(t, [0, 0], out)
        return out_1
    @pl.function(type=pl.FunctionType.Spmd)
    def fill_spmd(self, x: pl.Tensor[[32, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r: pl.Tensor[[16, 16], pl.FP32] = self.fill(x, out)
        return r
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[32, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out_1: pl.Tensor[[16, 16], pl.FP32] = self.fill_spmd(x, out, attrs={"core_num": 2})
        return out_1
