import pypto.language as pl
import pypto.language.distributed as pld

CP_SIZE = 1024


@pl.jit
def chip(x):
    return x


@pl.jit.host
def host():
    kv = pld.alloc_window_buffer(CP_SIZE * 1 * 4)
    sig = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
    big = pld.alloc_window_buffer(2**40)
    a = pld.window(kv, [1024], dtype=pl.FP32)
    s = pld.window(sig, [pld.world_size()], dtype=pl.INT32)
    b = pld.window(big, [16], dtype=pl.FP32)
    for r in pl.range(nr):
        chip(a, s, device=r)
    chip(b, device=0)


# The text format's plan, for one input: per host orchestrator each domain with its
# devices, slots and total bytes, each slot with its size and, when it folds (constants
# of the file and -D included), its bytes.
# RUN: %commscope-opt -D nr=4 %s | %FileCheck --match-full-lines --strict-whitespace %s
# CHECK:{{.*}}format_text_plan.py: program 'format_text_plan' (line 7)
# CHECK-NEXT:  host orchestrator 'host': 2 comm domains
# CHECK-NEXT:    comm_d0  devices [0, 1, 2, 3]  2 slots, 4,096 B + 1 size not constant
# CHECK-NEXT:      kv   1024 * 1 * 4 = 4,096 B
# CHECK-NEXT:      sig  pld.world_size() * 4
# CHECK-NEXT:    comm_d1  devices [0]  1 slot, 1,099,511,627,776 B
# CHECK-NEXT:      big  2**40 = 1,099,511,627,776 B
# CHECK-NEXT:All checks passed: 1 file, 1 program, 1 host orchestrator.
#
# The built-in example, the README's first command.
# RUN: %commscope-opt | %FileCheck --check-prefix=BUILTIN --match-full-lines --strict-whitespace %s
# BUILTIN:<builtin>: program 'Example' (line 5)
# BUILTIN-NEXT:  host orchestrator 'host_orch': 2 comm domains
# BUILTIN-NEXT:    comm_d0  devices all  2 slots, 1,024 B + 1 size not constant
# BUILTIN-NEXT:      buf     256 * 4 = 1,024 B
# BUILTIN-NEXT:      signal  pld.world_size() * 4
# BUILTIN-NEXT:    comm_d1  devices [0, 1]  1 slot, 128 B
# BUILTIN-NEXT:      staging  64 * 2 = 128 B
# BUILTIN-NEXT:All checks passed: 1 file, 1 program, 1 host orchestrator.
#
# Several inputs print no plan unless --show-plan asks for it; -q never does.
# RUN: cp %s %t.copy.py
# RUN: %commscope-opt -D nr=4 %s %t.copy.py | %FileCheck --check-prefix=SEVERAL %s
# SEVERAL-NOT: comm_d0
# SEVERAL: All checks passed: 2 files, 2 programs, 2 host orchestrators.
# RUN: %commscope-opt --show-plan -D nr=4 %s %t.copy.py | grep -c 'comm_d0 ' | %FileCheck --check-prefix=SHOWN %s
# SHOWN: 2
# RUN: %commscope-opt -q -D nr=4 %s > %t.quiet && test ! -s %t.quiet
