# pypto.program: DeferWait
import pypto.language as pl

# The program of 00_frontend.py with pld.system.wait for defer_wait: waiter
# parks rank 0's only core until its cell is notified, bump waits behind it,
# send (rank 1) waits for bump: nobody can move, a deadlock reported at the
# wait.


@pl.program
class DeferWait:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def waiter(signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]]) -> pl.Tensor[[1, 1], pl.INT32]:
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=1)
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
