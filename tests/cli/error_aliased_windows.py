# collective-aliased-windows: two window arguments of one collective that are views of
# one allocation, reported once per collective with both roles and the allocation named,
# and notes at the allocation and at both views.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 8
# RUN: %FileCheck --check-prefix=JSON %s < %t.out
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, y):
    return x


@pl.jit.host
def host():
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    w = pld.window(buf, [16], dtype=pl.FP32)
    tbuf = pld.alloc_window_buffer(64)
    t = pld.window(tbuf, [16], dtype=pl.FP32)
    chip(v, t, device=0)
    pld.tensor.allreduce(v, w)
    pld.tensor.allgather(t, v, v)

# ERR:      {{.*}}error_aliased_windows.py:25:5: error: the data and the signal of collective 'allreduce' are views of the same allocation 'buf' [collective-aliased-windows]
# ERR-NEXT: {{.*}}error_aliased_windows.py:19:5: note: allocation 'buf' is here
# ERR-NEXT: {{.*}}error_aliased_windows.py:20:5: note: the data is a view of it taken here
# ERR-NEXT: {{.*}}error_aliased_windows.py:21:5: note: the signal is a view of it taken here
# ERR-NEXT: {{.*}}error_aliased_windows.py:26:5: error: the target and the signal of collective 'allgather' are views of the same allocation 'buf' [collective-aliased-windows]
# ERR-NEXT: {{.*}}error_aliased_windows.py:19:5: note: allocation 'buf' is here
# ERR-NEXT: {{.*}}error_aliased_windows.py:20:5: note: the target is a view of it taken here
# ERR-NEXT: {{.*}}error_aliased_windows.py:20:5: note: the signal is a view of it taken here

# JSON:      "code": "collective-aliased-windows",
# JSON-NEXT: "message": "the data and the signal of collective 'allreduce' are views of the same allocation 'buf'",
# JSON-NEXT: "line": 25,
# JSON-NEXT: "column": 5,
# JSON-NEXT: "notes": [
# JSON-NEXT:   {
# JSON-NEXT:     "message": "allocation 'buf' is here",
# JSON-NEXT:     "line": 19,
# JSON-NEXT:     "column": 5
# JSON-NEXT:   },
# JSON-NEXT:   {
# JSON-NEXT:     "message": "the data is a view of it taken here",
# JSON-NEXT:     "line": 20,
# JSON-NEXT:     "column": 5
# JSON-NEXT:   },
# JSON-NEXT:   {
# JSON-NEXT:     "message": "the signal is a view of it taken here",
# JSON-NEXT:     "line": 21,
# JSON-NEXT:     "column": 5
# JSON-NEXT:   }
# JSON-NEXT: ]
