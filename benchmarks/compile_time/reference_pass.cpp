// Compile-time cost probe: one translation unit that instantiates the full pass (analyze,
// materialize through run, verify, message formatting) for the reference IR.
#include <commscope/commscope.hpp>
#include <commscope/reference/builder.hpp>
#include <commscope/reference/traits.hpp>

#include <cstdio>

int main() {
  using namespace commscope::reference;
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip");
  auto& h = pb.host_orchestrator("host");
  auto data = h.window("data", h.alloc("buf", 64));
  auto r = h.for_world("r");
  h.dispatch(chip, {data}, r);
  h.end();
  program_ptr p = pb.finish();
  const auto diagnostics = commscope::run(p);
  for (const auto& d : diagnostics)
    std::puts(d.message().c_str());
  for (const auto& d : commscope::verify(p))
    std::puts(d.message().c_str());
  return diagnostics.empty() ? 0 : 1;
}
