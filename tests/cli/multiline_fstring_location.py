import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x, w):
    return x


@pl.jit.host
def host(x, log):
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    log(f"""result: {
        chip(x[0], v, device=0)
    }""")
    return x


# A diagnostic at a string that spans lines points where it begins, as Python does, and
# stays one line: the source it quotes has its line breaks made spaces.
# RUN: %commscope-opt --format=json %s > %t.json 2> %t.err; test $? -eq 1
# RUN: %FileCheck %s < %t.err
# RUN: test $(wc -l < %t.err) -eq 2
# CHECK:      multiline_fstring_location.py:14:9: error: a view of allocation 'buf' is an operand of 'f"""result: { chip(x[0], v, device=0) }"""', {{.*}} [view-escapes]
# CHECK-NEXT: multiline_fstring_location.py:13:5: note: a view of it is taken here
