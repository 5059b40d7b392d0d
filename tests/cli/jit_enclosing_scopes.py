import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(x):
    return x


def test_host_uses_module_chip():
    @pl.jit.host
    def host():
        buf = pld.alloc_window_buffer(64)
        v = pld.window(buf, [16], dtype=pl.FP32)
        chip(v, device=0)


def test_shadowed():
    chip = None

    def inner():
        @pl.jit.host
        def host():
            buf = pld.alloc_window_buffer(64)
            v = pld.window(buf, [16], dtype=pl.FP32)
            chip(v, device=0)
    return inner, chip


class TestSuite:
    def test_method(self):
        @pl.jit.host
        def host():
            buf = pld.alloc_window_buffer(64)
            v = pld.window(buf, [16], dtype=pl.FP32)
            chip(v, device=1)
            chip(v)


# A `@pl.jit` group defined inside a function (a test, a builder) calls the DSL functions
# of the scopes around it as Python finds them: the nearest enclosing function body or
# the module that binds the name decides (class bodies aside). `chip` bound to something
# else on the way (test_shadowed) is no function of the program.
# RUN: %commscope-opt --format=json %s > %t.json 2> %t.err; test $? -eq 1
# RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('; '.join(p['name'] + ': ' + ' '.join(f['name'] + ' ' + '/'.join(str(s['devices']) for s in f['scopes']) for f in p['functions']) for p in d['programs']))" %t.json | %FileCheck --check-prefix=PLAN %s
# PLAN: jit_enclosing_scopes: ; test_host_uses_module_chip: host {{\[0\]}}; inner: ; test_method: host {{\[1\]}}
# RUN: %FileCheck --check-prefix=ERR --implicit-check-not=error: %s < %t.err
# ERR: jit_enclosing_scopes.py:26:13: error: call of unknown function 'chip': 'chip' is bound on line 19 in a function around this one, to something other than a DSL function: a call of it here is that, not the DSL function [malformed-op]
