// A flag given as an integer: symbolic_device_sets must be a bool.
#include "minimal_ir.hpp"

#include <cstddef>

struct mistyped : commscope::ir_traits<minimal::program> {
  static constexpr int symbolic_device_sets = 1;
};

int main() {
  minimal::program p;
  const auto plan = commscope::analyze(p, mistyped{});
  return plan.ok() ? 0 : 1;
}
