import pypto.language as pl
import pypto.language.distributed as pld

from config import HIDDEN, SEQ


@pl.jit.inline
def softmax_rows(x: pl.Tensor[[SEQ, HIDDEN], pl.FP32]):
    return pl.softmax(x)


@pl.jit.incore(core_num=8)
def qk_kernel(
    q: pl.Tensor[[SEQ, HIDDEN], pl.FP32],
    k: pl.Tensor[[SEQ, HIDDEN], pl.FP32],
):
    return pl.matmul(q, k)


@pl.jit
def attn_chip(
    x: pl.Tensor[[SEQ, HIDDEN], pl.FP32],
    kv: pld.DistributedTensor[[SEQ, HIDDEN], pl.FP32],
):
    scores = qk_kernel(x, kv)
    return softmax_rows(scores)
