// The MLIR adapter at scale: the pass's time per item against the floor of
// parsing and printing the same module, in one run. Cases, each at N items:
//
//   allocations/N      N allocations, each with a view and a dispatch on one of 16
//                      constant devices: 16 domains, so per allocation
//   chip_functions/N   N chip orchestrators, each dispatched once by the host: the
//                      callee lookup and the dispatch walk, so per chip function
//
// Each iteration parses the module and prints it (the floor, timed apart), then runs
// the pass (materialize_module: analysis, report, rewrite; the manual time). Counters:
// pass_ns and floor_ns per item, and their ratio. Flat per item from 1,000 to 100,000
// means no quadratic term.
#include "pass.hpp" // tools/mlir/lib: what the passes run
#include <commscope/mlir/dialect.hpp>

#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/Dialect/SCF/IR/SCF.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/Parser/Parser.h>

#include <llvm/Support/raw_ostream.h>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace {

std::string allocations(std::int64_t n) {
  std::string s =
      "func.func private @chip(tensor<64xf32>) attributes {pld.level = \"chip\", pld.role = "
      "\"orchestrator\"}\nfunc.func @host() attributes {pld.level = \"host\", pld.role = "
      "\"orchestrator\"} {\n  %c64 = arith.constant 64 : index\n";
  for (int d = 0; d < 16; ++d)
    s += "  %d" + std::to_string(d) + " = arith.constant " + std::to_string(d) + " : index\n";
  for (std::int64_t i = 0; i < n; ++i) {
    const std::string k = std::to_string(i);
    s += "  %a" + k + " = pld.alloc_window_buffer(%c64) {name = \"a" + k +
         "\"} : (index) -> i64\n  %v" + k + " = pld.window(%a" + k +
         ", %c64) : (i64, index) -> tensor<64xf32>\n  pld.dispatch @chip(%d" +
         std::to_string(i % 16) + ", %v" + k + ") : (index, tensor<64xf32>) -> ()\n";
  }
  return s + "  return\n}\n";
}

std::string chip_functions(std::int64_t n) {
  std::string s;
  for (std::int64_t i = 0; i < n; ++i)
    s += "func.func private @chip" + std::to_string(i) +
         "(tensor<64xf32>) attributes {pld.level = \"chip\", pld.role = \"orchestrator\"}\n";
  s += "func.func @host() attributes {pld.level = \"host\", pld.role = \"orchestrator\"} {\n"
       "  %c0 = arith.constant 0 : index\n  %c64 = arith.constant 64 : index\n"
       "  %a = pld.alloc_window_buffer(%c64) {name = \"a\"} : (index) -> i64\n"
       "  %v = pld.window(%a, %c64) : (i64, index) -> tensor<64xf32>\n";
  for (std::int64_t i = 0; i < n; ++i)
    s += "  pld.dispatch @chip" + std::to_string(i) + "(%c0, %v) : (index, tensor<64xf32>) -> ()\n";
  return s + "  return\n}\n";
}

using clock_type = std::chrono::steady_clock;

template <std::string (*Generate)(std::int64_t)> void run(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const std::string text = Generate(n);
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect, mlir::scf::SCFDialect,
                  commscope::pld::dialect>();
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  double pass_s = 0, floor_s = 0;
  for (auto _ : state) {
    const auto t0 = clock_type::now();
    auto module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    std::string printed;
    llvm::raw_string_ostream os(printed);
    module->print(os);
    const auto t1 = clock_type::now();
    commscope::pld::counts counts;
    bool changed = false;
    const bool ok = commscope::pld::materialize_module(*module, {}, counts, changed);
    const auto t2 = clock_type::now();
    if (!ok || !changed)
      state.SkipWithError("the pass did not rewrite the module");
    benchmark::DoNotOptimize(printed.data());
    const double floor = std::chrono::duration<double>(t1 - t0).count();
    const double pass = std::chrono::duration<double>(t2 - t1).count();
    state.SetIterationTime(pass);
    floor_s += floor;
    pass_s += pass;
  }
  const double items = static_cast<double>(n) * static_cast<double>(state.iterations());
  state.counters["pass_ns"] = pass_s * 1e9 / items;
  state.counters["floor_ns"] = floor_s * 1e9 / items;
  state.counters["ratio"] = pass_s / floor_s;
}

void sizes(benchmark::internal::Benchmark* b) {
  b->UseManualTime()->Unit(benchmark::kMillisecond);
  b->Arg(1000)->Arg(10000)->Arg(100000);
}

BENCHMARK(run<allocations>)->Name("allocations")->Apply(sizes);
BENCHMARK(run<chip_functions>)->Name("chip_functions")->Apply(sizes);

} // namespace

BENCHMARK_MAIN();
