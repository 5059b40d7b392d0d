import pypto.language as pl
import pypto.language.distributed as pld


def chip_impl(x):
    return x


chip = pl.jit(chip_impl)


def host_impl():
    a = pld.alloc_window_buffer(64)
    va = pld.window(a, [16], dtype=pl.FP32)
    chip(va, device=1)
    b = pld.alloc_window_buffer(64)
    vb = pld.window(b, [16], dtype=pl.FP32)


host = pl.jit.host(host_impl)


@pl.program
class P:
    def chip_impl(self, x):
        return x

    chip = pl.function(type=pl.FunctionType.Orchestration)(chip_impl)

    def host_impl(self):
        c = pld.alloc_window_buffer(64)
        vc = pld.window(c, [16], dtype=pl.FP32)
        self.chip(vc, device=1)
        d = pld.alloc_window_buffer(64)
        vd = pld.window(d, [16], dtype=pl.FP32)

    host = pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)(host_impl)


# A plain function wrapped by an assignment of its scope is the DSL function the
# decorator makes of it, called by the assigned name: `host` and `P.host` are host
# orchestrators (`host_impl`'s bodies), `chip` and `P.chip` chip orchestrators. Each
# host dropped out of the check.
# RUN: %commscope-opt %s > %t.out; test $? -eq 1
# RUN: %FileCheck %s < %t.out
# CHECK: {{.*}}:16:5: error: allocation 'b' has views but no dispatch or collective gives it devices [unconsumed-alloc]
# CHECK: {{.*}}:34:9: error: allocation 'd' has views but no dispatch or collective gives it devices [unconsumed-alloc]
# CHECK: Found 2 errors in 1 file (1 file checked).
#
# The decorator called with its arguments first wraps alike.
# RUN: sed 's/^host = pl.jit.host(host_impl)$/host = pl.jit.host()(host_impl)/' %s | %commscope-opt - | %FileCheck %s; test ${PIPESTATUS[1]} -eq 1
#
# The wrapped function keeps its own name: a device= call of it is no dispatch.
# RUN: sed 's/^    chip(va, device=1)$/    chip_impl(va, device=1)/' %s | %commscope-opt - | %FileCheck --check-prefix=IMPL %s; test ${PIPESTATUS[1]} -eq 1
# IMPL: <stdin>:15:5: error: call of unknown function 'chip_impl' [malformed-op]
#
# What the front end cannot read is an error, never a host left out: a wrapping of no
# def of the scope above it, a misspelled decorator, and decorators through expressions.
# RUN: sed 's/^host = pl.jit.host(host_impl)$/host = pl.jit.host(make(host_impl))/' %s | %commscope-opt - | %FileCheck --check-prefix=CALL %s; test ${PIPESTATUS[1]} -eq 1
# CALL: <stdin>:20:8: error: cannot read 'host = pl.jit.host(make(host_impl))', whose DSL function the check would skip: it wraps no plain name of a function [unknown-decorator]
# CALL: help: wrap a function defined with def above it in the same scope ('host = pl.jit.host(impl)'), or decorate the def itself
# RUN: sed 's/^host = pl.jit.host(host_impl)$/host = pl.jit.host(later)/' %s | %commscope-opt - | %FileCheck --check-prefix=LATER %s; test ${PIPESTATUS[1]} -eq 1
# LATER: <stdin>:20:8: error: cannot read 'host = pl.jit.host(later)', whose DSL function the check would skip: 'later' is no function defined above it in this scope [unknown-decorator]
# RUN: sed 's/^host = pl.jit.host(host_impl)$/host = pl.jit.hots(host_impl)/' %s | %commscope-opt - | %FileCheck --check-prefix=TYPO %s; test ${PIPESTATUS[1]} -eq 1
# TYPO: <stdin>:20:8: error: unknown decorator 'pl.jit.hots': the DSL has no such decorator [unknown-decorator]
# TYPO-NEXT: 20 | host = pl.jit.hots(host_impl)
# TYPO: help: did you mean 'pl.jit.host'?
# RUN: sed -e '11s/^$/@(pl).jit.host/' -e '20s/.*/host = host_impl/' %s | %commscope-opt - | %FileCheck --check-prefix=GROUPED %s; test ${PIPESTATUS[1]} -eq 1
# GROUPED: <stdin>:11:2: error: cannot read the decorator '(pl).jit.host' of 'host_impl', which may make it a DSL function that the check would skip: it is no dotted name [unknown-decorator]
# GROUPED: help: spell the decorator as a dotted name of the DSL's module ('@pl.jit.host'), or bind a name to one alone at the module's level ('deco = pl.jit.host')
# RUN: sed -e '3s/^$/deco = pl.jit.host if pl else pl.jit/' -e '11s/^$/@deco/' -e '20s/.*/host = host_impl/' %s | %commscope-opt - | %FileCheck --check-prefix=ALIAS %s; test ${PIPESTATUS[1]} -eq 1
# ALIAS: <stdin>:11:2: error: cannot read the decorator 'deco' of 'host_impl', which may make it a DSL function that the check would skip: 'deco' is bound on line 3 to 'pl.jit.host if pl else pl.jit': the front end follows only a name bound once at the module's level to a dotted name of the DSL's module [unknown-decorator]
# RUN: sed -e '3s/^$/deco = pl.jit.host if pl else pl.jit/' -e '20s/.*/host = deco(host_impl)/' %s | %commscope-opt - | %FileCheck --check-prefix=ALIAS-CALL %s; test ${PIPESTATUS[1]} -eq 1
# ALIAS-CALL: <stdin>:20:8: error: cannot read 'host = deco(host_impl)', which may make a DSL function that the check would skip: 'deco' is bound on line 3 to 'pl.jit.host if pl else pl.jit'{{.*}}[unknown-decorator]
#
# A module-level alias of a dotted name is the decorator itself, called or not.
# RUN: sed -e '3s/^$/deco = pl.jit.host/' -e '20s/.*/host = deco(host_impl)/' %s | %commscope-opt - | %FileCheck %s; test ${PIPESTATUS[1]} -eq 1
# RUN: sed -e '3s/^$/deco = pl.jit.host/' -e '11s/^$/@deco/' -e '20s/.*/host = host_impl/' %s | %commscope-opt - | %FileCheck %s; test ${PIPESTATUS[1]} -eq 1
