// An optional member whose parameters are wrong is no absent member: the error names the
// call the contract makes, rather than an analysis that silently goes without it.
#include "minimal_ir.hpp"

#include <string>

struct mistyped : commscope::ir_traits<minimal::program> {
  static commscope::control_flow control_of(std::string) { return {}; }
};
int main() {
  minimal::program p;
  const auto plan = commscope::analyze(p, mistyped{});
  return plan.ok() ? 0 : 1;
}
