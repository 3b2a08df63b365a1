# pypto.program: MatmulMx
import pypto.language as pl

@pl.program
class MatmulMx:
    @pl.function(type=pl.FunctionType.InCore)
    def mx_kernel(a__ssa_v0: pl.Tensor[[32, 128], pl.FP8E4M3FN], a_scale__ssa_v0: pl.Tensor[[32, 4], pl.FP8E8M0, pl.TensorView(stride=[], layout=pl.TensorLayout.MX_A_ZZ)], b__ssa_v0: pl.Tensor[[128, 32], pl.FP8E4M3FN], b_scale__ssa_v0: pl.Tensor[[4, 32], pl.FP8E8M0, pl.TensorView(stride=[], layout=pl.TensorLayout.MX_B_NN)], out__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        a__tile: pl.Tile[[32, 128], pl.FP8E4M3FN, pl.Mem.Mat] = pl.tile.load(a__ssa_v0, [0, 0], [32, 128], [32, 128], target_memory=pl.Mem.Mat)
        a__tile_Left: pl.Tile[[32, 128], pl.FP8E4M3FN, pl.Mem.Left] = pl.tile.move(a__tile, target_memory=pl.Mem.Left)
        as__tile: pl.Tile[[32, 4], pl.FP8E8M0, pl.Mem.Mat] = pl.tile.load(a_scale__ssa_v0, [0, 0], [32, 4], [32, 4], target_memory=pl.Mem.Mat)
        as__tile_LeftScale: pl.Tile[[32, 4], pl.FP8E8M0, pl.Mem.LeftScale] = pl.tile.move(as__tile, target_memory=pl.Mem.LeftScale)
        b__tile: pl.Tile[[128, 32], pl.FP8E4M3FN, pl.Mem.Mat] = pl.tile.load(b__ssa_v0, [0, 0], [128, 32], [128, 32], target_memory=pl.Mem.Mat)
        b__tile_Right: pl.Tile[[128, 32], pl.FP8E4M3FN, pl.Mem.Right] = pl.tile.move(b__tile, target_memory=pl.Mem.Right)
        bs__tile: pl.Tile[[4, 32], pl.FP8E8M0, pl.Mem.Mat] = pl.tile.load(b_scale__ssa_v0, [0, 0], [4, 32], [4, 32], target_memory=pl.Mem.Mat)
        bs__tile_RightScale: pl.Tile[[4, 32], pl.FP8E8M0, pl.Mem.RightScale] = pl.tile.move(bs__tile, target_memory=pl.Mem.RightScale)
        as__bound: pl.Tile[[32, 4], pl.FP8E8M0, pl.Mem.LeftScale] = pl.tile.tget_scale_addr(as__tile_LeftScale, a__tile_Left)
        bs__bound: pl.Tile[[4, 32], pl.FP8E8M0, pl.Mem.RightScale] = pl.tile.tget_scale_addr(bs__tile_RightScale, b__tile_Right)
        base__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_mx(a__tile_Left, as__bound, b__tile_Right, bs__bound)
        as__bound_1: pl.Tile[[32, 4], pl.FP8E8M0, pl.Mem.LeftScale] = pl.tile.tget_scale_addr(as__bound, a__tile_Left)
        bs__bound_1: pl.Tile[[4, 32], pl.FP8E8M0, pl.Mem.RightScale] = pl.tile.tget_scale_addr(bs__bound, b__tile_Right)
        acc__tile: pl.Tile[[32, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_mx_acc(base__tile, a__tile_Left, as__bound_1, b__tile_Right, bs__bound_1)
        out__tile: pl.Tensor[[32, 32], pl.FP32] = pl.tile.store(acc__tile, [0, 0], out__ssa_v0)
        return out__tile
    @pl.function(type=pl.FunctionType.Orchestration)
    def mx_orch(self, a__ssa_v0: pl.Tensor[[32, 128], pl.FP8E4M3FN], a_scale__ssa_v0: pl.Tensor[[32, 4], pl.FP8E8M0, pl.TensorView(stride=[], layout=pl.TensorLayout.MX_A_ZZ)], b__ssa_v0: pl.Tensor[[128, 32], pl.FP8E4M3FN], b_scale__ssa_v0: pl.Tensor[[4, 32], pl.FP8E8M0, pl.TensorView(stride=[], layout=pl.TensorLayout.MX_B_NN)], out__ssa_v0: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        out__ssa_v1: pl.Tensor[[32, 32], pl.FP32] = self.mx_kernel(a__ssa_v0, a_scale__ssa_v0, b__ssa_v0, b_scale__ssa_v0, out__ssa_v0)
        return out__ssa_v1
