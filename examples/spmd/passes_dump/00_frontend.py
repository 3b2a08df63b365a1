# pypto.program: SpmdScaleAdd
import pypto.language as pl

@pl.program
class SpmdScaleAdd:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def scale_add(a: pl.Tensor[[64, 32], pl.FP32], b: pl.Tensor[[64, 32], pl.FP32], out: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        block_idx: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        rows: pl.Scalar[pl.INDEX] = 64 // pl.tile.get_block_num()
        offset: pl.Scalar[pl.INDEX] = block_idx * rows
        tile_a: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [offset, 0], [16, 32], [16, 32], target_memory=pl.Mem.Vec)
        tile_b: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(b, [offset, 0], [16, 32], [16, 32], target_memory=pl.Mem.Vec)
        tile_s: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.muls(tile_a, 2.0)
        tile_c: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.add(tile_s, tile_b)
        out: pl.Tensor[[64, 32], pl.FP32] = pl.tile.store(tile_c, [offset, 0], out)
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, a: pl.Tensor[[64, 32], pl.FP32], b: pl.Tensor[[64, 32], pl.FP32], out: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        with pl.spmd(4):
            out: pl.Tensor[[64, 32], pl.FP32] = self.scale_add(a, b, out)
        return out
