// Half of a pair: variable_index without variable_bound is an error, not an adapter
// silently taken to have no dense numbering.
#include "minimal_ir.hpp"

#include <cstddef>

struct mistyped : commscope::ir_traits<minimal::program> {
  std::size_t variable_index(variable) const { return 0; }
};

int main() {
  minimal::program p;
  const auto plan = commscope::analyze(p, mistyped{});
  return plan.ok() ? 0 : 1;
}
