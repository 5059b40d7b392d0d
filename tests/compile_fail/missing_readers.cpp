// The minimal adapter has no scope readers: `verify` names the first one missing.
#include "minimal_ir.hpp"

int main() {
  minimal::program p;
  const auto findings = commscope::verify(p);
  return findings.empty() ? 0 : 1;
}
