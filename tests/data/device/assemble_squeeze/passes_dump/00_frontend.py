# pypto.program: AssembleSqueeze
import pypto.language as pl

@pl.program
class AssembleSqueeze:
    @pl.function
    def main(self, x: pl.Tensor[[1, 4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            y: pl.Tensor[[1, 4, 8], pl.FP32] = pl.tensor.muls(x, 2.0)
            out: pl.Tensor[[4, 16], pl.FP32] = pl.tensor.assemble(out, y, [0, 8])
        return out
