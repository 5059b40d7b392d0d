import pypto.language as pl

from common import make_relay
from stages import fill


@pl.jit.host
def run_relay():
    got = make_relay()
    fill(got, device=6)
