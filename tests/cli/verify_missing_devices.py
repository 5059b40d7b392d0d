import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        with pld.comm_domain("comm_d0", devices=[0, 1], slots=[buf, sig, bad]):
            with pld.comm_domain("comm_d1", devices=[range(1, pld.world_size(), 4)], slots=[odd]):
                with pld.comm_domain("comm_d2", devices="all", slots=[wide]):
                    buf = pld.alloc_window_buffer(64)
                    v = pld.window(buf, [8], dtype=pl.FP32) # window_buffer=buf
                    self.chip(v, device=0)
                    self.chip(v, device=1)
                    self.chip(v, device=2)
                    sig = pld.alloc_window_buffer(64)
                    s = pld.window(sig, [8], dtype=pl.INT32) # window_buffer=sig
                    pld.tensor.allreduce(v, s)
                    odd = pld.alloc_window_buffer(64)
                    w = pld.window(odd, [8], dtype=pl.FP32) # window_buffer=odd
                    for r in pl.range(1, pld.world_size(), 2):
                        self.chip(w, device=r)
                    wide = pld.alloc_window_buffer(64)
                    x = pld.window(wide, [8], dtype=pl.FP32) # window_buffer=wide
                    for r in pl.range(5):
                        self.chip(x, device=r)
                    bad = pld.alloc_window_buffer(64)
                    y = pld.window(bad, [8], dtype=pl.FP32) # window_buffer=bad
                    self.chip(y, device=7)
                    self.chip(y, device=n)

# --verify on a materialized program edited by hand: a dispatch to device 2 was added
# after the pass wrote comm_d0 for [0, 1] (buf, and sig, whose allreduce passes buf's
# devices on to it), and comm_d1 was narrowed to every fourth device where the loop uses
# every second. `all` (comm_d2) covers whatever its allocation uses. The devices of `bad`
# cannot be inferred (device=n): the analysis' error, which the verifier does not turn
# into a finding of its own. A materialized program is verified without --verify too,
# with the same findings: its scopes may be stale.
# RUN: %commscope-opt --format=json %s > %t.default 2> %t.default.err; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.default.err
# RUN: %commscope-opt --format=json --verify %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.err
# RUN: %FileCheck --check-prefix=JSON %s < %t.out
# RUN: test $(wc -l < %t.err) -eq 3
# CHECK:      {{.*}}verify_missing_devices.py:16:21: error: scope 'comm_d0' lacks devices the program uses for allocation 'buf': 2 [verify]
# CHECK-NEXT: {{.*}}verify_missing_devices.py:21:21: error: scope 'comm_d0' lacks devices the program uses for allocation 'sig': 2 [verify]
# CHECK-NEXT: {{.*}}verify_missing_devices.py:24:21: error: scope 'comm_d1' does not cover the devices the program uses for allocation 'odd' [verify]
# JSON:      "code": "verify",
# JSON-NEXT: "message": "scope 'comm_d0' lacks devices the program uses for allocation 'buf': 2",
# JSON-NEXT: "line": 16,
