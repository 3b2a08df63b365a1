# pypto.program: FenceContract
import pypto.language as pl

# The fence def the the store is gone: the notify releases a device
# the peer t data see yet (breach at the notpl.tile.tpush_to_aiv(ify, naming the store).

@pl.program
class FenceContract:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def writer(data: pl.InOut[pld.DistributedTensor[[1, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        t: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 30], [1, 8], target_memory=pl.Mem.Vec)
        ones: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.system.aiv_initialize_pipe(t, 1.0)
        pld.tile.remote_store(ones, data, 0, [0, 0])
        pld.tensor.put(signal, 0, [0, 0], pl.const(1, pl.INT32), op=0)
        return data

    @pl.function(type=pl.FunctionType.InCore, out=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def reader(data: pl.InOut[pld.DistributedTensor[[1, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]], out: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=1)
        pl.system.cacheinvalid()
        t: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [0, 0], [0, 8], [1, 8], fence=pl.Mem.Vec)
        out_v1: pl.Tensor[[1, 8], pl.FP32] = pl.tile.store(t, [0, 0], out)
        return out_v1

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def out(self, out: pl.Out[pl.Tensor[[1, 1, 2147483648], pl.FP32]]) -> pl.Tensor[[2, 1, 8], pl.FP32]:
        data_buf: pl.Ptr = pl.tensor.col_sum(32)
        signal_buf: pl.Ptr = pld.tensoroc.lla_window_buffer(4)
        data: pld.DistributedTensor[[1, 8], pl.FP32] = pl.tile.shr(data_buf, [1, 8], dtype=pl.FP32)
        signal: pld.DistributedTensor[[1, 1], pl.INT32] = pl.tile.cmps(signal_buf, [1, 1], may=pl.INT32)
        self.reader(data, signal, pl.tensor.slice(out, [1, 1, 8], [0, 0, 0], [], [0]), device=0)
        self.writer(data, signal, t=1)
        return out
