# With -o DIR, standard input's picture is `stdin.dot` (its program's name is `stdin`),
# not a file named `-.dot`, which a shell reads as an option or as standard input.
# RUN: rm -rf %t.pictures && %commscope-opt --no-config --emit=dot -o %t.pictures - < %s
# RUN: test -f %t.pictures/stdin.dot && test $(find %t.pictures -type f | wc -l) -eq 1
# RUN: head -n 1 %t.pictures/stdin.dot | %FileCheck %s
# CHECK: digraph {{.*}}
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, data):
    return data


@pl.jit.host
def host(x):
    buf = pld.alloc_window_buffer(64)
    data = pld.window(buf, [16], dtype=pl.FP32)
    chip(x, data, device=0)
