# pypto.program: SpmdScaleAdd
import pypto.language as pl

@pl.program
class SpmdScaleAdd:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def scale_add(a__ssa_v0: pl.Tensor[[64, 32], pl.FP32], b__ssa_v0: pl.Tensor[[64, 32], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        block_idx__ssa_v0: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        t__tmp_v0: pl.Scalar[pl.INDEX] = pl.tile.get_block_num()
        rows__ssa_v0: pl.Scalar[pl.INDEX] = 64 // t__tmp_v0
        offset__ssa_v0: pl.Scalar[pl.INDEX] = block_idx__ssa_v0 * rows__ssa_v0
        tile_a__ssa_v0: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [offset__ssa_v0, 0], [16, 32], [16, 32], target_memory=pl.Mem.Vec)
        tile_b__ssa_v0: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(b__ssa_v0, [offset__ssa_v0, 0], [16, 32], [16, 32], target_memory=pl.Mem.Vec)
        tile_s__ssa_v0: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.muls(tile_a__ssa_v0, 2.0)
        tile_c__ssa_v0: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.add(tile_s__ssa_v0, tile_b__ssa_v0)
        out__ssa_v1: pl.Tensor[[64, 32], pl.FP32] = pl.tile.store(tile_c__ssa_v0, [offset__ssa_v0, 0], out__ssa_v0)
        return out__ssa_v1
    @pl.function(type=pl.FunctionType.Spmd)
    def orchestrator_spmd_0(self, a__ssa_v0: pl.Tensor[[64, 32], pl.FP32], b__ssa_v0: pl.Tensor[[64, 32], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        out__ssa_v1: pl.Tensor[[64, 32], pl.FP32] = self.scale_add(a__ssa_v0, b__ssa_v0, out__ssa_v0)
        return out__ssa_v1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, a__ssa_v0: pl.Tensor[[64, 32], pl.FP32], b__ssa_v0: pl.Tensor[[64, 32], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        out__ssa_v1: pl.Tensor[[64, 32], pl.FP32] = self.orchestrator_spmd_0(a__ssa_v0, b__ssa_v0, out__ssa_v0, attrs={"core_num": 4})
        return out__ssa_v1
