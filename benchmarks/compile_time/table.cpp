// Compile-time cost probe: one translation unit holding the compile-time test table
// (tests/compile_time/cases.hpp), every case's plan computed and checked by the compiler.
#include "cases.hpp"

namespace {
template <const auto&... Cases>
constexpr bool all_match(ct_cases::table<Cases...>) {
  return (commscope::compile_time::report<commscope::compile_time::check(
              Cases.program, Cases.expected)>::value &&
          ...);
}
static_assert(all_match(ct_cases::all{}));
} // namespace

int main() { return static_cast<int>(ct_cases::all::size) == 0; }
