// A dispatch to a function the program does not have does not compile.
#include <commscope/compile_time/builder.hpp>

using namespace commscope::compile_time;

constexpr auto p = program(chip_orchestrator<"chip">(),
                           host_orchestrator<"host">(let<"buf">(alloc(64)),
                                                     let<"data">(window(use<"buf">)),
                                                     dispatch(call<"chip2">(use<"data">), 0)));

int main() {}
