# pypto.program: MlpBlock
import pypto.language as pl

@pl.program
class MlpBlock:
    @pl.function
    def mlp_block(self, x__ssa_v0: pl.Tensor[[16, 64], pl.FP32], norm_w__ssa_v0: pl.Tensor[[1, 64], pl.FP32], w_gate__ssa_v0: pl.Tensor[[64, 128], pl.BF16], w_up__ssa_v0: pl.Tensor[[64, 128], pl.BF16], w_down__ssa_v0: pl.Tensor[[128, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        # RMSNorm + SwiGLU MLP block with a residual: out = x + (silu(xn @ w_gate) * (xn @ w_up)) @ w_down.
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="mlp_fused"):
            # RMSNorm over the hidden dim (64 columns), eps = 1e-6, scaled by norm_w.
            sq_sum__ssa_v0: pl.Tensor[[16, 1], pl.FP32] = pl.tensor.row_sum(pl.tensor.mul(x__ssa_v0, x__ssa_v0))
            inv_rms__ssa_v0: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.rsqrt(pl.tensor.adds(pl.tensor.muls(pl.tensor.reshape(sq_sum__ssa_v0, [1, 16]), 0.015625), 9.9999999999999995e-07))
            xn__ssa_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.col_expand_mul(pl.tensor.row_expand_mul(x__ssa_v0, pl.tensor.reshape(inv_rms__ssa_v0, [16, 1])), norm_w__ssa_v0)
            xn_bf16__ssa_v0: pl.Tensor[[16, 64], pl.BF16] = pl.tensor.cast(xn__ssa_v0, target_type=pl.BF16, mode='round')
            # SwiGLU over two 64-wide chunks of the intermediate dim; BF16 matmuls, FP32 accumulation.
            down_acc__ssa_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.full([16, 64], dtype=pl.FP32, value=0.0)
            for ib__idx_v0, (down_acc__iter_v1,) in pl.range(2, init_values=(down_acc__ssa_v0,)):
                i0__ssa_v0: pl.Scalar[pl.INDEX] = ib__idx_v0 * 64
                wg__ssa_v0: pl.Tensor[[64, 64], pl.BF16] = pl.tensor.slice(w_gate__ssa_v0, [64, 64], [0, i0__ssa_v0])
                wu__ssa_v0: pl.Tensor[[64, 64], pl.BF16] = pl.tensor.slice(w_up__ssa_v0, [64, 64], [0, i0__ssa_v0])
                gate__ssa_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.matmul(xn_bf16__ssa_v0, wg__ssa_v0, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32)
                up__ssa_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.matmul(xn_bf16__ssa_v0, wu__ssa_v0, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32)
                sigmoid__ssa_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.recip(pl.tensor.adds(pl.tensor.exp(pl.tensor.neg(gate__ssa_v0)), 1.0))
                h__ssa_v0: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.mul(pl.tensor.mul(gate__ssa_v0, sigmoid__ssa_v0), up__ssa_v0)
                h_bf16__ssa_v0: pl.Tensor[[16, 64], pl.BF16] = pl.tensor.cast(h__ssa_v0, target_type=pl.BF16, mode='round')
                wd__ssa_v0: pl.Tensor[[64, 64], pl.BF16] = pl.tensor.slice(w_down__ssa_v0, [64, 64], [i0__ssa_v0, 0])
                down_acc__ssa_v3: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.add(down_acc__iter_v1, pl.tensor.matmul(h_bf16__ssa_v0, wd__ssa_v0, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32))
                down_acc__rv_v2: pl.Tensor[[16, 64], pl.FP32] = pl.yield_(down_acc__ssa_v3)
            out__ssa_v1: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.assemble(out__ssa_v0, pl.tensor.add(x__ssa_v0, down_acc__rv_v2), [0, 0])
        return out__ssa_v1
