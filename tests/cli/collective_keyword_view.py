import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def stage(v):
    return None


@pl.jit.host
def host(x):
    data_buf = pld.alloc_window_buffer(64)
    sig_buf = pld.alloc_window_buffer(16)
    data = pld.window(data_buf, [8], dtype=pl.FP32)
    sig = pld.window(sig_buf, [4], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        stage(data, device=r)
    stage(sig, device=0)
    data = pld.tensor.allreduce(data, signal=sig, op=pl.ReduceOp.SUM)


# A view passed to a collective by keyword is none of the roles the pass reads from its
# positional arguments: view-escapes, where sig_buf would have kept device 0 alone.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: collective_keyword_view.py:19:12: error: a view of allocation 'sig_buf' is passed to 'allreduce' by keyword: the pass follows the views of positional arguments only (a dispatch gives them its devices, a collective its coverage); pass the view positionally [view-escapes]
# CHECK: Found 1 error in 1 file (1 file checked).
