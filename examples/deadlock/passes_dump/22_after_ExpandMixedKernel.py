# pypto.program: ScaledMatmul
import pypto.language as pl

@pl.program
class ScaledMatmul:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def scaled_mm_aic(x__ssa_v0: pl.Tensor[[16, 64], pl.FP32], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], bias__ssa_v0: pl.Tensor[[16, 64], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        pl.func_attr({"split": pl.SplitMode.UP_DOWN, "split_aiv": True})
        scaled_mm_v2c_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='scaled_mm_v2c_slot_buffer', size=8192, base=-1)
        scaled_mm_c2v_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='scaled_mm_c2v_slot_buffer', peer_func='scaled_mm_aiv')
        pl.system.aic_initialize_pipe(scaled_mm_c2v_slot_buffer_import, scaled_mm_v2c_slot_buffer, dir_mask=3, slot_size=4096, slot_num=2)
        xs_bf16__tile_Left_mat: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=1)
        xs_bf16__tile_Left: pl.Tile[[16, 64], pl.BF16, pl.Mem.Left] = pl.tile.move(xs_bf16__tile_Left_mat, target_memory=pl.Mem.Left, blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)
        pl.system.tfree_to_aiv(xs_bf16__tile_Left_mat)
        w__ssa_v0_mat_Right_mat: pl.Tile[[64, 64], pl.BF16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=1)
        w__ssa_v0_mat_Right: pl.Tile[[64, 64], pl.BF16, pl.Mem.Right] = pl.tile.move(w__ssa_v0_mat_Right_mat, target_memory=pl.Mem.Right)
        pl.system.tfree_to_aiv(w__ssa_v0_mat_Right_mat)
        acc__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xs_bf16__tile_Left, w__ssa_v0_mat_Right)
        pl.tile.tpush_to_aiv(acc__tile, split=1)
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def scaled_mm_aiv(x__ssa_v0: pl.Tensor[[16, 64], pl.FP32], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], bias__ssa_v0: pl.Tensor[[16, 64], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN, "split_aiv": True})
        subblock_idx: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        scaled_mm_v2c_slot_buffer_import: pl.Scalar[pl.INT32] = pl.system.import_peer_buffer(name='scaled_mm_v2c_slot_buffer', peer_func='scaled_mm_aic')
        scaled_mm_c2v_slot_buffer: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='scaled_mm_c2v_slot_buffer', size=8192, base=-1)
        pl.system.aiv_initialize_pipe(scaled_mm_c2v_slot_buffer, scaled_mm_v2c_slot_buffer_import, dir_mask=3, slot_size=4096, slot_num=2)
        x__tile: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0 + subblock_idx * 8, 0], [8, 64], [8, 64], target_memory=pl.Mem.Vec)
        bias__tile: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(bias__ssa_v0, [0 + subblock_idx * 8, 0], [8, 64], [8, 64], target_memory=pl.Mem.Vec)
        t__tile: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(x__tile, 0.5)
        xs_bf16__tile: pl.Tile[[8, 64], pl.BF16, pl.Mem.Vec] = pl.tile.cast(t__tile, target_type=pl.BF16, mode='round')
        pl.tile.tpush_to_aic(xs_bf16__tile, split=1)
        acc__tile_Vec: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)
        t__tile_1: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc__tile_Vec, bias__tile)
        pl.system.tfree_to_aic(acc__tile_Vec)
        out__tile: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(t__tile_1, [0 + subblock_idx * 8, 0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def scaled_mm(x__ssa_v0: pl.Tensor[[16, 64], pl.FP32], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], bias__ssa_v0: pl.Tensor[[16, 64], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN, "split_aiv": True})
        self.scaled_mm_aic(x__ssa_v0, w__ssa_v0, bias__ssa_v0, out__ssa_v0)
        self.scaled_mm_aiv(x__ssa_v0, w__ssa_v0, bias__ssa_v0, out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def scaled_matmul(self, x__ssa_v0: pl.Tensor[[16, 64], pl.FP32], w__ssa_v0: pl.Tensor[[64, 64], pl.BF16], bias__ssa_v0: pl.Tensor[[16, 64], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        out__ssa_v1: pl.Tensor[[16, 64], pl.FP32] = self.scaled_mm(x__ssa_v0, w__ssa_v0, bias__ssa_v0, out__ssa_v0)
        return out__ssa_v1
