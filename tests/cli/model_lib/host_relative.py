import pypto.language as pl
import pypto.language.distributed as pld

from .config import EXPERTS, HIDDEN
from .moe import moe_chip


@pl.jit.host
def moe_host(tokens: pl.Tensor[[EXPERTS, HIDDEN], pl.FP32]):
    routed_buf = pld.alloc_window_buffer([EXPERTS, HIDDEN], dtype=pl.BF16)
    signal_buf = pld.alloc_window_buffer([1], dtype=pl.INT32)
    routed = pld.window(routed_buf, [EXPERTS, HIDDEN], dtype=pl.BF16)
    signal = pld.window(signal_buf, [1], dtype=pl.INT32)
    moe_chip(tokens, routed, device=0)
    pld.tensor.broadcast(routed, signal, root=0)
    return routed
