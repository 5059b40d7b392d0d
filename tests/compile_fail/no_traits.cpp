// A program type nobody adapted: the entry point names the missing specialization.
#include <commscope/commscope.hpp>

struct my_program {};

int main() {
  my_program p;
  (void)commscope::analyze(p);
}
