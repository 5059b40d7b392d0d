"""Re-exports a key, and binds every name of ranks."""
from .ranks import *  # noqa: F403
from .ranks import by_rank as ordered  # noqa: F401
