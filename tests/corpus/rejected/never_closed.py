# Corpus (syntax): a bracket opened in an ordinary helper and never closed: Python
# points at the opening bracket (exit 3).
import pypto.language as pl

CONFIG = {
    "ranks": 4,
    "sizes": [64, 128,


def main() -> int:
    return 0
