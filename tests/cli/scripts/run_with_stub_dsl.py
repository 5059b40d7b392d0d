"""Checks that the names a rewritten file spells its scopes with resolve as Python resolves
them: `run_with_stub_dsl.py FILE` imports FILE against a stand-in for the DSL's packages,
then evaluates, in the module's namespace, the callee of every `with ...comm_domain(...)`
and every `...world_size` inside one (the DSL's compiler reads a host orchestrator's
source and resolves its names there). Prints `RESOLVED <spelling> -> <function>` or
`UNRESOLVED <spelling>: <error>` for each, in source order.

The stand-in (stub_dsl.py) has `pypto.language` (decorators, dtypes) and
`pypto.language.distributed` (allocations, windows, world_size, comm_domain). A name the
file does not bind is not found."""

import ast
import sys
import tempfile

import stub_dsl

LANGUAGE = '''
from . import distributed  # noqa: F401

FP32 = "FP32"
INT32 = "INT32"


class _Jit:
    def __call__(self, f):
        return f

    def host(self, f):
        return f

    def incore(self, f):
        return f


jit = _Jit()
'''

DISTRIBUTED = '''
def world_size():
    return 1


def alloc_window_buffer(size, name=None):
    return ("buffer", size)


def window(buffer, shape, dtype=None):
    return ("view", buffer, tuple(shape), dtype)


def comm_domain(name, devices, slots):
    return None
'''


def scope_names(tree):
    """The callee of each `with` item's comm_domain call, and each world_size in it."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.With):
            continue
        for item in node.items:
            call = item.context_expr
            if not isinstance(call, ast.Call):
                continue
            if ast.unparse(call.func).split(".")[-1] != "comm_domain":
                continue
            yield call.func
            for sub in ast.walk(call):
                if isinstance(sub, ast.Call) and ast.unparse(sub.func).endswith("world_size"):
                    yield sub.func


def main():
    path = sys.argv[1]
    with tempfile.TemporaryDirectory() as root:
        stub_dsl.install(root, {"__init__.py": LANGUAGE, "distributed.py": DISTRIBUTED})
        model = stub_dsl.import_file(path)
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for func in sorted(scope_names(tree), key=lambda n: (n.lineno, n.col_offset)):
            spelling = ast.unparse(func)
            try:
                value = eval(compile(ast.Expression(func), path, "eval"), vars(model))
                print(f"RESOLVED {spelling} -> {value.__module__}.{value.__name__}")
            except Exception as e:  # noqa: BLE001 (any failure is the finding)
                print(f"UNRESOLVED {spelling}: {type(e).__name__}: {e}")


main()
