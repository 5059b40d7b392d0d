import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit
def per_rank(data: pld.DistributedTensor[[1, SIZE], pl.FP32]):
    return data


@pl.jit.host
def ring():
    data_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    for r in pl.range(pld.world_size()):
        data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
        per_rank(data, device=r)
