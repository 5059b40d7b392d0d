// A test program that uses a variable before binding it does not compile.
#include <commscope/compile_time/builder.hpp>

using namespace commscope::compile_time;

constexpr auto p = program(chip_orchestrator<"chip">(),
                           host_orchestrator<"host">(let<"data">(window(use<"buf">)),
                                                     let<"buf">(alloc(64))));

int main() {}
