import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        with pld.comm_domain("comm_d0", devices=[1, 0], slots=[a]):
            with pld.comm_domain("comm_d1", devices="all", slots=[]):
                a = pld.alloc_window_buffer(64)
                v = pld.window(a, [8], dtype=pl.FP32)
                self.chip(v, device=0)
                self.chip(v, device=1)

# --verify on a hand-written materialized program that breaks the verifier's rules:
# an unsorted device list and a scope without slots. The findings are `verify`
# diagnostics (exit 1), with --verify or without: a file with scopes is verified anyway.
# RUN: %commscope-opt --format=json %s > /dev/null 2> %t.default.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.default.err
# RUN: %commscope-opt --format=json --verify %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=ERR --match-full-lines %s < %t.err
# RUN: %FileCheck --check-prefix=JSON %s < %t.out
# ERR:      {{.*}}verify_findings.py:13:9: error: scope 'comm_d0' has a device list that is not ascending, unique and non-negative [verify]
# ERR-NEXT: {{.*}}verify_findings.py:14:13: error: scope 'comm_d1' has no slots [verify]
# ERR-EMPTY:
# JSON:      "functions": []
# JSON:      "code": "verify",
# JSON-NEXT: "message": "scope 'comm_d0' has a device list that is not ascending, unique and non-negative",
# JSON-NEXT: "line": 13,
# JSON-NEXT: "column": 9
# JSON:      "code": "verify",
# JSON-NEXT: "message": "scope 'comm_d1' has no slots",
