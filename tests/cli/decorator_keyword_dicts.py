import pypto.language as pl
import pypto.language.distributed as pld

ORCH = {"role": pl.Role.Orchestrator}
HOST_KW = dict(level=pl.Level.HOST, role=pl.Role.Orchestrator)
CHANGED = {"role": pl.Role.Orchestrator}
CHANGED["level"] = pl.Level.CHIP
TWICE = {"role": pl.Role.Orchestrator}
TWICE = {}


@pl.program
class Partial:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, **ORCH)
    def host(self):
        a = pld.alloc_window_buffer(64)
        va = pld.window(a, [16], dtype=pl.FP32)
        self.chip(va, device=1)


@pl.program
class Whole:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(**HOST_KW)
    def host(self):
        b = pld.alloc_window_buffer(64)
        vb = pld.window(b, [16], dtype=pl.FP32)
        self.chip(vb, device=2)


@pl.program
class Inline:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(**{"level": pl.Level.HOST, "type": pl.FunctionType.Orchestration})
    def host(self):
        c = pld.alloc_window_buffer(64)
        vc = pld.window(c, [16], dtype=pl.FP32)
        self.chip(vc, device=3)


def options():
    return {"role": pl.Role.Orchestrator}


@pl.program
class Unread:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, **CHANGED)
    def changed(self):
        pass

    @pl.function(level=pl.Level.HOST, **TWICE)
    def twice(self):
        pass

    @pl.function(level=pl.Level.HOST, **options())
    def called(self):
        pass

    @pl.function(*(), level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def starred(self):
        pass

    @pl.function(level=pl.Level.HOST, role=options())
    def valued(self):
        pass


# A function's kind is read from the keywords of @pl.function, and from a dict unpacked
# with ** when that dict is read exactly: a display or dict(...) written there, or bound
# once at the module's level to a name used nowhere else. Any other unpacking, or a
# kind keyword whose value is no member of the DSL's enumerations, would let the
# function drop out of the check unseen: the program is refused (exit 1).
# RUN: %commscope-opt --no-config %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK:{{.*}}decorator_keyword_dicts.py:61:6: error: the kind of 'changed' cannot be read from '@pl.function(...)': it unpacks '**CHANGED', which may pass any of level=, type= and role= [unknown-decorator]
# CHECK:help: write level=, type= and role= in the decorator itself, as members of pl.Level, pl.FunctionType and pl.Role
# CHECK:{{.*}}decorator_keyword_dicts.py:65:6: error: the kind of 'twice' cannot be read from '@pl.function(...)': it unpacks '**TWICE', which may pass any of level=, type= and role= [unknown-decorator]
# CHECK:{{.*}}decorator_keyword_dicts.py:69:6: error: the kind of 'called' cannot be read from '@pl.function(...)': it unpacks '**options()', which may pass any of level=, type= and role= [unknown-decorator]
# CHECK:{{.*}}decorator_keyword_dicts.py:73:6: error: the kind of 'starred' cannot be read from '@pl.function(...)': it unpacks '*()', which may pass any of level=, type= and role= [unknown-decorator]
# CHECK:{{.*}}decorator_keyword_dicts.py:77:6: error: the kind of 'valued' cannot be read from '@pl.function(...)': role=options() is no member of pl.Role the front end can read [unknown-decorator]
# CHECK:{{.*}}decorator_keyword_dicts.py: program 'Partial' (line 12)
# CHECK-NEXT:  host orchestrator 'host': 1 comm domain
# CHECK-NEXT:    comm_d0  devices [1]  1 slot, 64 B
# CHECK:{{.*}}decorator_keyword_dicts.py: program 'Whole' (line 25)
# CHECK-NEXT:  host orchestrator 'host': 1 comm domain
# CHECK-NEXT:    comm_d0  devices [2]  1 slot, 64 B
# CHECK:{{.*}}decorator_keyword_dicts.py: program 'Inline' (line 38)
# CHECK-NEXT:  host orchestrator 'host': 1 comm domain
# CHECK-NEXT:    comm_d0  devices [3]  1 slot, 64 B
# CHECK:Found 5 errors in 1 file (1 file checked).
