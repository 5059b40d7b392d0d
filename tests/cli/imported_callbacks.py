import callback_functions.ranks
import callback_functions.ranks as keys
from callback_functions import ranks
from callback_functions.chips import chip
from callback_functions.ranks import LIMIT, by_rank
from callback_functions.reexport import *  # noqa: F403
from callback_functions.reexport import ordered
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.host
def imported_key(x):
    a = pld.alloc_window_buffer(256)
    va = pld.window(a, [64], dtype=pl.FP32)
    chip(x, va, device=0)
    views = [va, va]
    views.sort(key=by_rank)


@pl.jit.host
def module_key(x):
    b = pld.alloc_window_buffer(256)
    vb = pld.window(b, [64], dtype=pl.FP32)
    chip(x, vb, device=0)
    views = [vb, vb]
    views.sort(key=ranks.rank_order)
    views.sort(key=keys.by_rank)
    views.sort(key=callback_functions.ranks.by_rank)


@pl.jit.host
def reexported_key(x):
    c = pld.alloc_window_buffer(256)
    vc = pld.window(c, [64], dtype=pl.FP32)
    chip(x, vc, device=0)
    views = [vc, vc]
    views.sort(key=ordered)
    views.sort(key=rank_order)


class Keys:
    @staticmethod
    def by_rank(t):
        chip(t, t, device=3)
        return 0


@pl.jit.host
def class_key(x):
    e = pld.alloc_window_buffer(256)
    ve = pld.window(e, [64], dtype=pl.FP32)
    chip(x, ve, device=0)
    views = [ve, ve]
    views.sort(key=Keys.by_rank)
    views.sort(key=callback_functions . ranks . by_rank)


@pl.jit.host
def constant_argument(x):
    d = pld.alloc_window_buffer(256)
    vd = pld.window(d, [64], dtype=pl.FP32)
    chip(x, vd, device=0)
    vd.reshape(LIMIT, ranks.LIMIT)
    chip(x, vd, device=1)


# A sort key that a module of the model's own defines may dispatch a chip on the views
# it is given, a call the pass does not follow: imported by name, through a module
# (`ranks.rank_order`, `keys.by_rank`, a dotted import, spaced or not), re-exported, or
# through a star import; so may a method of a class of the file (`Keys.by_rank`). The
# integer constants of the same module (LIMIT) are no functions.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: imported_callbacks.py:18:5: error: a view of allocation 'a' is, or is held by, the object of 'views.sort', which is given 'by_rank': the method may call it with the object, a call the pass does not follow [view-escapes]
# CHECK: imported_callbacks.py:27:5: error: a view of allocation 'b' is, or is held by, the object of 'views.sort', which is given 'ranks.rank_order'
# CHECK: imported_callbacks.py:28:5: error: a view of allocation 'b' is, or is held by, the object of 'views.sort', which is given 'keys.by_rank'
# CHECK: imported_callbacks.py:29:5: error: a view of allocation 'b' is, or is held by, the object of 'views.sort', which is given 'callback_functions.ranks.by_rank'
# CHECK: imported_callbacks.py:38:5: error: a view of allocation 'c' is, or is held by, the object of 'views.sort', which is given 'ordered'
# CHECK: imported_callbacks.py:39:5: error: a view of allocation 'c' is, or is held by, the object of 'views.sort', which is given 'rank_order'
# CHECK: imported_callbacks.py:55:5: error: a view of allocation 'e' is, or is held by, the object of 'views.sort', which is given 'Keys.by_rank'
# CHECK: imported_callbacks.py:56:5: error: a view of allocation 'e' is, or is held by, the object of 'views.sort', which is given 'callback_functions.ranks.by_rank'
# CHECK-NOT: error
# CHECK: Found 8 errors in 1 file (1 file checked).
# Without the functions, the plans:
# RUN: sed -e "s/key=[A-Za-z_. ]*)/key=len)/" %s > %t.plain.py && %commscope-opt -I %S %t.plain.py | %FileCheck --check-prefix=PLAN %s
# PLAN: host orchestrator 'imported_key': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0]  1 slot, 256 B
# PLAN: host orchestrator 'class_key': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0]  1 slot, 256 B
# PLAN: host orchestrator 'constant_argument': 1 comm domain
# PLAN-NEXT: comm_d0  devices [0, 1]  1 slot, 256 B
