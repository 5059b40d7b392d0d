# No FILE: the built-in example (two comm domains, a collective, loops), exit 0.
# RUN: %commscope-opt --format=json > %t.out; test $? -eq 0
# RUN: %FileCheck %s < %t.out
# RUN: %commscope-opt --format=json --emit=ir | %FileCheck --check-prefix=IR %s
# RUN: %commscope-opt --format=json --verify --emit=both | %FileCheck --check-prefix=BOTH %s
# The built-in example is deterministic: two runs print the same bytes.
# RUN: %commscope-opt --format=json --emit=both > %t.a && %commscope-opt --format=json --emit=both > %t.b && cmp %t.a %t.b

# CHECK:      "programs": [
# CHECK:      "name": "Example",
# CHECK-NEXT: "line": {{[0-9]+}},
# CHECK:      "name": "host_orch",
# CHECK:      "name": "comm_d0",
# CHECK-NEXT: "devices": "all",
# CHECK:      "name": "buf",
# CHECK-NEXT: "size": "256 * 4"
# CHECK:      "name": "signal",
# CHECK-NEXT: "size": "pld.world_size() * 4"
# CHECK:      "name": "comm_d1",
# CHECK-NEXT: "devices": [
# CHECK-NEXT:   0,
# CHECK-NEXT:   1
# CHECK-NEXT: ],
# CHECK:      "name": "staging",
# CHECK-NEXT: "size": "64 * 2"
# CHECK:      "views": [
# CHECK:      "name": "data",
# CHECK-NEXT: "window_buffer": "buf"
# CHECK:      "name": "sig",
# CHECK-NEXT: "window_buffer": "signal"
# CHECK:      "name": "part",
# CHECK-NEXT: "window_buffer": "staging"
# CHECK:      "diagnostics": []

# IR:      def host_orch(self):
# IR-NEXT:     with pld.comm_domain("comm_d0", devices="all", slots=[buf, signal]):
# IR-NEXT:         with pld.comm_domain("comm_d1", devices=[0, 1], slots=[staging]):
# IR-NEXT:             buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())
# IR:                  data = pld.window(buf, [256], dtype=pl.FP32) # window_buffer=buf
# IR:                  data = pld.tensor.allreduce(data, sig, op="sum")

# BOTH:     "name": "Example",
# BOTH:     "diagnostics": [],
# BOTH-NEXT: "ir": "import pypto.language as pl\n
