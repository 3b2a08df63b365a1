# pypto.program: ExternalKernel
import pypto.language as pl

@pl.program
class ExternalKernel:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker, external_source="kernels/aiv/write_ones.cpp")
    def WRITE_ONES(out: pl.InOut[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        pass
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        out: pl.Tensor[[16], pl.FP32] = self.WRITE_ONES(out)
        return out
