# -D NAME=INT binds a name the file leaves open (here the builder's parameter `nr`);
# without it, a device= that needs the name is unsupported-device, and the message
# names it and suggests -D. A -D name also overrides the file's own constant.
# RUN: %commscope-opt --format=json %s > %t.out 2> %t.err; test $? -eq 1
# RUN: %FileCheck --check-prefix=OPEN --match-full-lines %s < %t.err
# OPEN: {{.*}}defines.py:41:13: error: cannot infer the devices of the dispatch of 'per_rank' from its device= expression: 'nr' is not bound to an integer constant in this file (bind it with -D nr=INT) [unsupported-device]
# OPEN-NEXT: {{.*}}defines.py:40:9: note: the device variable is bound by this loop
# OPEN-EMPTY:
# RUN: %commscope-opt --format=json -D nr=2 %s | %FileCheck --check-prefix=TWO %s
# RUN: %commscope-opt --format=json -Dnr=2 %s | %FileCheck --check-prefix=TWO %s
# TWO:      "name": "comm_d0",
# TWO-NEXT: "devices": [
# TWO-NEXT:   0,
# TWO-NEXT:   1
# TWO-NEXT: ],
# TWO:      "size": "1 * 64 * 4"
# RUN: %commscope-opt --format=json -D nr=3 -D WIDTH=16 %s | %FileCheck --check-prefix=WIDE %s
# WIDE:      "size": "1 * 16 * 4"
# Malformed -D is a usage error (exit 2):
# RUN: %commscope-opt --format=json -D nr %s 2>&1 >/dev/null | %FileCheck --check-prefix=BAD %s; test ${PIPESTATUS[0]} -eq 2
# RUN: %commscope-opt --format=json -D 1x=2 %s 2>&1 >/dev/null | %FileCheck --check-prefix=BAD %s; test ${PIPESTATUS[0]} -eq 2
# RUN: %commscope-opt --format=json -D nr=2.5 %s 2>&1 >/dev/null | %FileCheck --check-prefix=BAD %s; test ${PIPESTATUS[0]} -eq 2
# RUN: %commscope-opt --format=json %s -D 2>&1 >/dev/null | %FileCheck --check-prefix=BAD %s; test ${PIPESTATUS[0]} -eq 2
# BAD: commscope-opt: error: {{(malformed -D|-D needs|-D: 1 required NAME=INT missing)}}
import pypto.language as pl
import pypto.language.distributed as pld

WIDTH = 64


def build(nr):
    @pl.jit
    def per_rank(data: pld.DistributedTensor[[1, WIDTH], pl.FP32]):
        return data

    @pl.jit.host
    def host():
        buf = pld.alloc_window_buffer([1, WIDTH], dtype=pl.FP32)
        view = pld.window(buf, [1, WIDTH], dtype=pl.FP32)
        for r in pl.range(nr):
            per_rank(view, device=r)

    return host


# A name given twice takes its last value, as with a compiler's -D:
# RUN: %commscope-opt --format=json -D nr=5 -D nr=2 %s | %FileCheck --check-prefix=TWO %s
