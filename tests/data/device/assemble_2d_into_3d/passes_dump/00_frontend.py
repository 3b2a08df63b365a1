# pypto.program: Assemble2DInto3D
import pypto.language as pl

@pl.program
class Assemble2DInto3D:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x: pl.Tensor[[4, 16], pl.FP32], y: pl.Tensor[[4, 16], pl.FP32], out: pl.InOut[pl.Tensor[[2, 4, 16], pl.FP32]]) -> pl.Tensor[[2, 4, 16], pl.FP32]:
        out: pl.Tensor[[2, 4, 16], pl.FP32] = pl.tensor.assemble(out, x, [0, 0, 0])
        narrow: pl.Tensor[[4, 16], pl.FP32, pl.TensorView(valid_shape=[3, 16], stride=[], layout=pl.TensorLayout.ND)] = pl.tensor.set_validshape(y, 3, 16)
        out: pl.Tensor[[2, 4, 16], pl.FP32] = pl.tensor.assemble(out, narrow, [1, 1, 0])
        return out
