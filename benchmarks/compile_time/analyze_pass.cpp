// Compile-time cost probe: the analysis alone for the reference IR (`analyze`, no `run`,
// no `verify`), which compile_parts.sh cuts down part by part.
#include <commscope/commscope.hpp>
#include <commscope/reference/traits.hpp>

commscope::reference::program_ptr example_program();

int main() {
  const commscope::reference::program_ptr p = example_program();
  return commscope::analyze(p).ok() ? 0 : 1;
}
