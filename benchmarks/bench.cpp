// The pass at scale against its floors, on two IRs. Cases, each at A allocations:
//
//   traverse/A         floor: every node of the host orchestrator once, through the traits
//   analyze/A          commscope::analyze
//   analyze_hashed/A   the same through an adapter that does not number its variables
//                      (reference_hashed.hpp): the analysis hashes their handles, pointers
//   rebuild/A          floor: a copy of the host orchestrator's body
//   run/A              commscope::analyze + commscope::materialize
//   analyze_materialized/A  commscope::analyze of run's output (its scopes read back)
//   verify/A           commscope::verify of run's output
//
// on the reference IR (shared immutable nodes, rebuilt on rewrite), and
//
//   index_traverse/A   floor: the same walk over the index IR
//   index_analyze/A    commscope::analyze
//   index_analyze_hashed/A  the same through an adapter that does not number its
//                      variables (no variable_index): the analysis hashes their handles
//   index_run/A        commscope::run, which rewrites the module in place
//
// on the same program laid out in the index IR (index_program.hpp: flat arrays, 32-bit
// handles). The index IR's rewrite appends to the module; it is undone after each
// iteration with the timer paused, so that every iteration rewrites the same input.
//
// Counters: items = allocations (items_per_second), bytes = bytes of IR (the program's
// heap footprint, bytes_per_second), ir_B_per_alloc, and peak_B_per_alloc: the peak heap
// the case adds on top of the IR, per allocation, counted by the global operator new
// below. The output program of run/rebuild is freed with the timer paused: both pay the
// same for it, and it is the IR's cost, not the pass's. What index_run appends to the
// module (window buffers, view types, scopes) is in its peak.
//
// Cases are registered size by size so that each program is generated and checked once
// per IR (the pass must succeed and its output verify; in the index IR, its plan must be
// the reference IR's), outside any timing.
#include "floor.hpp"
#include "index_program.hpp"
#include "reference_hashed.hpp"
#include "synthetic.hpp"

#include <commscope/commscope.hpp>
#include <commscope/reference/traits.hpp>

#include <benchmark/benchmark.h>

#include <malloc.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
  program_ptr materialized; ///< the program after run: what a second run or verify reads
};

/// The benchmarks' program shape at a size.
commscope::bench::shape shape_of(std::size_t allocations) { return {allocations, 16, 3}; }

workload& reference_workload() {
  static workload w;
  return w;
}

workload& current(std::size_t allocations, benchmark::State& state) {
  workload& w = reference_workload();
  if (w.allocations == allocations && w.program)
    return w;
  w.program.reset();
  w.materialized.reset();
  const std::size_t before = heap_now;
  w.program = commscope::bench::synthetic_program(shape_of(allocations));
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
    return w;
  }
  w.materialized = std::move(q);
  return w;
}

/// Items, bytes of IR and the two memory counters, of either IR's workload.
template <class Workload>
void counters(benchmark::State& state, const Workload& w, std::size_t peak) {
  const auto a = static_cast<double>(w.allocations);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(w.allocations));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(w.ir_bytes));
  state.counters["ir_B_per_alloc"] = static_cast<double>(w.ir_bytes) / a;
  state.counters["peak_B_per_alloc"] = static_cast<double>(peak) / a;
}

/// Runs `body` once per iteration; returns the highest heap it added over the IR.
template <class Body> std::size_t measured(Body&& body) {
  const std::size_t base = heap_now;
  heap_peak = heap_now;
  body();
  return heap_peak - base;
}

/// Runs `body` once per iteration of `state`; returns the highest heap one run added.
template <class Body> std::size_t peak_over(benchmark::State& state, Body&& body) {
  std::size_t peak = 0;
  for (auto _ : state)
    peak = std::max(peak, measured(body));
  return peak;
}

/// A reference-IR case whose every iteration is `body(w)` on the workload of its size,
/// its peak heap counted.
template <class Body> void on_reference_program(benchmark::State& state, Body&& body) {
  auto& w = current(static_cast<std::size_t>(state.range(0)), state);
  if (!w.program)
    return;
  counters(state, w, peak_over(state, [&] { body(w); }));
}

void bm_traverse(benchmark::State& state) {
  on_reference_program(state, [](const workload& w) {
    benchmark::DoNotOptimize(commscope::bench::traverse<traits>(w.program));
  });
}

void bm_analyze(benchmark::State& state) {
  on_reference_program(state, [](const workload& w) {
    auto plan = commscope::analyze(w.program);
    benchmark::DoNotOptimize(plan.functions.data());
  });
}

/// The analysis recording evidence (`--explain`): what it costs when asked for. Beside
/// `analyze`, which records none, it also shows that not asking costs nothing.
void bm_analyze_evidence(benchmark::State& state) {
  on_reference_program(state, [](const workload& w) {
    auto plan = commscope::analyze(w.program, traits{}, commscope::with_evidence);
    benchmark::DoNotOptimize(plan.functions.data());
  });
}

/// The analysis of the materialized program (its scopes read back, its body walked for
/// allocations no scope lists): what running the pass again on its own output costs.
void bm_analyze_materialized(benchmark::State& state) {
  on_reference_program(state, [](const workload& w) {
    auto plan = commscope::analyze(w.materialized);
    benchmark::DoNotOptimize(plan.functions.data());
  });
}

/// The verifier on the materialized program.
void bm_verify(benchmark::State& state) {
  on_reference_program(state, [](const workload& w) {
    auto diagnostics = commscope::verify(w.materialized);
    benchmark::DoNotOptimize(diagnostics.data());
  });
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

// ---- the index IR ---------------------------------------------------------------------

/// The program of the current size in the index IR, laid out from the reference IR's.
struct index_workload {
  std::size_t allocations = 0;
  bool ready = false;
  commscope::bench::index_program program;
  std::size_t ir_bytes = 0;
  std::size_t domains = 0; ///< what one run wraps the host orchestrator in
  // What the in-place rewrite changes, as it was before: restored after each run.
  std::vector<index_ir::function_node> functions;
  std::size_t statements = 0, lists = 0;
};

template <class V> void release(V& v) { V().swap(v); }

/// Takes back what one run appended to the module.
void undo_rewrite(index_workload& w) {
  auto& m = w.program.module;
  m.statements.resize(w.statements);
  m.lists.resize(w.lists);
  std::copy(w.functions.begin(), w.functions.end(), m.functions.begin());
  release(m.buffers);
  release(m.view_buffer);
  release(m.scopes);
}

/// Whether two plans of one program agree, function by function and allocation by
/// allocation (the traits differ, so handles are not compared).
template <class P, class Q> bool same_plan(const P& p, const Q& q) {
  if (p.functions.size() != q.functions.size() || p.diagnostics.size() != q.diagnostics.size())
    return false;
  for (std::size_t f = 0; f < p.functions.size(); ++f) {
    const auto& x = p.functions[f];
    const auto& y = q.functions[f];
    if (x.allocations.size() != y.allocations.size() || x.views.size() != y.views.size() ||
        x.domains.size() != y.domains.size())
      return false;
    for (std::size_t i = 0; i < x.allocations.size(); ++i)
      if (x.allocations[i].domain != y.allocations[i].domain ||
          x.allocations[i].name != y.allocations[i].name ||
          !(x.allocations[i].devices == y.allocations[i].devices))
        return false;
  }
  return true;
}

/// The README's adapter, whose variables are pointers it does not number: its plan must
/// be the reference IR's own.
void bm_analyze_hashed(benchmark::State& state) {
  auto& w = current(static_cast<std::size_t>(state.range(0)), state);
  if (!w.program)
    return;
  const commscope::bench::reference_hashed_traits t;
  if (!same_plan(commscope::analyze(w.program), commscope::analyze(w.program, t))) {
    state.SkipWithError("the plan through the hashed adapter differs from the reference IR's");
    return;
  }
  counters(state, w, peak_over(state, [&] {
             auto plan = commscope::analyze(w.program, t);
             benchmark::DoNotOptimize(plan.functions.data());
           }));
}

index_workload& current_index(std::size_t allocations, benchmark::State& state) {
  static index_workload w;
  if (w.allocations == allocations && w.ready)
    return w;
  w.ready = false;
  w.program = {};
  w.domains = 0;
  // The program in the reference IR: the reference cases' when this process runs them,
  // else one made for the layout and freed after it, so that a process that runs only
  // the index cases holds one large program, not two.
  const workload& r = reference_workload();
  const program_ptr source = r.allocations == allocations && r.program
                                 ? r.program
                                 : commscope::bench::synthetic_program(shape_of(allocations));
  // Room for a scope statement per domain: 16 device sets, one host orchestrator.
  constexpr std::size_t headroom = 64;
  const std::size_t before = heap_now;
  w.program = commscope::bench::index_layout::of(source, headroom);
  w.ir_bytes = heap_now - before;
  w.allocations = allocations;
  auto& m = w.program.module;
  w.functions = m.functions;
  w.statements = m.statements.size();
  w.lists = m.lists.size();
  // Same plan as in the reference IR, and a clean run whose output verifies.
  const index_ir::traits t{&m};
  {
    const auto plan = commscope::analyze(m, t);
    if (!same_plan(commscope::analyze(source), plan)) {
      state.SkipWithError("the index IR's plan differs from the reference IR's");
      return w;
    }
    for (const auto& fp : plan.functions)
      w.domains += fp.domains.size();
  }
  const auto diagnostics = commscope::run(m, t);
  const bool clean =
      diagnostics.empty() && m.scopes.size() == w.domains && commscope::verify(m, t).empty();
  undo_rewrite(w);
  if (!clean) {
    state.SkipWithError("the synthetic program does not pass cleanly in the index IR");
    return w;
  }
  w.ready = true;
  return w;
}

void bm_index_traverse(benchmark::State& state) {
  auto& w = current_index(static_cast<std::size_t>(state.range(0)), state);
  if (!w.ready)
    return;
  const index_ir::traits t{&w.program.module};
  counters(state, w, peak_over(state, [&] {
             benchmark::DoNotOptimize(commscope::bench::traverse(w.program.module, t));
           }));
}

template <class Traits> void bm_index_analyze(benchmark::State& state) {
  auto& w = current_index(static_cast<std::size_t>(state.range(0)), state);
  if (!w.ready)
    return;
  const Traits t{&w.program.module};
  counters(state, w, peak_over(state, [&] {
             auto plan = commscope::analyze(w.program.module, t);
             benchmark::DoNotOptimize(plan.functions.data());
           }));
}

void bm_index_run(benchmark::State& state) {
  auto& w = current_index(static_cast<std::size_t>(state.range(0)), state);
  if (!w.ready)
    return;
  const index_ir::traits t{&w.program.module};
  std::size_t peak = 0;
  for (auto _ : state) {
    peak = std::max(peak, measured([&] {
                      auto diagnostics = commscope::run(w.program.module, t);
                      benchmark::DoNotOptimize(diagnostics.data());
                    }));
    state.PauseTiming();
    const bool rewrote = w.program.module.scopes.size() == w.domains;
    undo_rewrite(w);
    state.ResumeTiming();
    if (!rewrote) {
      state.SkipWithError("index_run did not rewrite the module");
      break;
    }
  }
  counters(state, w, peak);
}

} // namespace

int main(int argc, char** argv) {
  // glibc gives the top of its heap back to the system once enough of it is free, by
  // thresholds that move with what was freed before: which case ran before another then
  // decided how many pages a case faulted in again (the rewrite at 10^4 allocations
  // measured 6 to 29 ms on a machine where a fault costs microseconds). Fixed thresholds
  // keep freed memory, so that every case and its floor are measured warm alike; a cold
  // single run is what opt_at_scale.sh measures.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  for (std::int64_t a : {1000, 10000, 100000, 1000000}) {
    // One family per case and size, in this order: names come out as "analyze/1000".
    benchmark::RegisterBenchmark("traverse", bm_traverse)->Arg(a);
    benchmark::RegisterBenchmark("analyze", bm_analyze)->Arg(a);
    benchmark::RegisterBenchmark("analyze_evidence", bm_analyze_evidence)->Arg(a);
    benchmark::RegisterBenchmark("analyze_hashed", bm_analyze_hashed)->Arg(a);
    benchmark::RegisterBenchmark("rebuild", bm_rebuild)->Arg(a);
    benchmark::RegisterBenchmark("run", bm_run)->Arg(a);
    benchmark::RegisterBenchmark("analyze_materialized", bm_analyze_materialized)->Arg(a);
    benchmark::RegisterBenchmark("verify", bm_verify)->Arg(a);
    benchmark::RegisterBenchmark("index_traverse", bm_index_traverse)->Arg(a);
    benchmark::RegisterBenchmark("index_analyze", bm_index_analyze<index_ir::traits>)->Arg(a);
    benchmark::RegisterBenchmark("index_analyze_hashed", bm_index_analyze<index_ir::hashed_traits>)
        ->Arg(a);
    benchmark::RegisterBenchmark("index_run", bm_index_run)->Arg(a);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
