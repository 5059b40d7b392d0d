# Corpus (syntax): an f-string whose closing quote is missing (exit 3).
import pypto.language as pl

N = 4


def report(ids):
    print(f"need {N} devices, got {ids}
    return 1
