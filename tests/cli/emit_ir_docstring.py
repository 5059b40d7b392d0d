import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(data):
    return data


@pl.jit.host
def host():
    """Runs the ring.

    The scopes go below this docstring, which stays the function's.
    """
    # The allocations.
    b = pld.alloc_window_buffer(256)
    v = pld.window(b, [1, 64], dtype=pl.FP32)
    chip(v, device=0)
    return v


@pl.jit.host
def only_code():
    "Not alone on its line"; c = pld.alloc_window_buffer(256)
    w = pld.window(c, [1, 64], dtype=pl.FP32)
    chip(w, device=1)


@pl.jit.host
def formatted(n):
    f"{n} ranks"
    d = pld.alloc_window_buffer(256)
    u = pld.window(d, [1, 64], dtype=pl.FP32)
    chip(u, device=2)


# A docstring on lines of its own stays first in the rewritten function (Python reads it
# as the function's __doc__ only there); the scopes wrap what follows it, comments
# included, each once. One that shares its line with code is wrapped with it, and an
# f-string, which is no docstring, is a statement as any other.
# RUN: %commscope-opt --emit=ir %s > %t.py
# RUN: %FileCheck --match-full-lines %s < %t.py
# CHECK:      def host():
# CHECK-NEXT:     """Runs the ring.
# CHECK-EMPTY:
# CHECK-NEXT:     The scopes go below this docstring, which stays the function's.
# CHECK-NEXT:     """
# CHECK-NEXT:     with pld.comm_domain("comm_d0", devices=[0], slots=[b]):
# CHECK-NEXT:         # The allocations.
# CHECK-NEXT:         b = pld.alloc_window_buffer(256)
# CHECK:      def only_code():
# CHECK-NEXT:     with pld.comm_domain("comm_d0", devices=[1], slots=[c]):
# CHECK-NEXT:         "Not alone on its line"
# CHECK:      def formatted(n):
# CHECK-NEXT:     with pld.comm_domain("comm_d0", devices=[2], slots=[d]):
# CHECK-NEXT:         f"{n} ranks"
# RUN: test $(grep -c "^ *# The allocations[.]$" %t.py) -eq 1
# RUN: %commscope-opt --emit=ir %t.py | diff - %t.py
# RUN: %commscope-opt --verify %t.py > /dev/null
# RUN: %python -c "import ast, sys; f = [n for n in ast.parse(open(sys.argv[1]).read()).body if getattr(n, 'name', '') == 'host'][0]; assert ast.get_docstring(f).startswith('Runs the ring.')" %t.py
