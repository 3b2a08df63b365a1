# pypto.program: MatmulAccWindowProgram
import pypto.language as pl

@pl.program
class MatmulAccWindowProgram:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def matmul_acc_window(a: pl.Tensor[[16, 128], pl.FP32], b: pl.Tensor[[128, 128], pl.FP32], c: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        acc: pl.Tile[[16, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([16, 128], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for t in pl.range(2):
            for k0 in pl.range(0, 128, 64):
                a_l1: pl.Tile[[16, 64], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, k0], [16, 64], [16, 64], target_memory=pl.Mem.Mat)
                b_l1: pl.Tile[[64, 64], pl.FP32, pl.Mem.Mat] = pl.tile.load(b, [k0, t * 64], [64, 64], [64, 64], target_memory=pl.Mem.Mat)
                a_l0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Left] = pl.tile.move(a_l1, target_memory=pl.Mem.Left)
                b_l0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Right] = pl.tile.move(b_l1, target_memory=pl.Mem.Right)
                # Column window: spans the parent's full row extent, so it
                # is contiguous in L0C and legal as a MAD destination.
                win: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.slice(acc, [16, 64], [0, t * 64])
                win: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(win, a_l0, b_l0, k0 == 0)
        out_c: pl.Tensor[[16, 128], pl.FP32] = pl.tile.store(acc, [0, 0], c)
        return out_c
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, a: pl.Tensor[[16, 128], pl.FP32], b: pl.Tensor[[128, 128], pl.FP32], out_c: pl.Out[pl.Tensor[[16, 128], pl.FP32]]) -> pl.Tensor[[16, 128], pl.FP32]:
        out_c: pl.Tensor[[16, 128], pl.FP32] = self.matmul_acc_window(a, b, out_c)
        return out_c
