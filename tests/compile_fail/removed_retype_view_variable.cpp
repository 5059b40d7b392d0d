// An in-place rewrite whose retype_view takes the variable and the window buffer, which
// the contract no longer reads: the error names the view_spec form.
#include "minimal_ir.hpp"

struct rewriting : commscope::ir_traits<minimal::program> {
  using window_buffer = int;
  static int make_window_buffer(const commscope::window_buffer_spec<rewriting>&) { return 1; }
  static void retype_view(variable, window_buffer) {}
  static void wrap_body(function, std::span<const commscope::scope_spec<rewriting>>) {}
};

int main() {
  minimal::program p;
  const auto diagnostics = commscope::run(p, rewriting{});
  return diagnostics.empty() ? 0 : 1;
}
