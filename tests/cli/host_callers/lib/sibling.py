import pypto.language as pl

from . import make_inner_b
from .inner import touch


@pl.jit.host
def run_sibling():
    j = make_inner_b()
    touch(j, device=7)
