# --explain: every slot of the plan gains "evidence", one entry per contribution in
# source order: a dispatch (its callee, location, devices and view; "loop" when its
# device is a loop variable) or coverage inherited through a collective.
#   a:   dispatch only, a constant device
#   b:   a subset of the devices from a loop, then one more dispatch
#   sig: inherited from b through the allreduce
# RUN: %commscope-opt --format=json --explain %s | %FileCheck --strict-whitespace %s
# RUN: %commscope-opt --format=json %s | %FileCheck --check-prefix=PLAIN %s
# PLAIN-NOT: "evidence"
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host():
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    b = pld.alloc_window_buffer(64)
    vb = pld.window(b, [16], dtype=pl.FP32)
    sig = pld.alloc_window_buffer(4)
    vs = pld.window(sig, [1], dtype=pl.INT32)
    chip(va, device=5)
    for k in pl.range(1, 4, 2):
        chip(vb, device=k)
    chip(vb, device=0)
    pld.tensor.allreduce(vb, vs)

# CHECK:      "name": "comm_d0",
# CHECK-NEXT: "devices": [
# CHECK-NEXT:   5
# CHECK-NEXT: ],
# CHECK-NEXT: "slots": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "a",
# CHECK-NEXT:     "size": "64",
# CHECK-NEXT:     "evidence": [
# CHECK-NEXT:       {
# CHECK-NEXT:         "kind": "dispatch",
# CHECK-NEXT:         "callee": "chip",
# CHECK-NEXT:         "line": 27,
# CHECK-NEXT:         "column": 5,
# CHECK-NEXT:         "devices": [
# CHECK-NEXT:           5
# CHECK-NEXT:         ],
# CHECK-NEXT:         "view": "va"
# CHECK-NEXT:       }
# CHECK-NEXT:     ]
# CHECK:      "name": "comm_d1",
# CHECK-NEXT: "devices": [
# CHECK-NEXT:   0,
# CHECK-NEXT:   1,
# CHECK-NEXT:   3
# CHECK-NEXT: ],
# CHECK:          "name": "b",
# CHECK-NEXT:     "size": "64",
# CHECK-NEXT:     "evidence": [
# CHECK-NEXT:       {
# CHECK-NEXT:         "kind": "dispatch",
# CHECK-NEXT:         "callee": "chip",
# CHECK-NEXT:         "line": 29,
# CHECK-NEXT:         "column": 9,
# CHECK-NEXT:         "devices": [
# CHECK-NEXT:           1,
# CHECK-NEXT:           3
# CHECK-NEXT:         ],
# CHECK-NEXT:         "view": "vb",
# CHECK-NEXT:         "loop": {
# CHECK-NEXT:           "line": 28,
# CHECK-NEXT:           "column": 5
# CHECK-NEXT:         }
# CHECK-NEXT:       },
# CHECK-NEXT:       {
# CHECK-NEXT:         "kind": "dispatch",
# CHECK-NEXT:         "callee": "chip",
# CHECK-NEXT:         "line": 30,
# CHECK-NEXT:         "column": 5,
# CHECK-NEXT:         "devices": [
# CHECK-NEXT:           0
# CHECK-NEXT:         ],
# CHECK-NEXT:         "view": "vb"
# CHECK-NEXT:       }
# CHECK-NEXT:     ]
# CHECK:          "name": "sig",
# CHECK-NEXT:     "size": "4",
# CHECK-NEXT:     "evidence": [
# CHECK-NEXT:       {
# CHECK-NEXT:         "kind": "inherited",
# CHECK-NEXT:         "from": "b",
# CHECK-NEXT:         "collective": "allreduce",
# CHECK-NEXT:         "line": 31,
# CHECK-NEXT:         "column": 5
# CHECK-NEXT:       }
# CHECK-NEXT:     ]
