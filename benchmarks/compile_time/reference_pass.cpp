// Compile-time cost probe: one translation unit that instantiates the full pass (analyze,
// materialize through run, verify, message formatting) for the reference IR, and nothing
// else: its program comes from program.cpp.
#include <commscope/commscope.hpp>
#include <commscope/reference/traits.hpp>

#include <cstdio>

commscope::reference::program_ptr example_program();

int main() {
  commscope::reference::program_ptr p = example_program();
  const auto diagnostics = commscope::run(p);
  for (const auto& d : diagnostics)
    std::puts(d.message().c_str());
  for (const auto& d : commscope::verify(p))
    std::puts(d.message().c_str());
  return diagnostics.empty() ? 0 : 1;
}
