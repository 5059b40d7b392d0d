import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        with pld.comm_domain("comm_d0", devices=[0, range(1, pld.world_size())], slots=[a]):
            with pld.comm_domain("comm_d1", devices=[range(2, pld.world_size(), 2), range(0, pld.world_size(), 2)], slots=[b]):
                with pld.comm_domain("comm_d2", devices=[3, range(1, pld.world_size() - 1, 2)], slots=[c]):
                    a = pld.alloc_window_buffer(64)
                    v = pld.window(a, [8], dtype=pl.FP32)
                    self.chip(v, device=0)
                    b = pld.alloc_window_buffer(64)
                    w = pld.window(b, [8], dtype=pl.FP32)
                    self.chip(w, device=0)
                    c = pld.alloc_window_buffer(64)
                    x = pld.window(c, [8], dtype=pl.FP32)
                    self.chip(x, device=3)

# --verify checks that a scope's symbolic device set is in canonical form: {0} with
# range(1, ws) is `all`, two progressions on one line are one; {3} past the stop of
# range(1, ws - 1, 2) in the smallest world is kept, so comm_d2 is canonical. A file
# with scopes is verified without --verify too.
# RUN: %commscope-opt --format=json %s > /dev/null 2> %t.default.err; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.default.err
# RUN: %commscope-opt --format=json --verify %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 2

# CHECK:      {{.*}}symbolic_verify.py:13:9: error: scope 'comm_d0' has a symbolic device set that is not in canonical form [verify]
# CHECK-NEXT: {{.*}}symbolic_verify.py:14:13: error: scope 'comm_d1' has a symbolic device set that is not in canonical form [verify]
