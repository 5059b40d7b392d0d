// Only an if has an else: otherwise(...) on a while loop does not compile.
#include <commscope/compile_time/builder.hpp>

using namespace commscope::compile_time;

constexpr auto p = program(
    chip_orchestrator<"chip">(),
    host_orchestrator<"host">(let<"buf">(alloc(64)), while_loop(1)(eval(0)).otherwise(eval(1))));

int main() {}
