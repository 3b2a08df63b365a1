# pypto.program: MatmulAccWindowProgram
import pypto.language as pl

@pl.program
class MatmulAccWindowProgram:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def matmul_acc_window(a__ssa_v0: pl.Tensor[[16, 128], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 8192)], b__ssa_v0: pl.Tensor[[128, 128], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 65536)], c__ssa_v0: pl.Out[pl.Tensor[[16, 128], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 8192)]]) -> pl.Tensor[[16, 128], pl.FP32]:
        mem_acc_3: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 8192)
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 4096)
        mem_mat_5: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 16384)
        mem_left_6: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 4096)
        mem_right_7: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 16384)
        acc__ssa_v0: pl.Tile[[16, 128], pl.FP32, pl.MemRef(mem_acc_3, pl.const(0, pl.INT64), 8192), pl.Mem.Acc] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for t__idx_v0 in pl.range(2):
            for k0__idx_v0 in pl.range(0, 128, 64):
                a_l1__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_mat_4, pl.const(0, pl.INT64), 4096), pl.Mem.Mat] = pl.tile.load(a__ssa_v0, [0, k0__idx_v0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
                b_l1__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_mat_5, pl.const(4096, pl.INT64), 16384), pl.Mem.Mat] = pl.tile.load(b__ssa_v0, [k0__idx_v0, t__idx_v0 * 64], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
                a_l0__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_left_6, pl.const(0, pl.INT64), 4096), pl.Mem.Left] = pl.tile.move(a_l1__ssa_v0, target_memory=pl.Mem.Left)
                b_l0__ssa_v0: pl.Tile[[64, 64], pl.FP32, pl.MemRef(mem_right_7, pl.const(0, pl.INT64), 16384), pl.Mem.Right] = pl.tile.move(b_l1__ssa_v0, target_memory=pl.Mem.Right)
                win__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_acc_3, pl.const(0, pl.INT64), 7936), pl.Mem.Acc] = pl.tile.slice(acc__ssa_v0, [16, 64], [0, t__idx_v0 * 64])
                win__ssa_v1: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_acc_3, pl.const(0, pl.INT64), 7936), pl.Mem.Acc] = pl.tile.matmul_acc(win__ssa_v0, a_l0__ssa_v0, b_l0__ssa_v0, k0__idx_v0 == 0)
        out_c__ssa_v0: pl.Tensor[[16, 128], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 8192)] = pl.tile.store(acc__ssa_v0, [0, 0], c__ssa_v0)
        return c__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, a__ssa_v0: pl.Tensor[[16, 128], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 8192)], b__ssa_v0: pl.Tensor[[128, 128], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 65536)], out_c__ssa_v0: pl.Out[pl.Tensor[[16, 128], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 8192)]]) -> pl.Tensor[[16, 128], pl.FP32]:
        out_c__ssa_v1: pl.Tensor[[16, 128], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 8192)] = self.matmul_acc_window(a__ssa_v0, b__ssa_v0, out_c__ssa_v0)
        return out_c__ssa_v1
