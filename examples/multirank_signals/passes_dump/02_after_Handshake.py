# pypto.program: Signals
import pypto.language as pl

# The program of 00_frontend.py with rank 0's wait for rank 1's notify: the
# cell is left at 1 at the end, the residue of a handshake, which is no
# fault (the runtime frees the window after the run and zeroes the next
# one: simpler docs/comm-domain.md), so the pass passes: out = x + 1 on
# both ranks.


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
    def wait_for(signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]], src: pl.Scalar[pl.INT32]) -> pl.Tensor[[2, 1], pl.INT32]:
        pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        return signal

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.FP32], out: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]]) -> pl.Tensor[[2, 1, 8], pl.FP32]:
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(8)
        for r in pl.range(pld.system.world_size()):
            signal: pld.DistributedTensor[[2, 1], pl.INT32] = pld.tensor.window(signal_buf, [2, 1], dtype=pl.INT32)
            self.bump_into(pl.tensor.slice(x, [1, 1, 8], [r, 0, 0], [], [0]), pl.tensor.slice(out, [1, 1, 8], [r, 0, 0], [], [0]), device=r)
        self.ping(signal, 0, 1, device=1)
        self.wait_for(signal, 1, device=0)
        return out
