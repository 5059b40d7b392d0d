#!/usr/bin/env python3
"""Generate a model library for the several-inputs benchmark of commscope-opt.

Usage: gen_library.py DIR [MODULES [HELPERS]]   (defaults: 300 modules, 40 helpers each)

Writes MODULES Python modules under DIR, in the users' style: a `config.py` of constants,
then per-layer packages (`layers_K/`, with `__init__.py`) of modules that each hold a
`@pl.jit` chip orchestrator, an `@pl.jit.inline` helper and a `@pl.jit.host`
orchestrator with a few window buffers dispatched over the world and over constant
ranges, plain Python around them (docstrings, a class, HELPERS helper functions with
comprehensions, lambdas and f-strings, a `main()`: about 500 lines a module). The
output is the same for the same arguments.
"""

from __future__ import annotations

import pathlib
import random
import sys

MODULE = '''"""Layer {name}: generated for the commscope-opt benchmark."""
import pypto.language as pl
import pypto.language.distributed as pld

HIDDEN = {hidden}
RANKS = {ranks}


class {cls}Config:
    """Plain Python the front end skips."""

    def __init__(self, scale: float = {scale}) -> None:
        self.scale = scale
        self.table = {{k: v * scale for k, v in enumerate(range({hidden} // 8))}}

    @property
    def label(self) -> str:
        return f"{{self.scale:.3f}}-{name}"


@pl.jit.inline
def {name}_tile(x: pl.Tensor[[1, HIDDEN], pl.FP32]):
    return x


@pl.jit
def {name}_chip(
    x: pl.Tensor[[1, HIDDEN], pl.FP32],
    data: pld.DistributedTensor[[1, HIDDEN], pl.FP32],
):
    y = {name}_tile(x)
    return data


@pl.jit.host
def {name}_host(x: pl.Tensor[[RANKS, 1, HIDDEN], pl.FP32]):
{body}

{filler}
def main() -> int:
    cfg = {cls}Config()
    print(cfg.label, [i * i for i in range(4) if i % 2])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
'''


HELPER = '''
def {name}_helper_{k}(values: list[float], *, scale: float = {scale}) -> dict[str, float]:
    """Ordinary Python between the DSL functions: read only for its block structure."""
    table = {{f"v{{i:03d}}": v * scale for i, v in enumerate(values) if v > {k}}}
    total = sum(
        value
        for key, value in sorted(table.items(), key=lambda kv: (kv[1], kv[0]))
        if not key.endswith("7")
    )
    if total > {limit}:
        raise ValueError(f"{{total=:.2f}} above {limit} in {name}_helper_{k}")
    return {{"total": total, "count": float(len(table)), "max": max(table.values(), default=0.0)}}

'''


def filler(rng: random.Random, name: str, helpers: int) -> str:
    return "".join(HELPER.format(name=name, k=k, scale=round(rng.random(), 3),
                                 limit=rng.randint(100, 10_000)) for k in range(helpers))


def host_body(rng: random.Random, name: str) -> str:
    lines = []
    for b in range(rng.randint(2, 5)):
        buf = f"{name}_buf{b}"
        lines.append(f"    {buf} = pld.alloc_window_buffer([1, HIDDEN], dtype=pl.FP32)")
        lines.append(f"    v{b} = pld.window({buf}, [1, HIDDEN], dtype=pl.FP32)")
        if b % 2 == 0:
            lines.append("    for r in pl.range(pld.world_size()):")
        else:
            lines.append(f"    for r in pl.range(0, {rng.randint(1, 8)}):")
        lines.append(f"        {name}_chip(x[r], v{b}, device=r)")
    lines.append("    return 0")
    return "\n".join(lines) + "\n"


def main() -> None:
    root = pathlib.Path(sys.argv[1])
    modules = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    helpers = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    rng = random.Random(22)
    root.mkdir(parents=True, exist_ok=True)
    (root / "config.py").write_text("N_RANKS = 8\nHIDDEN = 1024\n")
    written = 1
    package = 0
    while written < modules:
        pkg = root / f"layers_{package:02d}"
        pkg.mkdir(exist_ok=True)
        (pkg / "__init__.py").write_text('"""A package of layers."""\n')
        written += 1
        for k in range(min(20, modules - written)):
            name = f"layer_{package:02d}_{k:02d}"
            text = MODULE.format(name=name, cls=name.title().replace("_", ""),
                                 hidden=64 * rng.randint(1, 16), ranks=rng.choice([2, 4, 8]),
                                 scale=round(rng.random(), 3), body=host_body(rng, name),
                                 filler=filler(rng, name, helpers))
            (pkg / f"{name}.py").write_text(text)
            written += 1
        package += 1


if __name__ == "__main__":
    main()
