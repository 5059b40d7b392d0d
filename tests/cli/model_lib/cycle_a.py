import pypto.language as pl

from cycle_b import b_chip, ghost_chip


@pl.jit
def a_chip(x):
    return b_chip(x)
