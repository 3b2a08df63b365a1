# pypto.program: DeferWait
import pypto.language as pl

# Made by us for ptodb's tests (docs/multirank.md, "defer_wait"): rank 0
# runs waiter, which registers pld.system.defer_wait on its signal cell,
# then bump (y[0] += 1, a compute task independent of waiter); rank 1 runs
# send, which reads y[0] (so it depends on rank 0's bump: read after write)
# and notifies rank 0's cell. defer_wait does not block: waiter retires and
# frees rank 0's core, bump runs, send becomes ready, its notify completes
# waiter (PyPTO distributed_ops.md, pld.system.defer_wait; system.cpp). y[0]
# = 1, y[1] = 0. 01_after_Wait.py is the program with pld.system.wait,
# which parks waiter and so holds bump behind it: a deadlock.


@pl.program
class DeferWait:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def waiter(signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]]) -> pl.Tensor[[1, 1], pl.INT32]:
        pld.system.defer_wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=1)
        return signal

    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def bump(y: pl.InOut[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        t: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [1, 8], [1, 8], target_memory=pl.Mem.Vec)
        u: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 1.0)
        y_v1: pl.Tensor[[1, 8], pl.FP32] = pl.tile.store(u, [0, 0], y)
        return y_v1

    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def send(y: pl.Tensor[[1, 8], pl.FP32], signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]], peer: pl.Scalar[pl.INT32]) -> pl.Tensor[[1, 8], pl.FP32]:
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=0)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, y: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]]) -> pl.Tensor[[2, 1, 8], pl.FP32]:
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(4)
        signal: pld.DistributedTensor[[1, 1], pl.INT32] = pld.tensor.window(signal_buf, [1, 1], dtype=pl.INT32)
        self.waiter(signal, device=0)
        self.bump(pl.tensor.slice(y, [1, 1, 8], [0, 0, 0], [], [0]), device=0)
        self.send(pl.tensor.slice(y, [1, 1, 8], [0, 0, 0], [], [0]), signal, 0, device=1)
        return y
