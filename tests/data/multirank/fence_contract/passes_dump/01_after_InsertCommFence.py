# pypto.program: FenceContract
import pypto.language as pl

# The markers InsertCommFence inserts (PyPTO docs/en/dev/passes/
# 46-insert_comm_fence.md): a fence after the remote store, a whole-GM
# cacheinvalid() after the wait. The contract holds.

@pl.program
class FenceContract:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def writer(data: pl.InOut[pld.DistributedTensor[[1, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        t: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 8], [1, 8], target_memory=pl.Mem.Vec)
        ones: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 1.0)
        pld.tile.remote_store(ones, data, 0, [0, 0])
        pl.system.fence()
        pld.system.notify(signal, 0, [0, 0], pl.const(1, pl.INT32), op=0)
        return data

    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def reader(data: pl.InOut[pld.DistributedTensor[[1, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]], out: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=1)
        pl.system.cacheinvalid()
        t: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [0, 0], [1, 8], [1, 8], target_memory=pl.Mem.Vec)
        out_v1: pl.Tensor[[1, 8], pl.FP32] = pl.tile.store(t, [0, 0], out)
        return out_v1

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, out: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]]) -> pl.Tensor[[2, 1, 8], pl.FP32]:
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(32)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(4)
        data: pld.DistributedTensor[[1, 8], pl.FP32] = pld.tensor.window(data_buf, [1, 8], dtype=pl.FP32)
        signal: pld.DistributedTensor[[1, 1], pl.INT32] = pld.tensor.window(signal_buf, [1, 1], dtype=pl.INT32)
        self.reader(data, signal, pl.tensor.slice(out, [1, 1, 8], [0, 0, 0], [], [0]), device=0)
        self.writer(data, signal, device=1)
        return out
