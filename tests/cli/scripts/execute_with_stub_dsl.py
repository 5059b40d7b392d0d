"""Ground truth for a DSL file: runs its module-level host orchestrators under Python with
a stand-in for the DSL that records, for each allocation, the devices that a dispatch
passes one of its views to, for each world size asked for.

    execute_with_stub_dsl.py [--world N]... [-D NAME=INT]... FILE

Prints `WORLD <n>`, then per host orchestrator `HOST <name>` and `ALLOCATION <name>
<devices>` for each allocation in the order made (devices ascending, `[]` when none), or
`FAILED <why>` when it dispatches outside that world, so that a test can compare the plan's
device sets with what the program does. An allocation is named as the pass names it: its
`name=` keyword, else the variable it is assigned to on its line. A chip orchestrator is
a function decorated `@pl.jit`; every argument of a host orchestrator is a stand-in that
any subscript or attribute of returns again. `-D` binds a name the file leaves open."""

import argparse
import inspect
import tempfile

import stub_dsl

LANGUAGE = '''
from . import distributed  # noqa: F401
from . import _record

FP32 = "FP32"


class _Jit:
    def __call__(self, f):
        return _record.chip(f)

    def host(self, f):
        return _record.host(f)


jit = _Jit()
range = _record.dsl_range


def __getattr__(name):  # types, dtypes, and the rest: stand-ins
    return _record.Anything()
'''

DISTRIBUTED = '''
from . import _record


def world_size():
    return _record.world


def alloc_window_buffer(size, name=None):
    return _record.allocate(name)


def window(buffer, shape, dtype=None):
    return _record.View(buffer)


class tensor:  # the long spellings
    alloc_window_buffer = staticmethod(alloc_window_buffer)
    window = staticmethod(window)

    def __getattr__(self, name):
        return _record.Anything()


tensor = tensor()


class system:
    world_size = staticmethod(world_size)


def __getattr__(name):  # collectives, types: stand-ins
    return _record.Anything()
'''

RECORD = '''
import builtins
import inspect
import re

world = 1
allocations = []  # [name, set of devices], in the order made
hosts = []


class Buffer:
    def __init__(self, index):
        self.index = index


class View:
    """A view; a slice of it, or what a method of it returns, is a view of its window."""

    def __init__(self, buffer):
        self.buffer = buffer

    def __getitem__(self, key):
        return View(self.buffer)

    def __getattr__(self, name):
        return lambda *args, **kwargs: View(self.buffer)


class Anything:
    def __getitem__(self, key):
        return self

    def __getattr__(self, name):
        return self

    def __call__(self, *args, **kwargs):  # pl.cast(v, ...): still (part of) v's window
        views = [a for a in list(args) + list(kwargs.values()) if isinstance(a, View)]
        return View(views[0].buffer) if views else self


def allocate(name):
    if name is None:
        line = inspect.stack()[2].code_context[0]  # x = pld.alloc_window_buffer(...)
        name = re.match(r"\\s*(\\w+)\\s*(:[^=]*)?=", line).group(1)
    allocations.append([name, set()])
    return Buffer(len(allocations) - 1)


def dsl_range(*args, init_values=None):
    return builtins.range(*args)


def chip(f):
    def dispatch(*args, device=None, **kwargs):
        if device is None:
            return None
        if device < 0 or device >= world:
            raise RuntimeError(f"device {device} outside a world of {world}")
        for a in args:
            if isinstance(a, View):
                allocations[a.buffer.index][1].add(device)
        return None

    return dispatch


def host(f):
    hosts.append(f)
    return f
'''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--world", type=int, action="append")
    parser.add_argument("-D", dest="defines", action="append", default=[])
    parser.add_argument("file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        stub_dsl.install(
            root, {"__init__.py": LANGUAGE, "distributed.py": DISTRIBUTED, "_record.py": RECORD}
        )
        import builtins

        for d in args.defines:
            name, value = d.split("=", 1)
            setattr(builtins, name, int(value))
        from pypto.language import _record

        stub_dsl.import_file(args.file)
        for world in args.world or [1]:
            print(f"WORLD {world}")
            _record.world = world
            for host in list(_record.hosts):
                _record.allocations.clear()
                params = inspect.signature(host).parameters
                print(f"HOST {host.__name__}")
                try:
                    host(*[_record.Anything() for _ in params])
                except RuntimeError as e:  # too small a world for it
                    print(f"FAILED {e}")
                    continue
                for name, devices in _record.allocations:
                    print(f"ALLOCATION {name} [{', '.join(str(d) for d in sorted(devices))}]")


main()
