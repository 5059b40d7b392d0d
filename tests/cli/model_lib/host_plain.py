"""A host program calling a chip orchestrator imported from a sibling module."""

import pypto.language as pl
import pypto.language.distributed as pld

from config import HALF_RANKS, N_RANKS, VOCAB_SHARD
from lm_head import lm_head_test


@pl.jit.host
def lm_head_host(h: pl.Tensor[[N_RANKS, 1, 256], pl.FP32]):
    logits_buf = pld.alloc_window_buffer([1, VOCAB_SHARD], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        logits = pld.window(logits_buf, [1, VOCAB_SHARD], dtype=pl.FP32)
        lm_head_test(h[r], logits, device=r)
    return 0


def test_lm_head_first_ranks():
    @pl.jit.host
    def lm_head_first(h: pl.Tensor[[N_RANKS, 1, 256], pl.FP32]):
        part_buf = pld.alloc_window_buffer(VOCAB_SHARD * pl.FP32.get_byte())
        for r in pl.range(HALF_RANKS):
            part = pld.window(part_buf, [VOCAB_SHARD], dtype=pl.FP32)
            lm_head_test(h[r], part, device=r)

    assert lm_head_first is not None
