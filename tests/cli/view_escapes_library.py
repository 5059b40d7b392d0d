import numpy as np
import library_calls.helpers
from library_calls import helpers as own
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class LibraryCalls:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        a = pld.alloc_window_buffer(64)
        va = pld.window(a, [8], dtype=pl.FP32)
        half = pl.cast(va, pl.FP16)
        self.chip(half, device=0)
        b = pld.alloc_window_buffer(64)
        vb = pld.window(b, [8], dtype=pl.FP32)
        n = np.linalg.norm(vb)
        c = pld.alloc_window_buffer(64)
        pl.tensor.fill(c, 0)
        d = pld.alloc_window_buffer(64)
        vd = pld.window(d, [8], dtype=pl.FP32)
        library_calls.helpers.stage(vd)
        e = pld.alloc_window_buffer(64)
        ve = pld.window(e, [8], dtype=pl.FP32)
        own.stage(ve)
        f = pld.alloc_window_buffer(64)
        vf = pld.window(f, [8], dtype=pl.FP32)
        unknown.stage(vf)
        return n


# view-escapes into a module's function: a library's (the DSL's modules, a module no
# file of the search path holds, here numpy) cannot be inlined, so the message says to
# dispatch the view itself and work on it in the chip function; a function of the
# model's own modules (library_calls/helpers.py, found beside this file) is to be
# inlined, as is one whose module the file never imports. PYTHONPATH is unset: numpy must
# be no file of the search path.
# RUN: env -u PYTHONPATH %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck --match-full-lines %s < %t.out
# CHECK:{{.*}}view_escapes_library.py:18:16: error: a view of allocation 'a' is passed to 'pl.cast', a library function the pass does not follow: dispatch the view itself, and call 'pl.cast' on it in the chip function [view-escapes]
# CHECK:help: pass views to dispatches as they are, and work on them (a cast, a copy, a fill) in the chip function they are dispatched to
# CHECK-NEXT:{{.*}}view_escapes_library.py:22:13: error: a view of allocation 'b' is passed to 'np.linalg.norm', a library function the pass does not follow: dispatch the view itself, and call 'np.linalg.norm' on it in the chip function [view-escapes]
# CHECK:help: pass views to dispatches as they are, and work on them (a cast, a copy, a fill) in the chip function they are dispatched to
# CHECK-NEXT:{{.*}}view_escapes_library.py:24:9: error: the window pointer of allocation 'c' is passed to 'pl.tensor.fill', a library function the pass does not follow: take a window of it here, dispatch that, and call 'pl.tensor.fill' in the chip function [view-escapes]
# CHECK:help: take a window of the pointer where it is and dispatch that; work on the window in the chip function it is dispatched to
# CHECK-NEXT:{{.*}}view_escapes_library.py:27:9: error: a view of allocation 'd' is passed to 'library_calls.helpers.stage', a function the pass does not follow: dispatch the view directly, or inline 'library_calls.helpers.stage' first [view-escapes]
# CHECK:help: dispatch the view directly or inline the helper
# CHECK-NEXT:{{.*}}view_escapes_library.py:30:9: error: a view of allocation 'e' is passed to 'own.stage', a function the pass does not follow: dispatch the view directly, or inline 'own.stage' first [view-escapes]
# CHECK:help: dispatch the view directly or inline the helper
# CHECK-NEXT:{{.*}}view_escapes_library.py:33:9: error: a view of allocation 'f' is passed to 'unknown.stage', a function the pass does not follow: dispatch the view directly, or inline 'unknown.stage' first [view-escapes]
# CHECK:help: dispatch the view directly or inline the helper
# CHECK-NEXT:Found 6 errors in 1 file (1 file checked).
#
# The same in the JSON output: the messages as the text says them.
# RUN: env -u PYTHONPATH %commscope-opt --format=json %s > %t.json 2> /dev/null; test $? -eq 1
# RUN: %python -c "import json,sys; [print(x['line'], x['message'].split(':')[0]) for x in json.load(open(sys.argv[1]))['diagnostics']]" %t.json > %t.jsonlines
# RUN: %FileCheck --check-prefix=JSON --match-full-lines %s < %t.jsonlines
# JSON:18 a view of allocation 'a' is passed to 'pl.cast', a library function the pass does not follow
# JSON-NEXT:22 a view of allocation 'b' is passed to 'np.linalg.norm', a library function the pass does not follow
# JSON-NEXT:24 the window pointer of allocation 'c' is passed to 'pl.tensor.fill', a library function the pass does not follow
# JSON-NEXT:27 a view of allocation 'd' is passed to 'library_calls.helpers.stage', a function the pass does not follow
# JSON-NEXT:30 a view of allocation 'e' is passed to 'own.stage', a function the pass does not follow
# JSON-NEXT:33 a view of allocation 'f' is passed to 'unknown.stage', a function the pass does not follow
