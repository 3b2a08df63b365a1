# pypto.program: FillpadInplace
import pypto.language as pl

@pl.program
class FillpadInplace:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def pad_kernel(x: pl.Tensor[[12, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[12, 16])] = pl.tile.load(x, [0, 0], [16, 16], [12, 16], target_memory=pl.Mem.Vec)
        p: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(pad=pl.PadValue.min)] = pl.tile.fillpad_inplace(t, pad_value=pl.PadValue.min)
        o: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(p, [0, 0], out)
        return o
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[12, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out: pl.Tensor[[16, 16], pl.FP32] = self.pad_kernel(x, out)
        return out
