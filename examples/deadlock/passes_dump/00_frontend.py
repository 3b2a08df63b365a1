# pypto.program: ScaledMatmul
import pypto.language as pl

@pl.program
class ScaledMatmul:
    @pl.function
    def scaled_matmul(self, x: pl.Tensor[[16, 64], pl.FP32], w: pl.Tensor[[64, 64], pl.BF16], bias: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        # out = bf16(x * 0.5) @ w + bias as one mixed cube/vector kernel, split by rows.
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="scaled_mm"):
            xs_bf16: pl.Tensor[[16, 64], pl.BF16] = pl.tensor.cast(pl.tensor.muls(x, 0.5), target_type=pl.BF16, mode='round')
            acc: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.matmul(xs_bf16, w, a_trans=False, b_trans=False, c_matrix_nz=False, out_dtype=pl.FP32)
            out: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.assemble(out, pl.tensor.add(acc, bias), [0, 0])
        return out
