# pypto.program: ScopePredicatedDispatchProgram
import pypto.language as pl

@pl.program
class ScopePredicatedDispatchProgram:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def clobber(x__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 16], dtype=pl.FP32, value=999.0)
        return pl.tile.store(t__ssa_v0, [0, 0], x__ssa_v0)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def consumer(x__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)
        return pl.tile.store(t__ssa_v0, [0, 0], out__ssa_v0)
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def x_producer(x__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t__ssa_v0: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 16], dtype=pl.FP32, value=42.0)
        return pl.tile.store(t__ssa_v0, [0, 0], x__ssa_v0)
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]], gate__ssa_v0: pl.Tensor[[16, 16], pl.INT32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.spmd(1) as xp_tid__ssa_v0:
            x__ssa_v1: pl.Tensor[[16, 16], pl.FP32] = self.x_producer(x__ssa_v0)
        # Predicated clobber authored as a scope: the predicate rides on the
        # SpmdScopeStmt and is moved onto the Submit by the outliner.
        # ``gate`` is a host-initialised input with no in-function producer,
        # so ``deps=[xp_tid]`` covers the operand ordering requirement.
        with pl.spmd(1, deps=[xp_tid__ssa_v0], predicate=(pl.cast(pl.tensor.read(gate__ssa_v0, [0, 0]), pl.INDEX) > 0)) as clobber_tid__ssa_v0:
            x__ssa_v2: pl.Tensor[[16, 16], pl.FP32] = self.clobber(x__ssa_v1)
        with pl.spmd(1, deps=[clobber_tid__ssa_v0]) as ___ssa_v0:
            out__ssa_v1: pl.Tensor[[16, 16], pl.FP32] = self.consumer(x__ssa_v2, out__ssa_v0)
        return out__ssa_v1
