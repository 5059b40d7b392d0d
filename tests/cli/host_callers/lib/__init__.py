from .inner import make_inner
