# Re-exports a host of stages under its own name.
from stages import make_relay
