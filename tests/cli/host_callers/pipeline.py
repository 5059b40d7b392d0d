import pypto.language as pl
import pypto.language.distributed as pld

from stages import fill
from stages import make_buffers as build


@pl.jit.host
def run_pipeline():
    v = build()
    fill(v, device=1)
