# Corpus (syntax): a triple-quoted docstring that is never closed; it swallows the
# rest of the file, program included (exit 3).
import pypto.language as pl
import pypto.language.distributed as pld


def helper():
    """Start of a docstring that never ends.

    @pl.program
    class P: ...
    return 0


@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        return 0
