#!/usr/bin/env python3
"""Writes a large program for timing commscope-opt (the front end's speed).

N allocations, N views (2N statements) and N dispatches in one host orchestrator:
dispatch i targets device i % 8, or every device when i % 8 == 7 (inside a world loop),
so the plan has eight comm domains.

usage: gen_large.py [N] > large.py; time commscope-opt large.py > /dev/null
"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
out = sys.stdout
out.write("import pypto.language as pl\nimport pypto.language.distributed as pld\n\n\n")
out.write("@pl.program\nclass Large:\n")
out.write("    @pl.function(type=pl.FunctionType.Orchestration)\n")
out.write("    def chip(self, x):\n        return x\n\n")
out.write("    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n")
out.write("    def host(self):\n")
for i in range(n):
    out.write(f"        b{i} = pld.alloc_window_buffer({i + 1} * pl.FP32.get_byte())\n")
    out.write(f"        v{i} = pld.window(b{i}, [{i + 1}], dtype=pl.FP32)\n")
out.write("        for r in pl.range(pld.world_size()):\n")
for i in range(7, n, 8):
    out.write(f"            self.chip(v{i}, device=r)\n")
for i in range(n):
    if i % 8 != 7:
        out.write(f"        self.chip(v{i}, device={i % 8})\n")
out.write("        return 0\n")
