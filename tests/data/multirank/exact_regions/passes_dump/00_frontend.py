# pypto.program: ExactRegions
import pypto.language as pl

# Made by us for ptodb's tests (tests/cli/multirank_exact.sh). NR is a
# pl.dynamic symbol: the host orchestrator binds it from inputs' shape (its
# rank axis) and sizes the windows with it. Every rank puts its input row
# into row my_rank of every rank's window, itself included (one access of
# that row), then a notify/wait barrier. Then each rank reads its left
# neighbour's row `left` (pld.tile.remote_load) and stores it + 10 into row
# `right` of its own window, unordered with its right neighbour's read of
# its row my_rank: disjoint bytes, no race. out_a = own row my_rank,
# out_b = own row `right`.
NR = pl.dynamic("NR")

@pl.program
class ExactRegions:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def step(inp: pl.Tensor[[1, 8], pl.FP32], out_a: pl.Out[pl.Tensor[[1, 8], pl.FP32]], out_b: pl.Out[pl.Tensor[[1, 8], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[NR, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        ctx: pld.CommCtxType = pld.system.get_comm_ctx(data)
        my_rank: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
        nranks: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
        left: pl.Scalar[pl.INDEX] = (pl.cast(my_rank, pl.INDEX) - 1 + pl.cast(nranks, pl.INDEX)) % pl.cast(nranks, pl.INDEX)
        right: pl.Scalar[pl.INDEX] = (pl.cast(my_rank, pl.INDEX) + 1) % pl.cast(nranks, pl.INDEX)
        for dest in pl.range(nranks):
            pld.tensor.put(data, dest, inp, [my_rank, 0], [0, 0], [1, 8], atomic=pl.AtomicType.None_)
        for peer in pl.range(nranks):
            if peer != pl.cast(my_rank, pl.INDEX):
                pld.system.notify(signal, peer, [my_rank, 0], pl.const(1, pl.INT32), op=1)
        for src in pl.range(nranks):
            if src != pl.cast(my_rank, pl.INDEX):
                pld.system.wait(signal, [src, 0], pl.const(1, pl.INT32), cmp=1)
        recv: pl.Tile[[1, 8], pl.FP32] = pld.tile.remote_load(data, left, [left, 0], [1, 8])
        bumped: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.adds(recv, 10.0)
        pl.tile.store(bumped, [right, 0], data)
        mine: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [my_rank, 0], [1, 8], [1, 8], target_memory=pl.Mem.Vec)
        pl.tile.store(mine, [0, 0], out_a)
        theirs: pl.Tile[[1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [right, 0], [1, 8], [1, 8], target_memory=pl.Mem.Vec)
        pl.tile.store(theirs, [0, 0], out_b)
        return out_a
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_orch(self, inp: pl.Tensor[[1, 8], pl.FP32], out_a: pl.Out[pl.Tensor[[1, 8], pl.FP32]], out_b: pl.Out[pl.Tensor[[1, 8], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[NR, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        return self.step(inp, out_a, out_b, data, signal)
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, inputs: pl.Tensor[[NR, 1, 8], pl.FP32], out_a: pl.Out[pl.Tensor[[NR, 1, 8], pl.FP32]], out_b: pl.Out[pl.Tensor[[NR, 1, 8], pl.FP32]]) -> pl.Tensor[[NR, 1, 8], pl.FP32]:
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(NR * 8 * 4)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(NR * 4)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[NR, 8], pl.FP32] = pld.tensor.window(data_buf, [NR, 8], dtype=pl.FP32)
            sig: pld.DistributedTensor[[NR, 1], pl.INT32] = pld.tensor.window(signal_buf, [NR, 1], dtype=pl.INT32)
            self.chip_orch(pl.tensor.slice(inputs, [1, 1, 8], [r, 0, 0], [], [0]), pl.tensor.slice(out_a, [1, 1, 8], [r, 0, 0], [], [0]), pl.tensor.slice(out_b, [1, 1, 8], [r, 0, 0], [], [0]), data, sig, device=r)
        return out_a
