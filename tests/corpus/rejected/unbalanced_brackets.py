# Corpus (syntax): a closing parenthesis that does not match the opening bracket,
# in the middle of a formatter-split call inside a host orchestrator (exit 3).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Broken:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer(
            [1, 64,
            dtype=pl.FP32,
        )
        return buf
