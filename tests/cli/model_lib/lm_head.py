import pypto.language as pl
import pypto.language.distributed as pld

from config import HIDDEN, VOCAB_SHARD


@pl.jit.extern
def vendor_gemm(a, b):
    ...


@pl.jit
def lm_head_test(
    h: pl.Tensor[[1, HIDDEN], pl.FP32],
    logits: pld.DistributedTensor[[1, VOCAB_SHARD], pl.FP32],
):
    return vendor_gemm(h, logits)
