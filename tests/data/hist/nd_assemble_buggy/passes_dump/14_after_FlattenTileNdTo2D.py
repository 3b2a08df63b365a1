# pypto.program: NdAssembleProgram
import pypto.language as pl

@pl.program
class NdAssembleProgram:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def main_incore_0(x__ssa_v0: pl.Tensor[[4, 8, 16], pl.FP32], out_0__ssa_v0: pl.Out[pl.Tensor[[4, 8, 16], pl.FP32]]) -> pl.Tensor[[4, 8, 16], pl.FP32]:
        page__ssa_v0: pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([8, 16], dtype=pl.FP32, value=1.0)
        acc__ssa_v0: pl.Tile[[32, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0, 0], [4, 8, 16], [4, 8, 16], target_memory=pl.Mem.Vec)
        acc2__ssa_v0: pl.Tile[[32, 16], pl.FP32, pl.Mem.Vec] = pl.tile.assemble(acc__ssa_v0, page__ssa_v0, [2, 0, 0])
        out_0__ssa_v1: pl.Tensor[[4, 8, 16], pl.FP32] = pl.tile.store(acc2__ssa_v0, [0, 0, 0], out_0__ssa_v0, [4, 8, 16])
        return out_0__ssa_v1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[4, 8, 16], pl.FP32], out_0__ssa_v0: pl.Out[pl.Tensor[[4, 8, 16], pl.FP32]]) -> pl.Tensor[[4, 8, 16], pl.FP32]:
        out_0__ssa_v1: pl.Tensor[[4, 8, 16], pl.FP32] = self.main_incore_0(x__ssa_v0, out_0__ssa_v0)
        return out_0__ssa_v1
