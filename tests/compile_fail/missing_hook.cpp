// An in-place rewrite (no rewriter) that forgot wrap_body: `run` names it.
#include "minimal_ir.hpp"

struct rewriting : commscope::ir_traits<minimal::program> {
  using window_buffer = int;
  static int make_window_buffer(const commscope::window_buffer_spec<rewriting>&) { return 1; }
  static void retype_view(const commscope::view_spec<rewriting>&) {}
};

int main() {
  minimal::program p;
  const auto diagnostics = commscope::run(p, rewriting{});
  return diagnostics.empty() ? 0 : 1;
}
