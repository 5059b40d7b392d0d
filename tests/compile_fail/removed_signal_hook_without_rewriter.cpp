// Traits that declare a signal rewriter but whose insert_signal does not take it (once
// accepted too): the error names the form with the rewriter.
#include "minimal_ir.hpp"

#include <string_view>
#include <vector>

struct signalling : commscope::ir_traits<minimal::program> {
  struct signal_rewriter {};
  static std::vector<std::string_view> names_in_use(const program&) { return {}; }
  static signal_rewriter begin_signals(program&) { return {}; }
  static void commit_signals(signal_rewriter&, program&) {}
  static void insert_signal(const commscope::signal_spec<signalling>&) {}
};

int main() {
  minimal::program p;
  const auto diagnostics = commscope::synthesize_signals(p, signalling{});
  return diagnostics.empty() ? 0 : 1;
}
