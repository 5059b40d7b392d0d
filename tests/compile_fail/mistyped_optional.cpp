// An optional member given with the wrong type: an error saying what it must return,
// rather than an analysis that silently goes without it.
#include "minimal_ir.hpp"

#include <vector>

struct mistyped : commscope::ir_traits<minimal::program> {
  static std::vector<int> values(statement) { return {}; } // not expressions
};

int main() {
  minimal::program p;
  const auto plan = commscope::analyze(p, mistyped{});
  return plan.ok() ? 0 : 1;
}
