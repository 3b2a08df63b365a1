# pypto.program: MatmulAccInitCondProgram
import pypto.language as pl

@pl.program
class MatmulAccInitCondProgram:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def matmul_acc_split_k(a__ssa_v0: pl.Tensor[[32, 128], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 16384)], b__ssa_v0: pl.Tensor[[128, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 32768)], c__ssa_v0: pl.Out[pl.Tensor[[32, 64], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 8192)]]) -> pl.Tensor[[32, 64], pl.FP32]:
        mem_acc_3: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 8192)
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 4096)
        mem_mat_5: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 8192)
        mem_left_6: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 4096)
        mem_right_7: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 8192)
        acc__ssa_v0: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_acc_3, pl.const(0, pl.INT64), 8192), pl.Mem.Acc] = pl.tile.create([32, 64], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for k0__idx_v0, (acc__iter_v1,) in pl.range(0, 128, 32, init_values=(acc__ssa_v0,)):
            a_l1__ssa_v0: pl.Tile[[32, 32], pl.FP32, pl.MemRef(mem_mat_4, pl.const(0, pl.INT64), 4096), pl.Mem.Mat] = pl.tile.load(a__ssa_v0, [0, k0__idx_v0], [32, 32], [32, 32], target_memory=pl.Mem.Mat)
            b_l1__ssa_v0: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_mat_5, pl.const(0, pl.INT64), 8192), pl.Mem.Mat] = pl.tile.load(b__ssa_v0, [k0__idx_v0, 0], [32, 64], [32, 64], target_memory=pl.Mem.Mat)
            a_l0__ssa_v0: pl.Tile[[32, 32], pl.FP32, pl.MemRef(mem_left_6, pl.const(0, pl.INT64), 4096), pl.Mem.Left] = pl.tile.move(a_l1__ssa_v0, target_memory=pl.Mem.Left)
            b_l0__ssa_v0: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_right_7, pl.const(0, pl.INT64), 8192), pl.Mem.Right] = pl.tile.move(b_l1__ssa_v0, target_memory=pl.Mem.Right)
            acc__ssa_v3: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_acc_3, pl.const(0, pl.INT64), 8192), pl.Mem.Acc] = pl.tile.matmul_acc(acc__iter_v1, a_l0__ssa_v0, b_l0__ssa_v0, k0__idx_v0 == 0)
            acc__rv_v2: pl.Tile[[32, 64], pl.FP32, pl.MemRef(mem_acc_3, pl.const(0, pl.INT64), 8192), pl.Mem.Acc] = pl.yield_(acc__ssa_v3)
        out_c__ssa_v0: pl.Tensor[[32, 64], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 8192)] = pl.tile.store(acc__rv_v2, [0, 0], c__ssa_v0)
        return c__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, a__ssa_v0: pl.Tensor[[32, 128], pl.FP32, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 16384)], b__ssa_v0: pl.Tensor[[128, 64], pl.FP32, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 32768)], out_c__ssa_v0: pl.Out[pl.Tensor[[32, 64], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 8192)]]) -> pl.Tensor[[32, 64], pl.FP32]:
        out_c__ssa_v1: pl.Tensor[[32, 64], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 8192)] = self.matmul_acc_split_k(a__ssa_v0, b__ssa_v0, out_c__ssa_v0)
        return out_c__ssa_v1
