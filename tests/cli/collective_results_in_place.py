import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def load_weights(x, w):
    return x


@pl.jit
def mlp(x, w):
    return x


@pl.jit.host
def shared_weights(x):
    w_buf = pld.alloc_window_buffer(256)
    sig_buf = pld.alloc_window_buffer(64)
    w = pld.window(w_buf, [64], dtype=pl.FP32)
    sig = pld.window(sig_buf, [16], dtype=pl.INT32)
    load_weights(x, w, device=0)  # rank 0 reads the checkpoint
    w = pld.tensor.broadcast(w, sig)  # ... and shares it
    for r in pl.range(pld.world_size()):
        mlp(x[r], w, device=r)  # every rank uses the window


@pl.jit.host
def scattered(x):
    g_buf = pld.alloc_window_buffer(256)
    gsig_buf = pld.alloc_window_buffer(64)
    g = pld.window(g_buf, [64], dtype=pl.FP32)
    gsig = pld.window(gsig_buf, [16], dtype=pl.INT32)
    mlp(x, g, device=0)
    g = pld.tensor.reduce_scatter(g, gsig)
    mlp(x, g, device=3)


@pl.jit.host
def fenced(x):
    d_buf = pld.alloc_window_buffer(256)
    s_buf = pld.alloc_window_buffer(64)
    d = pld.window(d_buf, [64], dtype=pl.FP32)
    s = pld.window(s_buf, [16], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        mlp(x[r], d, device=r)
        mlp(x[r], s, device=r)
    s = pld.tensor.barrier(s)
    d = pld.tensor.broadcast(d, s)


# broadcast, reduce_scatter and barrier work on their window in place and hand it back:
# their result is the data window (the signal, for a barrier), as allreduce's is. Worked
# out by running shared_weights in worlds of 1 to 8: w_buf is used on every device, and
# sig_buf with it; scattered's g_buf on devices 0 and 3. Taken for no view, the result's
# dispatches were dropped (w_buf got [0]), and a barrier's result passed to broadcast was
# collective-arg-not-window.
# RUN: %commscope-opt %s | %FileCheck %s
# CHECK: host orchestrator 'shared_weights': 1 comm domain
# CHECK-NEXT: comm_d0  devices all  2 slots, 320 B
# CHECK: host orchestrator 'scattered': 1 comm domain
# CHECK-NEXT: comm_d0  devices [0, 3]  2 slots, 320 B
# CHECK: host orchestrator 'fenced': 1 comm domain
# CHECK-NEXT: comm_d0  devices all  2 slots, 320 B
# CHECK: All checks passed
