// The instructions the analysis and its traversal floor execute on one synthetic program,
// in each IR (benchmarks/instructions.sh counts them under callgrind). Unlike a time, a
// count does not move with the machine's load: it shows what a change to the walk does in
// one run, and the ratio analyze/traverse in instructions is the part of the time ratio
// that the code decides (the rest is the memory both wait on).
//
// Each measured call is a function of its own, never inlined, whose name the script
// tells callgrind to count alone; the program is built before and outside them.
#include "floor.hpp"
#include "index_program.hpp"
#include "synthetic.hpp"

#include <commscope/analyze.hpp>
#include <commscope/reference/traits.hpp>
#include <commscope/run.hpp>
#include <commscope/verify.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {
using commscope::reference::program_ptr;
using traits = commscope::ir_traits<program_ptr>;
} // namespace

extern "C" {
[[gnu::noinline]] std::uint64_t commscope_count_traverse(const program_ptr& p) {
  return commscope::bench::traverse<traits>(p);
}
[[gnu::noinline]] std::uint64_t commscope_count_analyze(const program_ptr& p) {
  const auto plan = commscope::analyze(p);
  return plan.functions.size() + plan.diagnostics.size();
}
/// The pass on its own output: the program run materialized, analyzed again, verified.
[[gnu::noinline]] std::uint64_t commscope_count_analyze_materialized(const program_ptr& p) {
  const auto plan = commscope::analyze(p);
  return plan.functions.size() + plan.diagnostics.size();
}
[[gnu::noinline]] std::uint64_t commscope_count_verify(const program_ptr& p) {
  return commscope::verify(p).size();
}
[[gnu::noinline]] std::uint64_t commscope_count_index_traverse(index_ir::module& m) {
  const index_ir::traits t{&m};
  return commscope::bench::traverse(m, t);
}
[[gnu::noinline]] std::uint64_t commscope_count_index_analyze(index_ir::module& m) {
  const index_ir::traits t{&m};
  const auto plan = commscope::analyze(m, t);
  return plan.functions.size() + plan.diagnostics.size();
}
}

int main(int argc, char** argv) {
  const std::size_t allocations = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000;
  if (allocations == 0) {
    std::fputs("usage: commscope_instructions [ALLOCATIONS]\n", stderr);
    return 2;
  }
  // The benchmarks' shape (bench.cpp): 16 device sets, copy chains of 3.
  const program_ptr p = commscope::bench::synthetic_program({allocations, 16, 3});
  auto index = commscope::bench::index_layout::of(p, 64);
  // Both IRs hold one valid program: an analysis that reported anything measured
  // something else.
  const std::uint64_t plans =
      commscope_count_analyze(p) + commscope_count_index_analyze(index.module);
  program_ptr materialized = p;
  const bool clean = commscope::run(materialized).empty() && materialized != p;
  const std::uint64_t again =
      commscope_count_analyze_materialized(materialized) + commscope_count_verify(materialized);
  const std::uint64_t sums =
      commscope_count_traverse(p) + commscope_count_index_traverse(index.module);
  std::printf("%zu allocations: %llu plans, checksum %llu\n", allocations,
              static_cast<unsigned long long>(plans), static_cast<unsigned long long>(sums));
  // The materialized program: one plan, no finding of the analysis or the verifier.
  return plans == 2 && clean && again == 1 ? 0 : 1;
}
