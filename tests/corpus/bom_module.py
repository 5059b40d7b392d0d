# Corpus: a UTF-8 byte order mark before the first line, non-ASCII text in comments,
# docstrings and strings (columns count characters), and a module-level @pl.jit group
# whose host allocates by shape with INT8 and UINT16 widths.
"""Données partagées — ein Fenster pro Rang (窗口)."""

import pypto.language as pl
import pypto.language.distributed as pld

ÉCHELLE = 3  # identifiers may be non-ASCII too
ROWS = 8
COLS = 16


@pl.jit
def par_rang(
    q: pld.DistributedTensor[[ROWS, COLS], pl.INT8],
    s: pld.DistributedTensor[[ROWS], pl.UINT16],
):
    """Orchestrateur de puce — « chip »."""
    return q


@pl.jit.host
def hôte(x: pl.Tensor[[ROWS, COLS], pl.INT8]):
    # quantised payload, then its scales
    quant_buf = pld.alloc_window_buffer([ROWS, COLS], dtype=pl.INT8)
    scale_buf = pld.alloc_window_buffer([ROWS], dtype=pl.UINT16)
    q = pld.window(quant_buf, [ROWS, COLS], dtype=pl.INT8)
    s = pld.window(scale_buf, [ROWS], dtype=pl.UINT16)
    for r in pl.range(pld.world_size()):
        par_rang(q, s, device=r)
    return "terminé ✓"


MESSAGES = {
    "fr": f"échelle={ÉCHELLE}",
    "ja": "完了",
    "emoji": "🚀 done",
}
