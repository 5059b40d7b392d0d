// Compile-time cost probe: the includes of reference_pass.cpp and nothing instantiated, the
// floor that reference_pass.cpp is measured against (compile_time.sh prints the ratio).
#include <commscope/commscope.hpp>
#include <commscope/reference/traits.hpp>

#include <cstdio>

int main() { return std::puts("") < 0; }
