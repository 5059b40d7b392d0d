// An adapter that classifies statements but does not say where they are.
#include <commscope/commscope.hpp>

#include <vector>

struct my_program {
  std::vector<int> functions;
};

template <> struct commscope::ir_traits<my_program> {
  using program = my_program;
  using function = int;
  using statement = int;
  using expression = int;
  using variable = int;
  using location = int;
  static const std::vector<int>& functions(const program& p) { return p.functions; }
  static function_info describe(function) { return {}; }
  static std::vector<int> body(function) { return {}; }
  static statement_kind statement_kind_of(statement) { return statement_kind::other; }
};

int main() {
  my_program p;
  const auto plan = commscope::analyze(p);
  return plan.ok() ? 0 : 1;
}
