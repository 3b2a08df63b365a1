# pypto.program: ColumnHalves
import pypto.language as pl

# Made by us for ptodb's tests (tests/cli/multirank_columns.sh): the pattern
# of pypto-lib's deepseek_v4 lm_head. The chip orchestrator calls an Inline
# function (run in line: InlineFunctions inlines it into the orchestrator)
# whose `with pl.spmd(2)` scope holds a pl.split_aiv region: each block runs
# on both AIV lanes, and block b remote-stores the lane's two rows of inp
# into rank b's window, at columns my_rank * 4 .. + 4. The two ranks write
# the same rows of a window, unordered, in disjoint columns: no race. Then
# a notify/wait barrier (each lane notifies after its own stores: a peer
# waits for 2), and each rank copies its window into out.
@pl.program
class ColumnHalves:
    @pl.function(type=pl.FunctionType.Inline, auto_scope=False)
    def exchange(self, inp: pl.Tensor[[4, 4], pl.FP32], out: pl.Tensor[[4, 8], pl.FP32], data: pld.DistributedTensor[[4, 8], pl.FP32], done: pld.DistributedTensor[[2, 1], pl.INT32], my_rank: pl.Scalar[pl.INT32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.spmd(2, name_hint="push_spmd") as _push_tid:
            blk: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
            for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                shard: pl.Tensor[[2, 4], pl.FP32] = pl.tensor.aiv_shard(inp)
                pld.tensor.remote_store(shard, data, blk, [aiv_id * 2, pl.cast(my_rank, pl.INDEX) * 4])
            for aiv_id_1 in pl.split_aiv(2, mode=pl.SplitMode.NONE):
                if blk != pl.cast(my_rank, pl.INDEX):
                    pld.system.notify(done, blk, [my_rank, 0], pl.const(1, pl.INT32), op=0)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="exchange_wait", deps=[_push_tid]) as _wait_tid:
            for src in pl.range(2):
                if src != pl.cast(my_rank, pl.INDEX):
                    pld.system.wait(done, [src, 0], pl.const(2, pl.INT32), cmp=1)
        with pl.spmd(1, name_hint="exchange_read_spmd", deps=[_wait_tid]) as _read_tid:
            out: pl.Tensor[[4, 8], pl.FP32] = pl.tensor.assemble(out, pl.tensor.slice(data, [4, 8], [0, 0]), [0, 0])
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def chip_orch(self, inp: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]], data: pld.DistributedTensor[[4, 8], pl.FP32], done: pld.DistributedTensor[[2, 1], pl.INT32], my_rank: pl.Scalar[pl.INT32]) -> pl.Tensor[[4, 8], pl.FP32]:
        self.exchange(inp, out, data, done, my_rank)
        return out
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, inputs: pl.Tensor[[2, 4, 4], pl.FP32], out: pl.Out[pl.Tensor[[2, 4, 8], pl.FP32]]) -> pl.Tensor[[2, 4, 8], pl.FP32]:
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(128)
        done_buf: pl.Ptr = pld.tensor.alloc_window_buffer(8)
        for r in pl.range(pld.system.world_size()):
            data: pld.DistributedTensor[[4, 8], pl.FP32] = pld.tensor.window(data_buf, [4, 8], dtype=pl.FP32)
            done: pld.DistributedTensor[[2, 1], pl.INT32] = pld.tensor.window(done_buf, [2, 1], dtype=pl.INT32)
            self.chip_orch(pl.tensor.slice(inputs, [1, 4, 4], [r, 0, 0], [], [0]), pl.tensor.slice(out, [1, 4, 8], [r, 0, 0], [], [0]), data, done, r, device=r)
        return out
