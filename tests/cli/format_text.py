import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Text:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        lonely = pld.alloc_window_buffer(64)
        v = pld.window(lonely, [16], dtype=pl.FP32)
        n = v.shape
        buf = pld.alloc_window_buffer(256)
        w = pld.window(buf, [64], dtype=pl.FP32)
        for r in pl.range(3):
            self.chip(w, device=r + 1)
        return n


# The text format, the default: each diagnostic as compilers print it, with its source
# line, a caret under its column and `~` under the rest of its call or statement, its
# notes in the same form and a `help:` line; the plan as a table for one input; a last
# line that sums the run up; color when asked for.
# RUN: %commscope-opt %s > %t.out 2> %t.err; test $? -eq 1 && test ! -s %t.err
# RUN: %FileCheck --strict-whitespace --match-full-lines %s < %t.out
# CHECK:{{.*}}format_text.py:13:9: error: allocation 'lonely' has views but no dispatch or collective gives it devices [unconsumed-alloc]
# CHECK-NEXT:   13 |         lonely = pld.alloc_window_buffer(64)
# CHECK-NEXT:      |         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT:{{.*}}format_text.py:14:9: note: a view of it is taken here
# CHECK-NEXT:   14 |         v = pld.window(lonely, [16], dtype=pl.FP32)
# CHECK-NEXT:      |         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT:help: pass a view of it to a chip orchestrator with device=..., or to a collective whose data buffer is covered
# CHECK-NEXT:{{.*}}format_text.py:19:13: error: cannot infer the devices of the dispatch of 'chip' from its device= expression, which is neither an integer constant nor a variable [unsupported-device]
# CHECK-NEXT:   19 |             self.chip(w, device=r + 1)
# CHECK-NEXT:      |             ^~~~~~~~~~~~~~~~~~~~~~~~~~
# CHECK-NEXT:help: pass an integer constant or the variable of a loop over pl.range(...); for r + 1 or r % 2, loop over those devices themselves (pl.range(1, n + 1), pl.range(0, n, 2))
# CHECK-NEXT:Found 2 errors in 1 file (1 file checked).
#
# -q: the diagnostics alone.
# RUN: %commscope-opt -q %s > %t.quiet; test $? -eq 1 && tail -n 1 %t.quiet | %FileCheck --check-prefix=QUIET %s
# QUIET: help: pass an integer constant {{.*}}
#
# Color: bold locations, red `error`, green carets; never by default into a pipe.
# RUN: %commscope-opt --color=always %s > %t.color; sed 's/\x1b/<ESC>/g' %t.color | %FileCheck --check-prefix=COLOR %s
# COLOR: <ESC>[1m{{.*}}format_text.py:13:9: <ESC>[0m<ESC>[1;31merror:<ESC>[0m allocation 'lonely'
# COLOR: <ESC>[1;32m^~~~
# COLOR: <ESC>[1;36mnote:<ESC>[0m a view of it is taken here
# COLOR: <ESC>[1;32mhelp:<ESC>[0m pass a view
# RUN: %commscope-opt --color=auto %s > %t.auto; test $? -eq 1 && ! grep -q $'\x1b' %t.auto
# RUN: env NO_COLOR=1 %commscope-opt --color=always %s > %t.forced; grep -q $'\x1b' %t.forced
# On a terminal `auto` colors, unless NO_COLOR is set (a pseudo-terminal from script(1)).
# RUN: if command -v script > /dev/null; then script -qec "%commscope-opt %s" /dev/null < /dev/null > %t.tty; grep -q $'\x1b\[1;31merror' %t.tty; fi
# RUN: if command -v script > /dev/null; then script -qec "env NO_COLOR=1 %commscope-opt %s" /dev/null < /dev/null > %t.notty; ! grep -q $'\x1b' %t.notty; fi
