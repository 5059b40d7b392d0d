// The program of the compile-time probe (reference_pass.cpp), built with the checked
// builder in a translation unit of its own: building a program is not the pass, and the
// builder is timed on its own line of compile_time.sh.
#include <commscope/reference/builder.hpp>

commscope::reference::program_ptr example_program() {
  using namespace commscope::reference;
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip");
  auto& h = pb.host_orchestrator("host");
  auto data = h.window("data", h.alloc("buf", 64));
  auto r = h.for_world("r");
  h.dispatch(chip, {data}, r);
  h.end();
  return pb.finish();
}
