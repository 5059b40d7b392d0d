import pypto.language as pl
import pypto.language.distributed as pld

from .config import EXPERTS, HIDDEN


@pl.jit.incore
def expert_kernel(x: pl.Tensor[[EXPERTS, HIDDEN], pl.FP32]):
    return x


@pl.jit.opaque
def router(x):
    return x


@pl.jit
def moe_chip(
    tokens: pl.Tensor[[EXPERTS, HIDDEN], pl.FP32],
    routed: pld.DistributedTensor[[EXPERTS, HIDDEN], pl.FP32],
):
    picked = router(tokens)
    return expert_kernel(picked)
