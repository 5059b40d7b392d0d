import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        a = pld.alloc_window_buffer(64)
        t = pld.alloc_window_buffer(64)
        s = pld.alloc_window_buffer(4)
        c = pld.alloc_window_buffer(4)
        v = pld.window(a, [8], dtype=pl.FP32)
        tv = pld.window(t, [8], dtype=pl.FP32)
        sv = pld.window(s, [1], dtype=pl.INT32)
        cv = pld.window(c, [1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.chip(v, device=r)
            self.chip(tv, device=r)
        while x:
            pld.tensor.all_to_all_v(v, tv, sv, 1, cv)

# collective-in-loop: all_to_all_v inside a while loop.
# The program is rejected (exit 1): no functions, every diagnostic in source order.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 2
# RUN: %FileCheck --check-prefix=JSON %s < %t.out

# ERR:      {{.*}}error_collective_in_loop.py:25:13: error: collective 'all_to_all_v' cannot run inside a loop: its signal is single-use [collective-in-loop]
# ERR-NEXT: {{.*}}error_collective_in_loop.py:24:9: note: inside this loop

# JSON:      "name": "P",
# JSON-NEXT: "line": {{[0-9]+}},
# JSON-NEXT: "functions": []
# JSON:      "diagnostics": [
# JSON:      "code": "collective-in-loop",
# JSON-NEXT: "message": "collective 'all_to_all_v' cannot run inside a loop: its signal is single-use",
# JSON-NEXT: "line": 25,
# JSON-NEXT: "column": 13
# JSON:      ]
