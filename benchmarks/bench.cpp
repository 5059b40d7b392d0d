// The pass at scale against its floors. Cases, each at A allocations:
//
//   traverse/A   floor: every node of the host orchestrator once, through the traits
//   analyze/A    commscope::analyze
//   rebuild/A    floor: a copy of the host orchestrator's body
//   run/A        commscope::analyze + commscope::materialize
//
// Counters: items = allocations (items_per_second), bytes = bytes of IR (the program's
// heap footprint, bytes_per_second), ir_B_per_alloc, and peak_B_per_alloc: the peak heap
// the case adds on top of the IR, per allocation, counted by the global operator new
// below. The output program of run/rebuild is freed with the timer paused: both pay the
// same for it, and it is the IR's cost, not the pass's.
//
// Cases are registered size by size so that each program is generated once and checked
// once (the pass must succeed and its output verify), outside any timing.
#include "floor.hpp"
#include "synthetic.hpp"

#include <commscope/commscope.hpp>
#include <commscope/reference/traits.hpp>

#include <benchmark/benchmark.h>

#include <malloc.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <new>
#include <vector>

// ---- heap accounting ----------------------------------------------------------------
// Single-threaded benchmarks: plain counters suffice. malloc_usable_size keeps new and
// delete symmetric without a header in front of every block.
namespace {
std::size_t heap_now = 0;
std::size_t heap_peak = 0;

void* counted_alloc(std::size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (!p)
    throw std::bad_alloc();
  heap_now += malloc_usable_size(p);
  if (heap_now > heap_peak)
    heap_peak = heap_now;
  return p;
}
void counted_free(void* p) noexcept {
  if (!p)
    return;
  heap_now -= malloc_usable_size(p);
  std::free(p);
}
} // namespace

void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }

namespace {

using commscope::reference::program_ptr;
using traits = commscope::ir_traits<program_ptr>;

/// The program of the current size; replaced (not accumulated) when the size changes,
/// so that the million-allocation program is the only large one alive.
struct workload {
  std::size_t allocations = 0;
  program_ptr program;
  std::size_t ir_bytes = 0;
  const commscope::reference::function* host = nullptr;
};

workload& current(std::size_t allocations, benchmark::State& state) {
  static workload w;
  if (w.allocations == allocations && w.program)
    return w;
  w.program.reset();
  const std::size_t before = heap_now;
  w.program = commscope::bench::synthetic_program({allocations, 16, 3});
  w.ir_bytes = heap_now - before;
  w.allocations = allocations;
  for (const auto& f : w.program->functions)
    if (f->sig->info().is_host_orchestrator())
      w.host = f.get();
  // The pass must succeed on it, else the numbers mean nothing.
  program_ptr q = w.program;
  const auto diagnostics = commscope::run(q);
  if (!diagnostics.empty() || q == w.program || !commscope::verify(q).empty()) {
    state.SkipWithError("the synthetic program does not pass cleanly");
    w.program.reset();
  }
  return w;
}

void counters(benchmark::State& state, const workload& w, std::size_t peak) {
  const auto a = static_cast<double>(w.allocations);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(w.allocations));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(w.ir_bytes));
  state.counters["ir_B_per_alloc"] = static_cast<double>(w.ir_bytes) / a;
  state.counters["peak_B_per_alloc"] = static_cast<double>(peak) / a;
}

/// Runs `body` once per iteration; returns the highest heap it added over the IR.
template <class Body>
std::size_t measured(Body&& body) {
  const std::size_t base = heap_now;
  heap_peak = heap_now;
  body();
  return heap_peak - base;
}

void bm_traverse(benchmark::State& state) {
  auto& w = current(static_cast<std::size_t>(state.range(0)), state);
  if (!w.program)
    return;
  std::size_t peak = 0;
  for (auto _ : state)
    peak = std::max(peak, measured([&] {
                      benchmark::DoNotOptimize(commscope::bench::traverse<traits>(w.program));
                    }));
  counters(state, w, peak);
}

void bm_analyze(benchmark::State& state) {
  auto& w = current(static_cast<std::size_t>(state.range(0)), state);
  if (!w.program)
    return;
  std::size_t peak = 0;
  for (auto _ : state)
    peak = std::max(peak, measured([&] {
                      auto plan = commscope::analyze(w.program);
                      benchmark::DoNotOptimize(plan.functions.data());
                    }));
  counters(state, w, peak);
}

void bm_rebuild(benchmark::State& state) {
  auto& w = current(static_cast<std::size_t>(state.range(0)), state);
  if (!w.program)
    return;
  std::size_t peak = 0;
  for (auto _ : state) {
    commscope::bench::rebuilt copy;
    peak = std::max(peak, measured([&] { copy = commscope::bench::rebuild(w.host->body); }));
    benchmark::DoNotOptimize(copy.data());
    state.PauseTiming();
    copy = {};
    state.ResumeTiming();
  }
  counters(state, w, peak);
}

void bm_run(benchmark::State& state) {
  auto& w = current(static_cast<std::size_t>(state.range(0)), state);
  if (!w.program)
    return;
  std::size_t peak = 0;
  for (auto _ : state) {
    program_ptr q = w.program;
    peak = std::max(peak, measured([&] {
                      auto diagnostics = commscope::run(q);
                      benchmark::DoNotOptimize(diagnostics.data());
                    }));
    state.PauseTiming();
    q.reset();
    state.ResumeTiming();
  }
  counters(state, w, peak);
}

} // namespace

int main(int argc, char** argv) {
  for (std::int64_t a : {1000, 10000, 100000, 1000000}) {
    // One family per case and size, in this order: names come out as "analyze/1000".
    benchmark::RegisterBenchmark("traverse", bm_traverse)->Arg(a);
    benchmark::RegisterBenchmark("analyze", bm_analyze)->Arg(a);
    benchmark::RegisterBenchmark("rebuild", bm_rebuild)->Arg(a);
    benchmark::RegisterBenchmark("run", bm_run)->Arg(a);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
