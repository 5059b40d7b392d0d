# Corpus (syntax): a dedent to a column that matches no outer indentation level, in a
# host orchestrator body (exit 3).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        for r in pl.range(4):
            x = r
          y = 2
        return y
