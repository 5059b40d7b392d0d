"""A tensor-parallel decoder layer."""
import pypto.language as pl
import pypto.language.distributed as pld

from attention import attention

HIDDEN = 256


@pl.jit
def mlp(x: pld.DistributedTensor[[HIDDEN], pl.FP32]):
    return x


@pl.jit.host
def decoder_layer():
    q_buf = pld.alloc_window_buffer(HIDDEN * pl.FP32.get_byte())
    kv_buf = pld.alloc_window_buffer(HIDDEN * pl.FP32.get_byte())
    sig_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
    q = pld.window(q_buf, [HIDDEN], dtype=pl.FP32)
    kv = pld.window(kv_buf, [HIDDEN], dtype=pl.FP32)
    sig = pld.window(sig_buf, [pld.world_size()], dtype=pl.INT32)
    for r in pl.range(nr):
        attention(q, kv, device=r)
        mlp(q, device=r + 1)
    q = pld.tensor.allreduce(q, sig, op="sum")
    return q
