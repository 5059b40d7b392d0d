// device= on something that is not a call of a program function does not compile.
#include <commscope/compile_time/builder.hpp>

using namespace commscope::compile_time;

constexpr auto p = program(chip_orchestrator<"chip">(),
                           host_orchestrator<"host">(let<"buf">(alloc(64)),
                                                     let<"data">(window(use<"buf">)),
                                                     dispatch(use<"data">, 0)));

int main() {}
