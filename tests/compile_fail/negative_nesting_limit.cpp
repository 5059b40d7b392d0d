// An optional constant whose value its type cannot hold (a negative std::size_t) is an
// error, not a wrapped-around limit nor a default.
#include "minimal_ir.hpp"

#include <cstddef>

struct mistyped : commscope::ir_traits<minimal::program> {
  static constexpr int scope_nesting_limit = -1;
};

int main() {
  minimal::program p;
  const auto plan = commscope::analyze(p, mistyped{});
  return plan.ok() ? 0 : 1;
}
