// An operation with the wrong number of arguments does not compile (write
// malformed<operation::allreduce>(...) to test the pass's malformed-op on purpose).
#include <commscope/compile_time/builder.hpp>

using namespace commscope::compile_time;

constexpr auto p = program(chip_orchestrator<"chip">(),
                           host_orchestrator<"host">(let<"buf">(alloc(64)),
                                                     let<"data">(window(use<"buf">)),
                                                     eval(allreduce(use<"data">))));

int main() {}
