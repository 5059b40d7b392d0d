"""A small model library in the users' style: one module per layer, host programs that
import their chip orchestrators (see ../imports_*.py for what commscope-opt makes of it)."""

from .config import HIDDEN, N_RANKS
from .lm_head import lm_head_test

__all__ = ["HIDDEN", "N_RANKS", "lm_head_test"]
