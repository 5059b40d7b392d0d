#!/usr/bin/env python3
"""The front end against CPython: random host orchestrators in the DSL's Python, run.

Each program is written to a file of its own, beside one sibling module (chips,
constants, a config class, helpers), and read by commscope-opt in one run. Then CPython
runs each host for world sizes 1 to 8 with a stand-in for `pypto.language`: a chip
function called with device=d records d for the allocation of every view it is handed
(inside tuples, lists and dicts too), and runs its body, so what it returns is real.

The judge: where commscope-opt accepts a program, every device an execution dispatches
an allocation's views on is in that allocation's planned devices for that world (sound).
A rejected program is counted by its codes: rejecting is always sound. A program CPython
cannot run (a generator's mistake) fails the check too.

    python_ground_truth.py --opt build/tools/commscope-opt [--count N] [--seed S]
                           [--keep DIR]

Rerun one program: --seed S --count 1 uses the seed a failure printed.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import textwrap

WORLDS = range(1, 9)

# The stand-in for the DSL, written once per run beside the programs.
STUB_LANGUAGE = '''
import builtins

FP32 = "fp32"
INT32 = "int32"
record = None
world = 1


class View:
    def __init__(self, buffer):
        self.buffer = buffer

    def __getitem__(self, key):
        return View(self.buffer)

    def reshape(self, shape):
        return View(self.buffer)

    def __len__(self):
        return 64

    @property
    def shape(self):
        return [64]


class Buffer:
    def __init__(self, index):
        self.index = index


def views_in(value, out, depth=0):
    if depth > 8:
        return
    if isinstance(value, View):
        out.add(value.buffer.index)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for v in value:
            views_in(v, out, depth + 1)
    elif isinstance(value, dict):
        for v in value.values():
            views_in(v, out, depth + 1)


class _Function:
    def __init__(self, fn, chip):
        self.fn = fn
        self.chip = chip

    def __call__(self, *args, device=None, **kwargs):
        if self.chip and device is not None:
            if not isinstance(device, int):
                raise TypeError("device is no integer")
            touched = set()
            views_in(args, touched)
            views_in(kwargs, touched)
            for b in touched:
                record.setdefault(b, set()).add(device)
        return self.fn(*args, **kwargs)


class _Jit:
    def __call__(self, fn):
        return _Function(fn, True)

    def host(self, fn):
        return _Function(fn, False)


jit = _Jit()


def range(*args):
    return builtins.range(*args)


class Level:
    HOST = "host"


class at:
    def __init__(self, level=None):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
'''

STUB_DISTRIBUTED = '''
from pypto import language as _pl


class _State:
    allocations = 0


def alloc_window_buffer(size):
    b = _pl.Buffer(_State.allocations)
    _State.allocations += 1
    return b


def window(buffer, shape, dtype=None):
    if not isinstance(buffer, _pl.Buffer):
        raise TypeError("window of no buffer")
    return _pl.View(buffer)


def world_size():
    return _pl.world


class system:
    world_size = staticmethod(world_size)
'''

SIBLING = '''
import pypto.language as pl

DEV = 3
DEVS = (1, 4)


@pl.jit
def chip(x, y):
    return y


@pl.jit
def chip2(x, y, z):
    return z


class Config:
    dev = 2

    def __init__(self):
        self.other = 5


cfg = Config()
'''

RUNNER = '''
import importlib.util
import json
import sys

sys.path.insert(0, sys.argv[1])
import pypto.language as pl
import pypto.language.distributed as pld

results = {}
for path in sys.argv[2:]:
    per_world = {}
    try:
        for w in range(1, 9):
            spec = importlib.util.spec_from_file_location("gt_program", path)
            module = importlib.util.module_from_spec(spec)
            pl.world = w
            pl.record = {}
            spec.loader.exec_module(module)
            pld._State.allocations = 0
            module.host(object())
            per_world[w] = {str(k): sorted(v) for k, v in pl.record.items()}
        results[path] = {"worlds": per_world}
    except Exception as e:  # a generator mistake: reported as such
        results[path] = {"error": type(e).__name__ + ": " + str(e)}
print(json.dumps(results))
'''


class Generator:
    """One random host orchestrator and the module around it."""

    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.helpers = []
        self.module_lines = []
        self.names = 0
        self.views = []  # names that hold a view
        self.packs = []  # (name, size): tuples of views
        self.lists = []  # names of lists of views
        self.dicts = []  # names of dicts of views
        self.devices = []  # names bound to device integers
        self.allocations = 0
        self.in_iterable = False
        self.aliased = False

    def fresh(self, prefix):
        self.names += 1
        return f"{prefix}{self.names}"

    def pick(self, xs):
        return self.rng.choice(xs)

    # ---- expressions

    def condition(self, loop_var=None):
        forms = ["FLAG", "not FLAG", "pld.world_size() > 2", "pld.world_size() % 2 == 0",
                 "x is None", "LIMIT > 1"]
        if loop_var:
            forms += [f"{loop_var} % 2 == 0", f"{loop_var} > 1", f"{loop_var} == 0"]
        return self.pick(forms)

    def device(self, loop_vars, depth=0):
        # Mostly forms the pass evaluates; the others (an item of a tuple, an attribute,
        # a conditional) are unsupported-device, which is sound, and rarer.
        forms = ["literal"] * 3 + ["const"] * 2 + ["imported", "arith"]
        if loop_vars:
            forms += ["loop"] * 8
        if self.devices:
            forms += ["local"] * 3
        if self.rng.random() < 0.03:
            forms = ["attribute", "last", "pack"] + (["conditional"] if depth < 1 else [])
            forms += ["loop_arith"] if loop_vars else []
        f = self.pick(forms)
        if f == "literal":
            return str(self.rng.randrange(0, 6))
        if f == "const":
            return self.pick(["D1", "D2"])
        if f == "imported":
            return self.pick(["DEV", "support.DEV"])
        if f == "attribute":
            return self.pick(["cfg.dev", "support.cfg.dev", "Config.dev", "cfg.other",
                              "DEVS[1]", "support.DEVS[0]"])
        if f == "arith":
            return self.pick(["D1 + 1", "2 * D2", "D1 + D2"])
        if f == "last":
            return "pld.world_size() - 1"
        if f == "pack":
            return self.pick(["PAIR[0]", "PAIR[1]", "TABLE['a']"])
        if f == "loop":
            return self.pick(loop_vars)
        if f == "loop_arith":
            v = self.pick(loop_vars)
            return self.pick([f"({v} + 1) % pld.world_size()", f"{v} + 1", f"2 * {v}"])
        if f == "local":
            return self.pick(self.devices)
        return (f"{self.device(loop_vars, depth + 1)} if {self.condition()} "
                f"else {self.device(loop_vars, depth + 1)}")

    def view(self, depth=0):
        forms = ["name"] * 6
        if self.packs:
            forms += ["item"] * 2
        if self.lists:
            forms.append("list_item")
        if self.dicts:
            forms.append("dict_item")
        if depth < 1:
            forms += ["slice", "reshape", "conditional"]
            if self.rng.random() < 0.01 and not self.in_iterable:
                forms = ["walrus"]
        f = self.pick(forms)
        if f == "name":
            return self.pick(self.views)
        if f == "item":
            name, size = self.pick(self.packs)
            return f"{name}[{self.rng.randrange(size)}]"
        if f == "list_item":
            return f"{self.pick(self.lists)}[0]"
        if f == "dict_item":
            return f"{self.pick(self.dicts)}['k']"
        if f == "slice":
            return f"{self.view(depth + 1)}[0:8]"
        if f == "reshape":
            return f"{self.view(depth + 1)}.reshape([8, 8])"
        if f == "conditional":
            return f"({self.view(depth + 1)} if {self.condition()} else {self.view(depth + 1)})"
        # Not read again: a walrus in an operand that may not run may bind nothing.
        return f"({self.fresh('w')} := {self.view(depth + 1)})"

    # ---- statements

    def dispatch(self, loop_vars):
        d = self.device(loop_vars)
        if self.rng.random() < 0.2:
            return f"chip2(x, {self.view()}, {self.view()}, device={d})"
        if self.rng.random() < 0.02:
            return f"chip(x, y={self.view()}, device={d})"
        # The chip function under other names: imported as, through its module, a local
        # alias, a partial application.
        callee = self.pick(["chip"] * 40 + ["run_chip", "support.chip", "alias", "partial"])
        if callee == "alias":
            callee = "run"
            self.aliased = True
        if callee == "partial":
            return f"functools.partial(chip, x)({self.view()}, device={d})"
        return f"{callee}(x, {self.view()}, device={d})"

    def statement(self, ind, loop_vars, depth):
        r = self.rng.random()
        p = "    " * ind
        if r < 0.25:
            call = self.dispatch(loop_vars)
            if self.rng.random() < 0.3:
                name = self.fresh("r")
                self.lines.append(f"{p}{name} = {call}")
                self.views.append(name)
            else:
                self.lines.append(f"{p}{call}")
        elif r < 0.33:
            name = self.fresh("c")
            self.lines.append(f"{p}{name} = {self.view()}")
            self.views.append(name)
        elif r < 0.40:
            name = self.fresh("t")
            size = self.rng.randrange(1, 4)
            self.lines.append(f"{p}{name} = ({', '.join(self.view() for _ in range(size))},)")
            self.packs.append((name, size))
            if self.rng.random() < 0.4:
                targets = [self.fresh("u") for _ in range(size)]
                self.lines.append(f"{p}{', '.join(targets)}, = {name}")
                self.views += targets
        elif r < 0.45:
            name = self.fresh("l")
            if self.rng.random() < 0.1:
                self.lines.append(f"{p}{name} = []")
                self.lines.append(f"{p}{name}.append({self.view()})")
            else:
                self.lines.append(f"{p}{name} = [{self.view()}, {self.view()}]")
            self.lists.append(name)
        elif r < 0.48:
            name = self.fresh("m")
            self.lines.append(f"{p}{name} = {{'k': {self.view()}}}")
            self.dicts.append(name)
        elif r < 0.53:
            name = self.fresh("d")
            self.lines.append(f"{p}{name} = {self.device(loop_vars)}")
            self.devices.append(name)
        elif r < 0.58:
            # A view rebound: to another view, or a new window of another allocation.
            target = self.pick(self.views)
            if self.rng.random() < 0.5:
                self.lines.append(f"{p}{target} = {self.view()}")
            else:
                a = self.rng.randrange(self.allocations)
                self.lines.append(f"{p}{target} = pld.window(a{a}, [64], dtype=pl.FP32)")
        elif r < 0.68 and depth < 3:
            self.lines.append(f"{p}if {self.condition(loop_vars[-1] if loop_vars else None)}:")
            self.block(ind + 1, loop_vars, depth + 1)
            if self.rng.random() < 0.5:
                self.lines.append(f"{p}else:")
                self.block(ind + 1, loop_vars, depth + 1)
        elif r < 0.80 and depth < 3:
            v = self.fresh("i")
            rng = self.pick(["range(pld.world_size())", "pl.range(pld.world_size())",
                             "range(3)", "range(1, 4)", "range(0, pld.world_size(), 2)",
                             "range(1, pld.world_size())", "range(D1)", "range(LIMIT)",
                             "pl.range(D2, 4)", "range(3, -1, -1)"])
            if self.rng.random() < 0.05:  # no range: unsupported-device where it is read
                rng = self.pick(["[1, 3]", "(0, 2)", "DEVS"])
            self.lines.append(f"{p}for {v} in {rng}:")
            self.block(ind + 1, loop_vars + [v], depth + 1, loop=True)
        elif r < 0.84 and depth < 3:
            v = self.fresh("k")
            stop = self.pick(["3", "pld.world_size()", "LIMIT"])
            self.lines.append(f"{p}{v} = 0")
            self.lines.append(f"{p}while {v} < {stop}:")
            # A counter is no device the pass evaluates: only sometimes one.
            counted = loop_vars + [v] if self.rng.random() < 0.1 else loop_vars
            self.block(ind + 1, counted, depth + 1, loop=True, counter=v)
        elif r < 0.87:
            v = self.fresh("j")
            if self.rng.random() < 0.2:  # the variable as a device: unsupported-device
                rng = self.pick(["range(pld.world_size())", "range(2)", "DEVS"])
                self.lines.append(f"{p}[{self.dispatch(loop_vars + [v])} for {v} in {rng}]")
            else:
                # Python allows no `:=` in a comprehension's iterable.
                self.in_iterable = True
                source = self.pick([f"({self.view()}, {self.view()})"] + self.lists)
                self.in_iterable = False
                d = self.device(loop_vars)
                self.lines.append(f"{p}[chip(x, {v}, device={d}) for {v} in {source}]")
        elif r < 0.90 and depth < 3:
            # A loop over views: a list's, a tuple's, or through Python's builtins.
            v = self.fresh("e")
            outer = list(self.views)
            source = self.pick([f"[{self.view()}, {self.view()}]", f"({self.view()},)"] +
                               self.lists + [n for n, _ in self.packs])
            form = self.rng.randrange(4)
            if form == 0:
                self.lines.append(f"{p}for {v} in {source}:")
            elif form == 1:
                n = self.fresh("n")
                self.lines.append(f"{p}for {n}, {v} in enumerate({source}):")
            elif form == 2:
                n = self.fresh("z")
                self.lines.append(f"{p}for {v}, {n} in zip({source}, {source}):")
                self.views.append(n)
            else:
                self.lines.append(f"{p}for {v} in reversed(list({source})):")
            self.views.append(v)
            self.block(ind + 1, loop_vars, depth + 1, loop=True)
            self.views = outer
        elif r < 0.905:
            # A helper of the module that dispatches what it is given.
            self.lines.append(f"{p}helper(x, {self.view()}, {self.device(loop_vars)})")
        elif r < 0.91:
            f = self.fresh("f")
            self.lines.append(f"{p}{f} = lambda v: chip(x, v, device={self.device(loop_vars)})")
            self.lines.append(f"{p}{f}({self.view()})")
        elif r < 0.93:
            name = self.fresh("s")
            self.lines.append(f"{p}{name} = [{self.view()}, {self.view()}]")
            key = self.pick(["len", "id", f"lambda t: (chip(x, t, device={self.device(loop_vars)}), 0)[1]",
                             "support.key_of", "key_here"])
            self.lines.append(f"{p}{name}.sort(key={key})")
            self.lists.append(name)
        elif r < 0.935:
            g = self.fresh("g")
            self.lines.append(f"{p}def {g}(v):")
            self.lines.append(f"{p}    chip(x, v, device={self.device(loop_vars)})")
            self.lines.append(f"{p}{g}({self.view()})")
        else:
            self.control(ind, loop_vars, depth)

    def control(self, ind, loop_vars, depth):
        """The rarer statements: other compound statements, swaps, star targets, guarded
        dispatches, deletions."""
        p = "    " * ind
        form = self.rng.randrange(11 if depth < 3 else 6)
        if form == 1 and len(self.views) < 2:
            form = 0
        if form == 0:
            self.lines.append(f"{p}y{self.names} = {self.view()}.shape[0]")
        elif form == 1:
            a, b = self.rng.sample(self.views, 2)
            self.lines.append(f"{p}{a}, {b} = {b}, {a}")
        elif form == 2:
            first, rest = self.fresh("h"), self.fresh("q")
            self.lines.append(f"{p}{first}, *{rest} = ({self.view()}, {self.view()}, {self.view()})")
            self.views.append(first)
            self.lists.append(rest)
        elif form == 3:
            op = self.pick(["and", "or"])
            self.lines.append(f"{p}{self.condition()} {op} {self.dispatch(loop_vars)}")
        elif form == 4:
            self.lines.append(f"{p}{self.dispatch(loop_vars)} if {self.condition()} else None")
        elif form == 5:
            d = self.fresh("d")
            self.lines.append(f"{p}{d} = {self.device(loop_vars)}")
            self.lines.append(f"{p}{d} += {self.rng.randrange(0, 3)}")
            self.devices.append(d)
        elif form == 6:
            self.lines.append(f"{p}try:")
            self.block(ind + 1, loop_vars, depth + 1)
            self.lines.append(f"{p}except {self.pick(['ValueError', 'Exception'])}:")
            self.block(ind + 1, loop_vars, depth + 1)
            if self.rng.random() < 0.5:
                self.lines.append(f"{p}finally:")
                self.block(ind + 1, loop_vars, depth + 1)
        elif form == 7:
            self.lines.append(f"{p}with pl.at(level=pl.Level.HOST):")
            self.block(ind + 1, loop_vars, depth + 1)
        elif form == 8:
            self.lines.append(f"{p}match {self.pick(['LIMIT', 'D1', 'pld.world_size()'])}:")
            for case in self.rng.sample(["0", "1", "2", "3 | 4"], 2) + ["_"]:
                self.lines.append(f"{p}    case {case}:")
                self.block(ind + 2, loop_vars, depth + 1)
        elif form == 9:
            self.lines.append(f"{p}if {self.condition()}:")
            self.block(ind + 1, loop_vars, depth + 1)
            self.lines.append(f"{p}elif {self.condition()}:")
            self.block(ind + 1, loop_vars, depth + 1)
        else:
            v = self.fresh("i")
            self.lines.append(f"{p}for {v} in range({self.pick(['2', 'LIMIT', 'pld.world_size()'])}):")
            self.block(ind + 1, loop_vars + [v], depth + 1, loop=True)
            self.lines.append(f"{p}else:")
            self.block(ind + 1, loop_vars, depth + 1)

    def block(self, ind, loop_vars, depth, loop=False, counter=None):
        p = "    " * ind
        saved = (list(self.views), list(self.packs), list(self.lists), list(self.dicts),
                 list(self.devices))
        for _ in range(self.rng.randrange(1, 4)):
            self.statement(ind, loop_vars, depth)
        if loop and counter is None and self.rng.random() < 0.15:
            self.lines.append(f"{p}if {self.condition(loop_vars[-1] if loop_vars else None)}:")
            self.lines.append(f"{p}    {self.pick(['break', 'continue'])}")
        if counter is not None:
            self.lines.append(f"{p}{counter} += 1")
        if not loop and self.rng.random() < 0.05:
            self.lines.append(f"{p}return None")
        # What a block binds may not be bound after it (a loop may run no time): names it
        # made are not read after it.
        (self.views, self.packs, self.lists, self.dicts, self.devices) = saved

    def program(self):
        rng = self.rng
        self.allocations = rng.randrange(1, 4)
        head = [
            "import pypto.language as pl",
            "import pypto.language.distributed as pld",
            "import gt_support as support",
            "from gt_support import DEV, DEVS, Config, cfg, chip, chip2",
            "from gt_support import chip as run_chip",
            "import functools",
            "",
            f"FLAG = {rng.choice(['True', 'False'])}",
            f"LIMIT = {rng.randrange(0, 4)}",
            f"D1 = {rng.randrange(0, 4)}",
            f"D2 = {rng.randrange(0, 3)}",
            f"PAIR = ({rng.randrange(0, 5)}, {rng.randrange(0, 5)})",
            f"TABLE = {{'a': {rng.randrange(0, 5)}}}",
            "",
            "",
            "def helper(x, v, d):",
            "    chip(x, v, device=d)",
            "",
            "",
            "def key_here(t):",
            f"    chip(t, t, device={rng.randrange(0, 5)})",
            "    return 0",
            "",
            "",
            "@pl.jit.host",
            "def host(x):",
        ]
        if rng.random() < 0.1:  # D2 is no constant: a function rebinds it
            head[-3:-3] = ["def retarget():", "    global D2", f"    D2 = {rng.randrange(3, 6)}",
                           "", ""]
            self.lines.append("    retarget()")
        for a in range(self.allocations):
            self.lines.append(f"    a{a} = pld.alloc_window_buffer(256)")
            self.lines.append(f"    v{a} = pld.window(a{a}, [64], dtype=pl.FP32)")
            self.views.append(f"v{a}")
        for _ in range(rng.randrange(2, 9)):
            self.statement(1, [], 0)
        if self.aliased:
            self.lines.insert(0, "    run = chip")
        # Every allocation is dispatched once at least, so that most programs are valid.
        for a in range(self.allocations):
            self.lines.append(f"    chip(x, v{a}, device={rng.randrange(0, 4)})")
        return "\n".join(head + self.lines) + "\n"


SUPPORT_EXTRA = '''

def key_of(t):
    chip(t, t, device=6)
    return 0
'''


def planned(devices, world):
    """The devices a plan's entry gives in a world of `world` devices."""
    if devices == "all":
        return set(range(world))
    out = set()
    for d in devices:
        if isinstance(d, int):
            out.add(d)
            continue
        stop = d["stop"]
        if isinstance(stop, str):
            rest = stop.replace(" ", "")[len("world_size"):]
            stop = world + (int(rest) if rest else 0)
        out.update(range(d["start"], stop, d["step"]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", required=True, help="the commscope-opt binary")
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--keep", help="write the programs here and keep them")
    ap.add_argument("--show", type=int, default=3, help="failures to print in full")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"python ground truth: seed {seed}, {args.count} programs", flush=True)

    if args.keep:
        shutil.rmtree(os.path.join(args.keep, "programs"), ignore_errors=True)
        failed = check(args, seed, args.keep)
    else:
        with tempfile.TemporaryDirectory(prefix="commscope-pygt-") as work:
            failed = check(args, seed, work)
    sys.exit(1 if failed else 0)


def check(args, seed, work):
    """Writes, analyzes, runs and judges the programs in `work`; returns whether any
    failed."""
    os.makedirs(os.path.join(work, "stub", "pypto", "language"), exist_ok=True)
    os.makedirs(os.path.join(work, "programs"), exist_ok=True)
    with open(os.path.join(work, "stub", "pypto", "__init__.py"), "w") as f:
        f.write("")
    with open(os.path.join(work, "stub", "pypto", "language", "__init__.py"), "w") as f:
        f.write(STUB_LANGUAGE)
    with open(os.path.join(work, "stub", "pypto", "language", "distributed.py"), "w") as f:
        f.write(STUB_DISTRIBUTED)
    programs = os.path.join(work, "programs")
    with open(os.path.join(programs, "gt_support.py"), "w") as f:
        f.write(SIBLING + SUPPORT_EXTRA)
    paths = {}
    for k in range(args.count):
        text = Generator(random.Random(seed + k)).program()
        path = os.path.join(programs, f"p{seed + k}.py")
        with open(path, "w") as f:
            f.write(text)
        paths[path] = seed + k

    analyzed = subprocess.run([args.opt, "--no-config", "--format=json", "--emit=plan", programs],
                              capture_output=True, text=True, check=False)
    if analyzed.returncode not in (0, 1):
        print(analyzed.stderr, file=sys.stderr)
        print(f"commscope-opt failed with status {analyzed.returncode}")
        return True
    plans = {os.path.abspath(f["file"]): f for f in json.loads(analyzed.stdout)["files"]}

    env = dict(os.environ, PYTHONPATH=os.path.join(work, "stub"), PYTHONDONTWRITEBYTECODE="1")
    executed = {}
    order = list(paths)
    for i in range(0, len(order), 100):
        run = subprocess.run([sys.executable, "-c", RUNNER, programs] + order[i:i + 100],
                             capture_output=True, text=True, env=env, check=False, timeout=600)
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            print("the runner failed")
            return True
        executed.update(json.loads(run.stdout))

    counts = {"accepted": 0, "rejected": 0, "exact": 0, "wider": 0}
    codes = {}
    failures = []
    for path, k in paths.items():
        ran = executed[path]
        if "error" in ran:
            failures.append((k, path, f"CPython could not run it: {ran['error']}"))
            continue
        result = plans.get(os.path.abspath(path))
        if result is None:
            failures.append((k, path, "commscope-opt gave no result for it"))
            continue
        errors = [d for d in result["diagnostics"] if d.get("severity", "error") == "error"]
        misread = [d for d in errors if d["code"] == "syntax"]
        if misread:  # CPython ran it
            failures.append((k, path, f"a syntax error where CPython reads the file: "
                             f"line {misread[0].get('line')}: {misread[0]['message']}"))
            continue
        if errors:
            counts["rejected"] += 1
            for d in errors:
                codes[d["code"]] = codes.get(d["code"], 0) + 1
            continue
        counts["accepted"] += 1
        slots = {}
        for program in result["programs"]:
            for fn in program["functions"]:
                if fn["name"] != "host":
                    continue
                for scope in fn["scopes"]:
                    for slot in scope["slots"]:
                        slots[slot["name"]] = scope["devices"]
        exact = True
        problem = None
        for w, record in ran["worlds"].items():
            # A device outside the world faults whatever the plan: such a run is no
            # execution of the program, and the pass may assume the world is larger.
            if any(d < 0 or d >= int(w) for devices in record.values() for d in devices):
                continue
            for index, devices in record.items():
                plan = planned(slots.get(f"a{index}", []), int(w))
                missing = sorted(set(devices) - plan)
                if missing:
                    problem = (f"unsound: allocation a{index} is dispatched on {missing} in a "
                               f"world of {w}, beyond its plan {sorted(plan)}")
                    break
                if set(devices) != plan:
                    exact = False
            if problem:
                break
        if problem:
            failures.append((k, path, problem))
        else:
            counts["exact" if exact else "wider"] += 1

    print(f"accepted {counts['accepted']} (exact {counts['exact']}, wider {counts['wider']}), "
          f"rejected {counts['rejected']}: " +
          ", ".join(f"{c} {n}" for c, n in sorted(codes.items(), key=lambda x: -x[1])))
    for k, path, why in failures[:args.show]:
        print(f"\nseed {k}: {why}\n" + textwrap.indent(open(path).read(), "    "))
    if failures:
        print(f"\n{len(failures)} of {args.count} programs failed (seeds: "
              + ", ".join(str(k) for k, _, _ in failures[:20]) + ")")
        return True
    print("no failure")
    return False


if __name__ == "__main__":
    main()
