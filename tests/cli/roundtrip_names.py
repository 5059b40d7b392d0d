# Allocation names that are not identifiers (a reserved word, a line break, a space,
# non-ASCII bytes) print as string literals in slots= and in the view comments, so the
# printed IR still parses back to the same plan (a fuzz finding: `slots=[bup\xd4...]`).
# RUN: %commscope-opt --format=json %s > %t.plan1
# RUN: %commscope-opt --format=json --emit=ir %s > %t.ir.py
# RUN: %commscope-opt --format=json %t.ir.py > %t.plan2
# RUN: diff %t.plan1 %t.plan2
# RUN: %commscope-opt --format=json --emit=ir %t.ir.py | diff %t.ir.py -
# RUN: %commscope-opt --format=json --verify %t.ir.py > /dev/null
# RUN: %FileCheck --check-prefix=IR %s < %t.ir.py
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Names:
    @pl.function(role=pl.Role.Orchestrator)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        b = pld.alloc_window_buffer(16, name="None")
        c = pld.alloc_window_buffer(16, name="a\nb c")
        d = pld.alloc_window_buffer(16, name="Ōsaka")
        e = pld.alloc_window_buffer(16)
        v = pld.window(b, [4], dtype=pl.FP32)
        w = pld.window(c, [4], dtype=pl.FP32)
        x = pld.window(d, [4], dtype=pl.FP32)
        y = pld.window(e, [4], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.chip(v, device=r)
            self.chip(w, device=r)
            self.chip(x, device=r)
            self.chip(y, device=r)

# IR:      with pld.comm_domain("comm_d0", devices="all", slots=["None", "a\nb c", "Ōsaka", e]):
# IR:      v = pld.window(b, [4], dtype=pl.FP32) # window_buffer="None"
# IR-NEXT: w = pld.window(c, [4], dtype=pl.FP32) # window_buffer="a\nb c"
# IR-NEXT: x = pld.window(d, [4], dtype=pl.FP32) # window_buffer="Ōsaka"
# IR-NEXT: y = pld.window(e, [4], dtype=pl.FP32) # window_buffer=e
