# pypto.program: Signals
import pypto.language as pl

# The program of 00_frontend.py where each rank notifies its peer (cell
# [me, 0] of the peer's signal) and then both call pld.tensor.barrier on
# that same signal without waiting first. A collective starts from an
# all-zero signal (PyPTO docs/en/dev/distributed_ops.md, "Barrier-signal
# protocol"): the leftover 1 would let the barrier's waits pass early on the
# device. ptodb reports it at the barrier: rank 0's signal element 1 holds 1,
# last notified by rank 1.


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

    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def sync(signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]]) -> pl.Tensor[[2, 1], pl.INT32]:
        signal_v1: pld.DistributedTensor[[2, 1], pl.INT32] = pld.tensor.barrier(signal)
        return signal_v1

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.FP32], out: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]]) -> pl.Tensor[[2, 1, 8], pl.FP32]:
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(8)
        for r in pl.range(pld.system.world_size()):
            signal: pld.DistributedTensor[[2, 1], pl.INT32] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            self.bump_into(pl.tensor.slice(x, [1, 1, 8], [r, 0, 0], [], [0]), pl.tensor.slice(out, [1, 1, 8], [r, 0, 0], [], [0]), device=r)
            self.ping(signal, 1 - r, r, device=r)
            self.sync(signal, device=r)
        return out
