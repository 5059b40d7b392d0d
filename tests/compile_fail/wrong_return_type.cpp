// A member that exists with the wrong type: the message says what it must return (and the
// compiler's note what it returns), instead of asking to add it.
#include "minimal_ir.hpp"

struct wrong_traits : commscope::ir_traits<minimal::program> {
  static int describe(function) { return 0; } // not a function_info
};

int main() {
  minimal::program p;
  const auto plan = commscope::analyze(p, wrong_traits{});
  return plan.ok() ? 0 : 1;
}
