# pypto.program: MlpBlock
import pypto.language as pl

@pl.program
class MlpBlock:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def mlp_fused(x__ssa_v0: pl.Tensor[[16, 64], pl.FP32], norm_w__ssa_v0: pl.Tensor[[1, 64], pl.FP32], w_gate__ssa_v0: pl.Tensor[[64, 128], pl.BF16], w_up__ssa_v0: pl.Tensor[[64, 128], pl.BF16], w_down__ssa_v0: pl.Tensor[[128, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        x__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        norm_w__tile: pl.Tile[[1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(norm_w__ssa_v0, [0, 0], [1, 64], [1, 64], target_memory=pl.Mem.Vec)
        t__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.mul(x__tile, x__tile)
        tmp_tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([16, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        sq_sum__tile: pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec] = pl.tile.row_sum(t__tile, tmp_tile)
        t__tile_1: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.reshape(sq_sum__tile, [1, 16])
        t__tile_2: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t__tile_1, 0.015625)
        t__tile_3: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t__tile_2, 9.9999999999999995e-07)
        inv_rms__tile: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.rsqrt(t__tile_3)
        lo__ssa: pl.Scalar[pl.FP32] = 0.0
        clamped__tile: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.maximums(t__tile_3, lo__ssa)
        t__tile_4: pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec] = pl.tile.reshape(inv_rms__tile, [16, 1])
        t__tile_5: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.row_expand_mul(x__tile, t__tile_4)
        xn__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.col_expand_mul(t__tile_5, norm_w__tile)
        xn_bf16__tile: pl.Tile[[16, 64], pl.BF16, pl.Mem.Vec] = pl.tile.cast(xn__tile, target_type=pl.BF16, mode='round')
        down_acc__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 64], dtype=pl.FP32, value=0.0)
        for ib__idx_v0, (down_acc__iter_v1,) in pl.range(2, init_values=(down_acc__tile,)):
            i0__ssa_v0: pl.Scalar[pl.INDEX] = ib__idx_v0 * 64
            wg__tile: pl.Tile[[64, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(w_gate__ssa_v0, [0, i0__ssa_v0], [64, 64], [64, 64], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
            wu__tile: pl.Tile[[64, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(w_up__ssa_v0, [0, i0__ssa_v0], [64, 64], [64, 64], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
            gate__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xn_bf16__tile, wg__tile)
            up__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(xn_bf16__tile, wu__tile)
            t__tile_6: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.neg(gate__tile)
            t__tile_7: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(t__tile_6)
            t__tile_8: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t__tile_7, 1.0)
            sigmoid__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.recip(t__tile_8)
            t__tile_9: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.mul(gate__tile, sigmoid__tile)
            h__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.mul(t__tile_9, up__tile)
            h_bf16__tile: pl.Tile[[16, 64], pl.BF16, pl.Mem.Vec] = pl.tile.cast(h__tile, target_type=pl.BF16, mode='round')
            wd__tile: pl.Tile[[64, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(w_down__ssa_v0, [i0__ssa_v0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
            t__tile_10: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(h_bf16__tile, wd__tile)
            down_acc__tile_1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(down_acc__iter_v1, t__tile_10)
            down_acc__rv_v2: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(down_acc__tile_1)
        t__tile_11: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(x__tile, down_acc__rv_v2)
        out__tile: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(t__tile_11, [0, 0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def mlp_block(self, x__ssa_v0: pl.Tensor[[16, 64], pl.FP32], norm_w__ssa_v0: pl.Tensor[[1, 64], pl.FP32], w_gate__ssa_v0: pl.Tensor[[64, 128], pl.BF16], w_up__ssa_v0: pl.Tensor[[64, 128], pl.BF16], w_down__ssa_v0: pl.Tensor[[128, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        out__ssa_v1: pl.Tensor[[16, 64], pl.FP32] = self.mlp_fused(x__ssa_v0, norm_w__ssa_v0, w_gate__ssa_v0, w_up__ssa_v0, w_down__ssa_v0, out__ssa_v0)
        return out__ssa_v1
