// A program type nobody adapted: the entry point names the missing specialization.
#include <commscope/commscope.hpp>

struct my_program {};

int main() {
  my_program p;
  const auto plan = commscope::analyze(p);
  return plan.ok() ? 0 : 1;
}
