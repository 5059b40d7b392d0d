import pypto


@pypto.language.jit
def chip(x, w):
    return x


@pypto.language.jit.host
def host(x):
    buf = pypto.language.distributed.alloc_window_buffer(64)
    v = pypto.language.distributed.window(buf, [16], dtype=pypto.language.FP32)
    for r in range(pypto.language.distributed.world_size()):
        chip(x[r], v, device=r)
    part = pypto.language.distributed.alloc_window_buffer(32)
    p = pypto.language.distributed.window(part, [8], dtype=pypto.language.FP32)
    for r in range(1, pypto.language.distributed.world_size()):
        chip(x[r], p, device=r)
