# pypto.program: ManualScope
import pypto.language as pl

@pl.program
class ManualScope:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def stage1(a: pl.Tensor[[64, 32], pl.FP32], r: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        t: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [r, 0], [16, 32], [16, 32], target_memory=pl.Mem.Vec)
        s: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, 2.0)
        out1: pl.Tensor[[64, 32], pl.FP32] = pl.tile.store(s, [r, 0], out)
        return out1
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def stage2(b: pl.Tensor[[64, 32], pl.FP32], r: pl.Scalar[pl.INDEX], out: pl.InOut[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        t: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(out, [r, 0], [16, 32], [16, 32], target_memory=pl.Mem.Vec)
        u: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(b, [r, 0], [16, 32], [16, 32], target_memory=pl.Mem.Vec)
        s: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, u)
        out1: pl.Tensor[[64, 32], pl.FP32] = pl.tile.store(s, [r, 0], out)
        return out1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orchestrator(self, a: pl.Tensor[[64, 32], pl.FP32], b: pl.Tensor[[64, 32], pl.FP32], out: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            for i, (o,) in pl.range(4, init_values=(out,)):
                r: pl.Scalar[pl.INDEX] = i * 16
                ret1: pl.Tuple[pl.Tensor[[64, 32], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.submit(self.stage1, a, r, o)
                o1: pl.Tensor[[64, 32], pl.FP32] = ret1[0]
                tid1: pl.Scalar[pl.TASK_ID] = ret1[1]
                ret2: pl.Tuple[pl.Tensor[[64, 32], pl.FP32], pl.Scalar[pl.TASK_ID]] = pl.submit(self.stage2, b, r, o1, deps=[tid1])
                o2: pl.Tensor[[64, 32], pl.FP32] = ret2[0]
                o3 = pl.yield_(o2)
        return o3
