"""Sort keys of the model's own, which dispatch a chip as they look at a view."""

from .chips import chip

LIMIT = 4


def rank_order(t):
    chip(t, t, device=3)
    return 0


by_rank = rank_order
