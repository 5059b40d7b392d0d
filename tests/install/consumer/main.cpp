// A project that only knows the installed package: builds a program with the reference
// IR, runs the pass, and checks the result.
#include <commscope/commscope.hpp>
#include <commscope/reference/builder.hpp>
#include <commscope/reference/traits.hpp>

#include <cstdio>

int main() {
  using namespace commscope::reference;
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip_orch");
  auto& h = pb.host_orchestrator("host_orch");
  auto buf = h.alloc("buf", 1024);
  auto data = h.window("data", buf);
  auto r = h.for_world("r");
  h.dispatch(chip, {data}, r);
  h.end();
  program_ptr p = pb.finish();
  const auto diagnostics = commscope::run(p);
  const bool ok = diagnostics.empty() && commscope::verify(p).empty() &&
                  p->functions[1]->body.size() == 1 &&
                  p->functions[1]->body[0]->what == statement::kind::scope;
#if defined(COMMSCOPE_SEPARATE_COMPILATION)
  std::puts(ok ? "consumer (separate core): ok" : "consumer (separate core): FAILED");
#else
  std::puts(ok ? "consumer: ok" : "consumer: FAILED");
#endif
  return ok ? 0 : 1;
}
