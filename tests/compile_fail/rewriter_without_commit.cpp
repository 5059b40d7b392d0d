// Traits that declare a rewriter but forgot commit: the error names the pair of members a
// rewriter comes with, rather than every hook that takes it.
#include "minimal_ir.hpp"

struct rewriting : commscope::ir_traits<minimal::program> {
  using window_buffer = int;
  struct rewriter {};
  static rewriter begin_rewrite(program&) { return {}; }
  static int make_window_buffer(rewriter&, const commscope::window_buffer_spec<rewriting>&) {
    return 1;
  }
  static void retype_view(rewriter&, const commscope::view_spec<rewriting>&) {}
  static void wrap_body(rewriter&, function, std::span<const commscope::scope_spec<rewriting>>) {}
};

int main() {
  minimal::program p;
  const auto diagnostics = commscope::run(p, rewriting{});
  return diagnostics.empty() ? 0 : 1;
}
