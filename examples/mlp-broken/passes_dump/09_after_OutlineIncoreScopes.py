# pypto.program: MlpBlock
import pypto.language as pl

@pl.program
class MlpBlock:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def mlp_fused(x__ssa_v0: pl.Tensor[[16, 64], pl.FP32], norm_w__ssa_v0: pl.Tensor[[1, 64], pl.FP32], w_gate__ssa_v0: pl.Tensor[[64, 128], pl.BF16], w_up__ssa_v0: pl.Tensor[[64, 128], pl.BF16], w_down__ssa_v0: pl.Tensor[[128, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        pl.func_attr({"split": pl.SplitMode.UP_DOWN})
        t__tmp_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.mul(x__ssa_v0, x__ssa_v0)
        # RMSNorm over the hidden dim (64 columns), eps = 1e-6, scaled by norm_w.
        sq_sum__ssa_v0: pl.Tensor[[16, 1], pl.FP32] = pl.tensor.row_sum(t__tmp_v0)
        t__tmp_v1: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.reshape(sq_sum__ssa_v0, [1, 16])
        t__tmp_v2: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.muls(t__tmp_v1, 0.015625)
        t__tmp_v3: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.adds(t__tmp_v2, 9.9999999999999995e-07)
        inv_rms__ssa_v0: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.rsqrt(t__tmp_v3)
        t__tmp_v4: pl.Tensor[[16, 1], pl.FP32] = pl.tensor.reshape(inv_rms__ssa_v0, [16, 1])
        t__tmp_v5: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.row_expand_mul(x__ssa_v0, t__tmp_v4)
        xn__ssa_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.col_expand_mul(t__tmp_v5, norm_w__ssa_v0)
        xn_bf16__ssa_v0: pl.Tensor[[16, 64], pl.BF16] = pl.tensor.cast(xn__ssa_v0, target_type=pl.BF16, mode='round')
        # SwiGLU over two 64-wide chunks of the intermediate dim; BF16 matmuls, FP32 accumulation.
        down_acc__ssa_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.full([16, 64], dtype=pl.FP32, value=0.0)
        for ib__idx_v0, (down_acc__iter_v1,) in pl.range(2, init_values=(down_acc__ssa_v0,)):
            i0__ssa_v0: pl.Scalar[pl.INDEX] = ib__idx_v0 * 64
            wg__ssa_v0: pl.Tensor[[64, 64], pl.BF16] = pl.tensor.slice(w_gate__ssa_v0, [64, 64], [0, i0__ssa_v0])
            wu__ssa_v0: pl.Tensor[[64, 64], pl.BF16] = pl.tensor.slice(w_up__ssa_v0, [64, 64], [0, i0__ssa_v0])
            gate__ssa_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.matmul(xn_bf16__ssa_v0, wg__ssa_v0, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32)
            up__ssa_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.matmul(xn_bf16__ssa_v0, wu__ssa_v0, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32)
            t__tmp_v6: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.neg(gate__ssa_v0)
            t__tmp_v7: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.exp(t__tmp_v6)
            t__tmp_v8: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.adds(t__tmp_v7, 1.0)
            sigmoid__ssa_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.recip(t__tmp_v8)
            t__tmp_v9: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.mul(gate__ssa_v0, sigmoid__ssa_v0)
            h__ssa_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.mul(t__tmp_v9, up__ssa_v0)
            h_bf16__ssa_v0: pl.Tensor[[16, 64], pl.BF16] = pl.tensor.cast(h__ssa_v0, target_type=pl.BF16, mode='round')
            wd__ssa_v0: pl.Tensor[[64, 64], pl.BF16] = pl.tensor.slice(w_down__ssa_v0, [64, 64], [i0__ssa_v0, 0])
            t__tmp_v10: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.matmul(h_bf16__ssa_v0, wd__ssa_v0, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32)
            down_acc__ssa_v3: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.add(down_acc__iter_v1, t__tmp_v10)
            down_acc__rv_v2: pl.Tensor[[16, 64], pl.FP32] = pl.yield_(down_acc__ssa_v3)
        t__tmp_v11: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.add(x__ssa_v0, down_acc__rv_v2)
        out__ssa_v1: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.assemble(out__ssa_v0, t__tmp_v11, [0, 0])
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def mlp_block(self, x__ssa_v0: pl.Tensor[[16, 64], pl.FP32], norm_w__ssa_v0: pl.Tensor[[1, 64], pl.FP32], w_gate__ssa_v0: pl.Tensor[[64, 128], pl.BF16], w_up__ssa_v0: pl.Tensor[[64, 128], pl.BF16], w_down__ssa_v0: pl.Tensor[[128, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        out__ssa_v1: pl.Tensor[[16, 64], pl.FP32] = self.mlp_fused(x__ssa_v0, norm_w__ssa_v0, w_gate__ssa_v0, w_up__ssa_v0, w_down__ssa_v0, out__ssa_v0)
        return out__ssa_v1
