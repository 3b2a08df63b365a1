# pypto.program: Int8Matmul
import pypto.language as pl

@pl.program
class Int8Matmul:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def int8_matmul(self, a: pl.Tensor[[16, 64], pl.INT8], b: pl.Tensor[[32, 64], pl.INT8], c: pl.Out[pl.Tensor[[16, 32], pl.INT32]]) -> pl.Tensor[[16, 32], pl.INT32]:
        acc: pl.Tensor[[16, 32], pl.INT32] = pl.tensor.matmul(a, b, a_trans=False, b_trans=True, c_matrix_nz=False, out_dtype=pl.INT32)
        c: pl.Tensor[[16, 32], pl.INT32] = pl.tensor.assemble(c, acc, [0, 0])
        return c
