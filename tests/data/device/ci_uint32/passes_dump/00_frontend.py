# pypto.program: CiUint32
import pypto.language as pl

@pl.program
class CiUint32:
    @pl.function
    def ci_uint32(self, x: pl.Tensor[[1, 16], pl.FP32], out: pl.Out[pl.Tensor[[1, 16], pl.UINT32]]) -> pl.Tensor[[1, 16], pl.UINT32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            idx: pl.Tensor[[1, 16], pl.UINT32] = pl.tensor.ci(pl.cast(4294967290, pl.UINT32), [1, 16], dtype=pl.UINT32, descending=False)
            out: pl.Tensor[[1, 16], pl.UINT32] = pl.tensor.assemble(out, idx, [0, 0])
        return out
