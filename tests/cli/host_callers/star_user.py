import pypto.language as pl

from stages import *


@pl.jit.host
def run_star():
    got = make_star()
    fill(got, device=3)
