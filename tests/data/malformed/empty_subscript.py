# pypto.program: P
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def k(self, a: pl.Tensor[]) -> pl.Scalar[pl.INDEX]:
        return 1
