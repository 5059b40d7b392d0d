import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


def test_spare_buffer_is_allowed():
    @pl.jit.host
    def host():
        spare = pld.alloc_window_buffer(64)
        buf = pld.alloc_window_buffer(64)
        v = pld.window(buf, [16], dtype=pl.FP32)
        chip(v, device=0)

    assert host is not None
