# pypto.program: MoveSourceStays
import pypto.language as pl

@pl.program
class MoveSourceStays:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def two_moves(x__ssa_v0: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)], k__ssa_v0: pl.Tensor[[64, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 16384)], v__ssa_v0: pl.Tensor[[64, 64], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 16384)], out_k__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 4096)]], out_v__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_4", pl.const(0, pl.INT64), 4096)]]) -> pl.Tensor[[16, 64], pl.FP32]:
        mem_mat_5: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 4096)
        mem_mat_6: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 16384)
        mem_mat_7: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 16384)
        mem_left_8: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 4096)
        mem_right_9: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 16384)
        mem_acc_10: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 4096)
        mem_acc_11: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 4096)
        x_l1__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_mat_5, pl.const(0, pl.INT64), 4096), pl.Mem.Mat] = pl.tile.load(x__ssa_v0, [0, 0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
        k_l1__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_mat_6, pl.const(4096, pl.INT64), 16384), pl.Mem.Mat] = pl.tile.load(k__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        v_l1__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_mat_7, pl.const(20480, pl.INT64), 16384), pl.Mem.Mat] = pl.tile.load(v__ssa_v0, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
        x_l0__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_left_8, pl.const(0, pl.INT64), 4096), pl.Mem.Left] = pl.tile.move(x_l1__ssa_v0, target_memory=pl.Mem.Left)
        for i__idx_v0 in pl.range(2):
            k_l0__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_right_9, pl.const(0, pl.INT64), 16384), pl.Mem.Right] = pl.tile.move(k_l1__ssa_v0, target_memory=pl.Mem.Right)
            sk__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_acc_10, pl.const(0, pl.INT64), 4096), pl.Mem.Acc] = pl.tile.matmul(x_l0__ssa_v0, k_l0__ssa_v0)
            v_l0__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_right_9, pl.const(0, pl.INT64), 16384), pl.Mem.Right] = pl.tile.move(v_l1__ssa_v0, target_memory=pl.Mem.Right)
            sv__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_acc_11, pl.const(4096, pl.INT64), 4096), pl.Mem.Acc] = pl.tile.matmul(x_l0__ssa_v0, v_l0__ssa_v0)
            ok__ssa_v0: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 4096)] = pl.tile.store(sk__ssa_v0, [0, 0], out_k__ssa_v0)
            ov__ssa_v0: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_4", pl.const(0, pl.INT64), 4096)] = pl.tile.store(sv__ssa_v0, [0, 0], out_v__ssa_v0)
        return out_k__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, x__ssa_v0: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)], k__ssa_v0: pl.Tensor[[64, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 16384)], v__ssa_v0: pl.Tensor[[64, 64], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 16384)], out_k__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 4096)]], out_v__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_4", pl.const(0, pl.INT64), 4096)]]) -> pl.Tensor[[16, 64], pl.FP32]:
        r__ssa_v0: pl.Tensor[[16, 64], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 4096)] = self.two_moves(x__ssa_v0, k__ssa_v0, v__ssa_v0, out_k__ssa_v0, out_v__ssa_v0)
        return out_k__ssa_v0
