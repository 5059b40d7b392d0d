import pypto.language as pl
import pypto.language.distributed as pld

import stages as st


@pl.jit.host
def run_attribute():
    p = st.make_pointer()
    w = pld.window(p, [64], dtype=pl.FP32)
    st.fill(w, device=2)
