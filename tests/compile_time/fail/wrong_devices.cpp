// A wrong expectation is a build error: the program runs on device 3, not 4.
#include <commscope/compile_time/expect.hpp>

using namespace commscope::compile_time;

constexpr auto p = program(chip_orchestrator<"chip">(),
                           host_orchestrator<"host">(let<"buf">(alloc(64)),
                                                     let<"data">(window(use<"buf">)),
                                                     dispatch(call<"chip">(use<"data">), 3)));
constexpr expectation e{.domains = {{"4", {"buf"}}}, .views = {{"data", "buf"}}};
static_assert(matches<p, e>);

int main() {}
