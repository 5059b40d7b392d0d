// An adapter that says where nodes are with the names the contract no longer reads
// (statement_location, expression_location): the error names the one it reads.
#include "minimal_ir.hpp"

struct old_names : commscope::ir_traits<minimal::program> {
  struct nothing {};
  static nothing location_of; // hides the base's, as if the adapter never had it
  static location statement_location(statement s) { return s->line; }
  static location expression_location(expression e) { return e->line; }
};

int main() {
  minimal::program p;
  const auto plan = commscope::analyze(p, old_names{});
  return plan.ok() ? 0 : 1;
}
