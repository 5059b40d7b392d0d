// A traits class that holds its module: the one-argument form would make one with a null
// module behind the caller's back, so it names the two-argument form instead.
#include "minimal_ir.hpp"

struct module_program {
  minimal::program* module = nullptr;
};

template <> struct commscope::ir_traits<module_program> : commscope::ir_traits<minimal::program> {
  using program = module_program;
  const minimal::program* module = nullptr; // state: the module the handles index
  static std::vector<function> functions(const module_program& p) {
    return commscope::ir_traits<minimal::program>::functions(*p.module);
  }
};

int main() {
  module_program p;
  const auto plan = commscope::analyze(p);
  return plan.ok() ? 0 : 1;
}
