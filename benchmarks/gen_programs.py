#!/usr/bin/env python3
"""Generate one file of N small @pl.program classes.

Usage: gen_programs.py N

Each program has a chip orchestrator `step` and a host orchestrator `host` that
allocates one window, reshapes its view with a module-level shape, and dispatches it on
device i % 8: many programs of one file, whose methods share their names. Deterministic.
"""

from __future__ import annotations

import sys


def main() -> None:
    n = int(sys.argv[1])
    out = [
        "import pypto.language as pl",
        "import pypto.language.distributed as pld",
        "",
        "SHAPE = [8, 8]",
        "",
    ]
    for i in range(n):
        out += [
            "",
            "@pl.program",
            f"class Program{i}:",
            "    @pl.function(type=pl.FunctionType.Orchestration)",
            "    def step(self, v):",
            "        return v",
            "",
            "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)",
            "    def host(self, x):",
            "        buf = pld.alloc_window_buffer(256)",
            "        v = pld.window(buf, [64], dtype=pl.FP32)",
            f"        self.step(v.reshape(SHAPE), device={i % 8})",
            "",
        ]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
