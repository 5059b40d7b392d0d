import pypto.language as pl

import stages
from stages import (
    fill,
    make_alias,
    make_run_only,
)

build = make_alias
STAGES = {"registered": stages.make_registered}


@pl.jit.host
def run_pipeline():
    v = build()
    fill(v, device=1)
    w = STAGES["registered"]()
    fill(w, device=2)


if __name__ == "__main__":
    make_run_only()
    stages.make_run_only()
