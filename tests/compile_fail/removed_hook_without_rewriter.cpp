// Traits that declare a rewriter but give a hook that does not take it (once accepted
// too): the hooks take the rewriter exactly when there is one, and the error says so.
#include "minimal_ir.hpp"

struct rewriting : commscope::ir_traits<minimal::program> {
  using window_buffer = int;
  struct rewriter {};
  static rewriter begin_rewrite(program&) { return {}; }
  static void commit(rewriter&, program&) {}
  static int make_window_buffer(const commscope::window_buffer_spec<rewriting>&) { return 1; }
  static void retype_view(rewriter&, const commscope::view_spec<rewriting>&) {}
  static void wrap_body(rewriter&, function, std::span<const commscope::scope_spec<rewriting>>) {}
};

int main() {
  minimal::program p;
  const auto diagnostics = commscope::run(p, rewriting{});
  return diagnostics.empty() ? 0 : 1;
}
