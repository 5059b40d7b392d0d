// Signal synthesis on the reference IR in a translation unit that did not include the
// printer (a pass-only TU does not parse it): one error, naming the header to include.
#include <commscope/commscope.hpp>
#include <commscope/reference/traits.hpp>

int main() {
  commscope::reference::program_ptr p;
  const auto diagnostics =
      commscope::synthesize_signals(p, commscope::ir_traits<commscope::reference::program_ptr>{});
  return diagnostics.empty() ? 0 : 1;
}
