# pypto.program: Signals
import pypto.language as pl

# Made by us for ptodb (docs/multirank.md, "Signals left non-zero"): on 2
# ranks each rank computes out = x + 1; rank 1 also notifies rank 0 (cell
# [1, 0] of rank 0's signal, AtomicAdd 1), but rank 0 never waits for it.
# The notify is lost: ptodb reports it at the notify, by rank 1, with rank
# 0's cell holding 1 at the end. 01_after_Barrier.py leaves a notify in a
# collective's signal; 02_after_Handshake.py is the program with its wait.


@pl.program
class Signals:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def bump_into(x: pl.Tensor[[1, 8], pl.FP32], out: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        t: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [1, 8], [1, 8], target_memory=pl.Mem.Vec)
        u: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 1.0)
        out_v1: pl.Tensor[[1, 8], pl.FP32] = pl.tile.store(u, [0, 0], out)
        return out_v1

    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def ping(signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]], peer: pl.Scalar[pl.INT32], me: pl.Scalar[pl.INT32]) -> pl.Tensor[[2, 1], pl.INT32]:
        pld.system.notify(signal, peer, [me, 0], pl.const(1, pl.INT32), op=0)
        return signal

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.FP32], out: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]]) -> pl.Tensor[[2, 1, 8], pl.FP32]:
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(8)
        for r in pl.range(pld.system.world_size()):
            signal: pld.DistributedTensor[[2, 1], pl.INT32] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            self.bump_into(pl.tensor.slice(x, [1, 1, 8], [r, 0, 0], [], [0]), pl.tensor.slice(out, [1, 1, 8], [r, 0, 0], [], [0]), device=r)
        self.ping(signal, 0, 1, device=1)
        return out
