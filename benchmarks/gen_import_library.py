"""Writes a model library of N layer modules and N host files into DIR, for timing
commscope-opt on programs across modules: layer k defines a chip orchestrator and an
inline helper and re-exports the chip orchestrators of layers k-1 and k-2; host k calls
three chip orchestrators, two of them reached through re-exports.

usage: gen_import_library.py DIR [N]"""

import os
import sys

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "config.py"), "w") as f:
    f.write("N_RANKS = 8\nHIDDEN = 1024\nSHARD = HIDDEN // N_RANKS\n")
for k in range(n):
    reexports = "".join(
        f"from layer_{j} import chip_{j}\n" for j in (k - 1, k - 2) if j >= 0
    )
    with open(os.path.join(out, f"layer_{k}.py"), "w") as f:
        f.write(
            "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n"
            f"from config import HIDDEN, SHARD\n{reexports}\n\n"
            f"@pl.jit.inline\ndef helper_{k}(x: pl.Tensor[[1, HIDDEN], pl.FP32]):\n"
            "    return x\n\n\n"
            f"@pl.jit\ndef chip_{k}(\n    x: pl.Tensor[[1, HIDDEN], pl.FP32],\n"
            "    y: pld.DistributedTensor[[1, SHARD], pl.FP32],\n):\n"
            f"    return helper_{k}(x)\n"
        )
for k in range(n):
    a, b = k, max(k - 1, 0)
    with open(os.path.join(out, f"host_{k}.py"), "w") as f:
        f.write(
            "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n"
            f"import config as C\nfrom layer_{a} import chip_{a}\n"
            f"from layer_{min(a + 2, n - 1)} import chip_{a} as again\n"
            f"import layer_{min(b + 1, n - 1)} as L\n\n\n"
            f"@pl.jit.host\ndef host_{k}(x: pl.Tensor[[8, 1, 1024], pl.FP32]):\n"
            "    buf = pld.alloc_window_buffer([1, C.SHARD], dtype=pl.FP32)\n"
            "    for r in pl.range(pld.world_size()):\n"
            "        v = pld.window(buf, [1, C.SHARD], dtype=pl.FP32)\n"
            f"        chip_{a}(x[r], v, device=r)\n"
            "        again(x[r], v, device=r)\n"
            f"        L.chip_{b}(x[r], v, device=r)\n"
        )
