# pypto.program: P
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def k(self, a: pl.Tensor[[16, 64],