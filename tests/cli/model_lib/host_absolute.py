import pypto.language as pl
import pypto.language.distributed as pld

from model_lib.config import EXPERTS, HIDDEN
from model_lib.moe import moe_chip


@pl.jit.host
def moe_absolute(tokens: pl.Tensor[[EXPERTS, HIDDEN], pl.FP32]):
    routed_buf = pld.alloc_window_buffer([EXPERTS, HIDDEN], dtype=pl.BF16)
    routed = pld.window(routed_buf, [EXPERTS, HIDDEN], dtype=pl.BF16)
    moe_chip(tokens, routed, device=1)
    return routed
