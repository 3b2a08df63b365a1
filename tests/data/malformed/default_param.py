# pypto.program: P
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def k(self, a: pl.Scalar[pl.INDEX] = 1) -> pl.Scalar[pl.INDEX]:
        return a
