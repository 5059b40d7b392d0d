// location_of for statements, but the old expression_location for expressions, which the
// contract no longer reads: the error names location_of(expression).
#include "minimal_ir.hpp"

struct old_names : commscope::ir_traits<minimal::program> {
  static location location_of(statement s) { return s->line; } // hides the base's two
  static location expression_location(expression e) { return e->line; }
};

int main() {
  minimal::program p;
  const auto plan = commscope::analyze(p, old_names{});
  return plan.ok() ? 0 : 1;
}
