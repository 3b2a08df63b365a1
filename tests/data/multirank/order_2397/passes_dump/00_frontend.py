# pypto.program: Order2397
import pypto.language as pl

# PyPTO issue #2397, made by us for ptodb's tests: on each of 2 ranks, five
# dispatches: compute, send, compute, wait, compute. send reads what the first
# compute wrote (a tensor dependency); wait touches only the signal window,
# which carries no tensor tag. With PyPTO #2398's per-rank ordering token a
# rank's comm dispatches run in program order and every rank finishes
# (y = 1, z = 1, w = 2). Without it (--comm-order=ready) the wait is ready at
# once and is routed ahead of its own rank's send: both ranks park at the wait
# and nobody ever notifies.


@pl.program
class Order2397:
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

    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def wait_step(signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]]) -> pl.Tensor[[1, 1], pl.INT32]:
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=1)
        return signal

    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def bump_into(z: pl.Tensor[[1, 8], pl.FP32], w: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        t: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(z, [0, 0], [1, 8], [1, 8], target_memory=pl.Mem.Vec)
        u: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 1.0)
        w_v1: pl.Tensor[[1, 8], pl.FP32] = pl.tile.store(u, [0, 0], w)
        return w_v1

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, y: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]], z: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]], w: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]]) -> pl.Tensor[[2, 1, 8], pl.FP32]:
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(4)
        for r in pl.range(pld.system.world_size()):
            signal: pld.DistributedTensor[[1, 1], pl.INT32] = pld.tensor.window(signal_buf, [1, 1], dtype=pl.INT32)
            self.bump(pl.tensor.slice(y, [1, 1, 8], [r, 0, 0], [], [0]), device=r)
            self.send(pl.tensor.slice(y, [1, 1, 8], [r, 0, 0], [], [0]), signal, 1 - r, device=r)
            self.bump(pl.tensor.slice(z, [1, 1, 8], [r, 0, 0], [], [0]), device=r)
            self.wait_step(signal, device=r)
            self.bump_into(pl.tensor.slice(z, [1, 1, 8], [r, 0, 0], [], [0]), pl.tensor.slice(w, [1, 1, 8], [r, 0, 0], [], [0]), device=r)
        return y
