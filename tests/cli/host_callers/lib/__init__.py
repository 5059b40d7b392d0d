from .inner import make_inner
from .inner import make_inner_b
