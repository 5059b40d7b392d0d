// A wrong expectation is a build error: range(1, world_size()) is partial-world-range,
// not unsupported-device.
#include <commscope/compile_time/expect.hpp>

using namespace commscope::compile_time;

constexpr auto p = program(
    chip_orchestrator<"chip">(),
    host_orchestrator<"host">(
        let<"buf">(alloc(64)), let<"data">(window(use<"buf">)),
        for_range<"r">(1, world_size())(dispatch(call<"chip">(use<"data">), use<"r">))));
constexpr expectation e{.views = {{"data", "buf"}}, .diagnostics = {"unsupported-device"}};
static_assert(matches<p, e>);

int main() {}
