# pypto.program: DeviceSemantics
import pypto.language as pl

@pl.program
class DeviceSemantics:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def rows(x: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        n: pl.Scalar[pl.INDEX] = pl.tile.get_block_num()
        r: pl.Scalar[pl.INDEX] = b * (16 // n)
        t: pl.Tile[[4, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[4, 60])] = pl.tile.load(x, [r, 0], [4, 64], [4, 60], target_memory=pl.Mem.Vec)
        one: pl.Tile[[4, 64], pl.FP32, pl.Mem.Vec] = pl.tile.full([4, 64], dtype=pl.FP32, value=1.0)
        tmp: pl.Tile[[1, 32], pl.UINT8, pl.Mem.Vec] = pl.tile.create([1, 32], dtype=pl.UINT8, target_memory=pl.Mem.Vec)
        m: pl.Tile[[4, 32], pl.UINT8, pl.Mem.Vec, pl.TileView(valid_shape=[4, 8])] = pl.tile.cmps(t, 0.0, cmp_type=4)
        s: pl.Tile[[4, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[4, 60])] = pl.tile.sel(m, t, one, tmp)
        out: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(s, [r, 0], out)
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def mlp_block(self, x: pl.Tensor[[16, 64], pl.FP32], norm_w: pl.Tensor[[1, 64], pl.FP32], w_gate: pl.Tensor[[64, 128], pl.BF16], w_up: pl.Tensor[[64, 128], pl.BF16], w_down: pl.Tensor[[128, 64], pl.BF16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        with pl.spmd(4):
            out: pl.Tensor[[16, 64], pl.FP32] = self.rows(x, out)
        r2: pl.Tuple[pl.Tensor[[16, 64], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.submit(self.rows, x, out)
        out2: pl.Tensor[[16, 64], pl.FP32] = r2[0]
        out3: pl.Tensor[[16, 64], pl.FP32] = self.rows(x, out2, attrs={"core_num": 2})
        return out3
