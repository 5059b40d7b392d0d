import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.host
def unused():
    scratch = pld.alloc_window_buffer(16)
    return 0
