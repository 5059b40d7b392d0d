import sys

import pypto.language as pl
import pypto.language.distributed as pld

TP = 2
SETTINGS = {"tp": 4}


@pl.jit
def shard(x, w):
    return x


@pl.jit.host
def forward(x):
    buf = pld.alloc_window_buffer(64)
    v = pld.window(buf, [16], dtype=pl.FP32)
    for r in pl.range(TP):
        shard(x[r], v, device=r)
    return x


def configure(settings):
    if "TP" in globals() and globals().get("TP") != settings["tp"]:
        globals()["TP"] = settings["tp"]


# A module that writes through globals() (or calls exec, or reaches itself through
# sys.modules) may rebind any of its names where no statement names them: configure(...)
# makes TP 4, and forward would dispatch on 0..3. None of its names is a constant.
# Reading globals() is harmless.
# RUN: %commscope-opt %s > %t.out 2>&1; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: constants_rebound_dynamically.py:20:9: error: {{.*}}'TP' is not bound to an integer constant in this file, which may rebind its names through globals(), exec or sys.modules (bind it with -D TP=INT) [unsupported-device]
# RUN: sed 's/^        globals()\["TP"\] = .*$/        print(globals()["TP"])/' %s > %t.read.py
# RUN: %commscope-opt %t.read.py | %FileCheck --check-prefix=READ %s
# READ: All checks passed: 1 file, 1 program, 1 host orchestrator.
# RUN: sed 's/^        globals()\["TP"\] = .*$/        exec("TP = 4")/' %s > %t.exec.py
# RUN: %commscope-opt %t.exec.py > /dev/null; test $? -eq 1
# RUN: sed 's/^        globals()\["TP"\] = .*$/        setattr(sys.modules[__name__], "TP", 4)/' %s > %t.sys.py
# RUN: %commscope-opt %t.sys.py > /dev/null; test $? -eq 1
#
# At a module's level vars() and locals() are globals(): a write through them, or
# through builtins.exec, counts the same; reading them (`f(**locals())`) does not.
# RUN: sed 's/^        globals()\["TP"\] = .*$/        pass/' %s > %t.vars.py; echo 'vars()["TP"] = 4' >> %t.vars.py
# RUN: %commscope-opt %t.vars.py > /dev/null; test $? -eq 1
# RUN: sed 's/^        globals()\["TP"\] = .*$/        pass/' %s > %t.locals.py; echo 'locals().update(TP=4)' >> %t.locals.py
# RUN: %commscope-opt %t.locals.py > /dev/null; test $? -eq 1
# RUN: sed 's/^        globals()\["TP"\] = .*$/        builtins.exec("TP = 4")/' %s > %t.builtins.py
# RUN: %commscope-opt %t.builtins.py > /dev/null; test $? -eq 1
# RUN: sed 's/^        globals()\["TP"\] = .*$/        print("{tp}".format(**locals()))/' %s > %t.readlocals.py
# RUN: %commscope-opt %t.readlocals.py | %FileCheck --check-prefix=READ %s
