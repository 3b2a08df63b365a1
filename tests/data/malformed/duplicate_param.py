# pypto.program: P
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def k(self, a: pl.Scalar[pl.INDEX], a: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        return a
