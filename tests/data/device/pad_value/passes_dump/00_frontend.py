# pypto.program: PadValueCase
import pypto.language as pl

@pl.program
class PadValueCase:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def pad_value(self, x: pl.Tensor[[16, 16], pl.FP32], h: pl.Tensor[[16, 16], pl.FP16], out_max: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_min: pl.Out[pl.Tensor[[16, 16], pl.FP32]], out_h: pl.Out[pl.Tensor[[16, 16], pl.FP16]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[16, 8])] = pl.tile.load(x, [0, 0], [16, 16], [16, 8], target_memory=pl.Mem.Vec)
            hi: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(pad=pl.PadValue.max)] = pl.tile.fillpad(t, pad_value=pl.PadValue.max)
            pl.tile.store(hi, [0, 0], out_max)
            lo: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(pad=pl.PadValue.min)] = pl.tile.fillpad(t, pad_value=pl.PadValue.min)
            pl.tile.store(lo, [0, 0], out_min)
            th: pl.Tile[[16, 16], pl.FP16, pl.Mem.Vec, pl.TileView(valid_shape=[16, 8])] = pl.tile.load(h, [0, 0], [16, 16], [16, 8], target_memory=pl.Mem.Vec)
            hh: pl.Tile[[16, 16], pl.FP16, pl.Mem.Vec, pl.TileView(pad=pl.PadValue.max)] = pl.tile.fillpad(th, pad_value=pl.PadValue.max)
            pl.tile.store(hh, [0, 0], out_h)
        return out_max
