import pypto.language as pl

from lib import make_inner
from lib.inner import touch


@pl.jit.host
def run_reexport():
    for i in make_inner():
        touch(i, device=5)
