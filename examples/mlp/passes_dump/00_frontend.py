# pypto.program: MlpBlock
import pypto.language as pl

@pl.program
class MlpBlock:
    @pl.function
    def mlp_block(self, x: pl.Tensor[[16, 64], pl.FP32], norm_w: pl.Tensor[[1, 64], pl.FP32], w_gate: pl.Tensor[[64, 128], pl.BF16], w_up: pl.Tensor[[64, 128], pl.BF16], w_down: pl.Tensor[[128, 64], pl.BF16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        # RMSNorm + SwiGLU MLP block with a residual: out = x + (silu(xn @ w_gate) * (xn @ w_up)) @ w_down.
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="mlp_fused"):
            # RMSNorm over the hidden dim (64 columns), eps = 1e-6, scaled by norm_w.
            sq_sum: pl.Tensor[[16, 1], pl.FP32] = pl.tensor.row_sum(pl.tensor.mul(x, x))
            inv_rms: pl.Tensor[[1, 16], pl.FP32] = pl.tensor.rsqrt(pl.tensor.adds(pl.tensor.muls(pl.tensor.reshape(sq_sum, [1, 16]), 0.015625), 9.9999999999999995e-07))
            xn: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.col_expand_mul(pl.tensor.row_expand_mul(x, pl.tensor.reshape(inv_rms, [16, 1])), norm_w)
            xn_bf16: pl.Tensor[[16, 64], pl.BF16] = pl.tensor.cast(xn, target_type=pl.BF16, mode='round')
            # SwiGLU over two 64-wide chunks of the intermediate dim; BF16 matmuls, FP32 accumulation.
            down_acc: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.full([16, 64], dtype=pl.FP32, value=0.0)
            for ib in pl.range(2):
                i0: pl.Scalar[pl.INDEX] = ib * 64
                wg: pl.Tensor[[64, 64], pl.BF16] = pl.tensor.slice(w_gate, [64, 64], [0, i0])
                wu: pl.Tensor[[64, 64], pl.BF16] = pl.tensor.slice(w_up, [64, 64], [0, i0])
                gate: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.matmul(xn_bf16, wg, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32)
                up: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.matmul(xn_bf16, wu, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32)
                sigmoid: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.recip(pl.tensor.adds(pl.tensor.exp(pl.tensor.neg(gate)), 1.0))
                h: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.mul(pl.tensor.mul(gate, sigmoid), up)
                h_bf16: pl.Tensor[[16, 64], pl.BF16] = pl.tensor.cast(h, target_type=pl.BF16, mode='round')
                wd: pl.Tensor[[64, 64], pl.BF16] = pl.tensor.slice(w_down, [64, 64], [i0, 0])
                down_acc: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.add(down_acc, pl.tensor.matmul(h_bf16, wd, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32))
            out: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.assemble(out, pl.tensor.add(x, down_acc), [0, 0])
        return out
