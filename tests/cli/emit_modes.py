# --emit=plan (default), --emit=ir and --emit=both on one program; a host orchestrator
# without allocations is listed with empty scopes and views, and printed unchanged;
# --emit=ir replaces the rewritten body only.
# RUN: %commscope-opt --format=json --emit=plan %s | %FileCheck --check-prefix=PLAN %s
# RUN: %commscope-opt --format=json --emit=ir %s | %FileCheck --check-prefix=IR %s
# RUN: %commscope-opt --format=json --emit=both --verify %s | %FileCheck --check-prefix=BOTH %s
# The "ir" member of --emit=both is exactly the --emit=ir output.
# RUN: %commscope-opt --format=json --emit=ir %s > %t.ir
# RUN: %commscope-opt --format=json --emit=both %s | %python -c "import json,sys; sys.stdout.write(json.load(sys.stdin)['ir'])" | cmp - %t.ir
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Modes:
    @pl.function(role=pl.Role.Orchestrator)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, type=pl.FunctionType.Orchestration)
    def first(self):
        return 0

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def second(self):
        b = pld.alloc_window_buffer(16, name="buffer")
        v = pld.window(b, [4], dtype=pl.FP32)
        for i in range(3):
            self.chip(v, device=i)

# PLAN:      "functions": [
# PLAN-NEXT:   {
# PLAN-NEXT:     "name": "first",
# PLAN-NEXT:     "scopes": [],
# PLAN-NEXT:     "views": []
# PLAN-NEXT:   },
# PLAN-NEXT:   {
# PLAN-NEXT:     "name": "second",
# PLAN:          "name": "comm_d0",
# PLAN-NEXT:     "devices": [
# PLAN-NEXT:       0,
# PLAN-NEXT:       1,
# PLAN-NEXT:       2
# PLAN-NEXT:     ],
# PLAN-NEXT:     "slots": [
# PLAN-NEXT:       {
# PLAN-NEXT:         "name": "buffer",
# PLAN-NEXT:         "size": "16"
# PLAN:          "views": [
# PLAN-NEXT:       {
# PLAN-NEXT:         "name": "v",
# PLAN-NEXT:         "window_buffer": "buffer"

# IR:      def first(self):
# IR-NEXT:     return 0
# IR:      def second(self):
# IR-NEXT:     with pld.comm_domain("comm_d0", devices=[0, 1, 2], slots=[buffer]):
# IR-NEXT:         b = pld.alloc_window_buffer(16, name="buffer")
# IR-NEXT:         v = pld.window(b, [4], dtype=pl.FP32) # window_buffer=buffer
# IR-NEXT:         for i in range(3):
# IR-NEXT:             self.chip(v, device=i)
# The rest of the file is kept byte for byte:
# IR-EMPTY:
# IR-NEXT: {{^# [P]LAN:      "functions": \[$}}

# BOTH:      "name": "Modes",
# BOTH:      "diagnostics": [],
# BOTH-NEXT: "ir": "# --emit=plan (default), --emit=ir and --emit=both on one program;
# BOTH-NEXT: {{^\}$}}
