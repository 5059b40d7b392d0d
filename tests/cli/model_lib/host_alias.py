import pypto.language as pl
import pypto.language.distributed as pld

import attention as attn
import config as C


@pl.jit.host
def attention_host(
    x: pl.Tensor[[C.N_RANKS, C.SEQ, C.HIDDEN], pl.FP32],
):
    kv_buf = pld.alloc_window_buffer([C.SEQ, C.HIDDEN], dtype=pl.FP32)
    sig_buf = pld.alloc_window_buffer(C.N_RANKS * pl.INT32.get_byte())
    kv = pld.window(kv_buf, [C.SEQ, C.HIDDEN], dtype=pl.FP32)
    sig = pld.window(sig_buf, [C.N_RANKS], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        attn.attn_chip(x[r], kv, device=r)
    kv = pld.tensor.allreduce(kv, sig, op="sum")
    for r in pl.range(C.N_RANKS):
        attn.attn_chip(x[r], kv, device=r)
    return kv
