// A complete analysis adapter (the test-suite's minimal one) used with the rewrite,
// which it does not support: `run` names the missing rewrite hooks.
#include "../minimal_ir.hpp"

int main() {
  minimal::program p;
  (void)commscope::run(p);
}
