import pypto.language as pl

from stages import local_only, fill


@pl.jit.host
def unrelated():
    fill(None, device=0)


if __name__ == "__main__":
    out = local_only()
