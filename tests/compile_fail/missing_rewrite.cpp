// A complete analysis adapter (the test-suite's minimal one) used with the rewrite,
// which it does not support: `run` names the first missing part of the rewrite layer.
#include "minimal_ir.hpp"

int main() {
  minimal::program p;
  const auto diagnostics = commscope::run(p);
  return diagnostics.empty() ? 0 : 1;
}
