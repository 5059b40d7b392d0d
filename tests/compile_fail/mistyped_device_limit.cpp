// An optional constant given with the wrong type is an error naming its type, not a default
// that silently replaces it.
#include "minimal_ir.hpp"

#include <cstddef>

struct mistyped : commscope::ir_traits<minimal::program> {
  static constexpr double device_limit = 4.5;
};

int main() {
  minimal::program p;
  const auto plan = commscope::analyze(p, mistyped{});
  return plan.ok() ? 0 : 1;
}
