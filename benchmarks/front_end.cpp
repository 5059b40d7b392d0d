// The whole-file front end on large generated modules: mostly ordinary Python (what a
// real file is), a few DSL programs. Reports bytes per second of tokenizing alone, of
// reading the module (tokenize + block structure + the DSL's bodies), and of the whole
// job (reading, then the pass on every program and the source-preserving output).
//
// bm_allocs/N is the other extreme: one host orchestrator with N allocations (the module
// benchmarks/gen_allocs.py writes, made here in memory), read, analyzed, rewritten and
// printed as the plan's sizes; items are allocations. benchmarks/opt_at_scale.sh runs
// commscope-opt itself on such files (200,000 and 1,000,000 allocations).
//
//   build/benchmarks/commscope_bench_front_end --benchmark_filter=/100000$
#include "tokens.hpp"

#include <commscope/commscope.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/reference/traits.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace ref = commscope::reference;
namespace fe = commscope::frontend;

namespace {

/// About `lines` lines of formatter-style Python with a DSL program every ~20,000 lines.
std::string make_module(std::size_t lines) {
  std::string out = R"py(#!/usr/bin/env python3
"""A large module: helpers, test classes, a main(), and a few programs."""
from __future__ import annotations

import argparse
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256
STAGE_CHUNK = 8192
)py";
  std::size_t n = 12;
  for (std::size_t k = 0; n < lines; ++k) {
    const std::string id = std::to_string(k);
    if (k % 400 == 5) {
      out += R"py(

def build_)py" +
             id + R"py((nr, sz):
    @pl.program
    class Ring)py" +
             id + R"py(:
        @pl.function(type=pl.FunctionType.Orchestration)
        def per_rank(
            self,
            x: pl.Tensor[[1, SIZE], pl.FP32],
            data: pld.DistributedTensor[[1, SIZE], pl.FP32],
        ) -> pl.Tensor[[1, SIZE], pl.FP32]:
            return data

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[nr, 1, SIZE], pl.FP32]):
            data_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
            stage = pld.alloc_window_buffer(STAGE_CHUNK, name="stage_)py" +
             id + R"py(")
            sig = pld.window(sig_buf, [pld.world_size()], dtype=pl.INT32)
            part = pld.window(stage, [STAGE_CHUNK], dtype=pl.UINT8)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
                self.per_rank(x[r], data, device=r)
            data = pld.tensor.allreduce(data, sig)
            for d in pl.range(0, 4):
                self.per_rank(x[d], part, device=d)
            return data

    return Ring)py" +
             id + R"py(
)py";
      n += 34;
      continue;
    }
    out += R"py(

class Helper)py" +
           id + R"py((object):
    """Docstring of helper )py" +
           id + R"py( with 'quotes' and "more"."""

    table: dict[str, int] = {"alpha": 1, "beta": 0x2F, "gamma": 1_000, 'delta': 3.5e-2}

    def __init__(self, name: str, *args, width: int = 8, **kwargs) -> None:
        self.name = name
        self.values = [v * 2 for v in args if v % 3 != 0]
        self.lookup = {k: (v, len(k)) for k, v in kwargs.items()}
        self.width = width  # a trailing comment

    @property
    def label(self) -> str:
        return f"{self.name!r:>{self.width}} -> {sum(self.values):_d} ({len(self.lookup)})"

    def run(
        self,
        steps: int,
        callback=lambda x, y=2: x ** y,
    ) -> list[int]:
        result = []
        for i in range(steps):
            if i % 2 == 0 and not self.values:
                result.append(callback(i))
            elif i in self.lookup or i is None:
                continue
            else:
                result += [i << 1, i >> 1, ~i & 0xFF | 1]
        return sorted(result, key=lambda r: (-r, str(r)))


def check_)py" +
           id + R"py((helper: Helper)py" + id + R"py() -> bool:
    assert helper.run(4), (
        "helper " + helper.name + " produced nothing"
    )
    return all(x >= 0 for x in helper.run(3)) or any(
        y for y in helper.values
    )
)py";
    n += 42;
  }
  out += R"py(

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=SIZE)
    args = parser.parse_args()
    print(f"{args.size=}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
)py";
  return out;
}

/// benchmarks/gen_allocs.py N, byte for byte: one host orchestrator, N allocations with
/// a view and a dispatch each (every 25th dispatched inside a world loop).
std::string allocs_module(std::size_t n) {
  static constexpr std::pair<const char*, int> dtypes[] = {
      {"FP32", 4}, {"FP16", 2}, {"INT32", 4}, {"BF16", 2}, {"INT8", 1}};
  std::string out = "# Generated by benchmarks/gen_allocs.py: one host orchestrator with many "
                    "allocations.\n"
                    "import pypto.language as pl\n"
                    "import pypto.language.distributed as pld\n"
                    "\n"
                    "SIZE = 64\n"
                    "\n"
                    "\n"
                    "@pl.program\n"
                    "class ManyAllocs:\n"
                    "    @pl.function(type=pl.FunctionType.Orchestration)\n"
                    "    def per_rank(self, data):\n"
                    "        return data\n"
                    "\n"
                    "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
                    "    def host(self):\n";
  out.reserve(200 * n + out.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::string id = std::to_string(i);
    const std::string dtype = dtypes[i % 5].first;
    if (i % 3 == 0)
      out += "        buf_" + id + " = pld.alloc_window_buffer([1, SIZE], dtype=pl." + dtype + ")\n";
    else
      out += "        buf_" + id + " = pld.alloc_window_buffer(" + std::to_string(16 + i % 7) +
             " * pl." + dtype + ".get_byte())\n";
    out += "        view_" + id + " = pld.window(buf_" + id + ", [1, SIZE], dtype=pl." + dtype + ")\n";
    if (i % 25 == 24)
      out += "        for r in pl.range(pld.world_size()):\n"
             "            self.per_rank(view_" + id + ", device=r)\n";
    else
      out += "        self.per_rank(view_" + id + ", device=" + std::to_string(i % 100) + ")\n";
  }
  if (n == 0)
    out += "        pass\n";
  out += "        return 0\n";
  return out;
}

const std::string& module_of(std::size_t lines) {
  static std::size_t cached_lines = 0;
  static std::string cached;
  if (cached_lines != lines) {
    cached = make_module(lines);
    cached_lines = lines;
  }
  return cached;
}

void report(benchmark::State& state, const std::string& text) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(text.size()));
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}

void bm_tokenize(benchmark::State& state) {
  const auto& text = module_of(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto ts = fe::detail::tokenize(text);
    benchmark::DoNotOptimize(ts.tokens.data());
  }
  report(state, text);
}

void bm_read_module(benchmark::State& state) {
  const auto& text = module_of(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto m = fe::parse_module(text);
    if (m.error || m.programs.empty())
      state.SkipWithError("the generated module does not read");
    benchmark::DoNotOptimize(m.programs.data());
  }
  report(state, text);
}

void bm_whole_job(benchmark::State& state) {
  const auto& text = module_of(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto m = fe::parse_module(text);
    std::size_t domains = 0;
    for (const auto& unit : m.programs) {
      ref::program_ptr p = unit.program;
      const auto pl = commscope::analyze(p);
      if (!pl.ok())
        state.SkipWithError("a generated program is rejected");
      commscope::materialize(p, pl);
      for (const auto& f : pl.functions)
        domains += f.domains.size();
      for (const auto& fn : p->functions) {
        std::string body;
        fe::print_statements(body, *p, fn->body, "        ", "\n");
        benchmark::DoNotOptimize(body.data());
      }
    }
    benchmark::DoNotOptimize(domains);
  }
  report(state, text);
}

void bm_allocs(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  static std::size_t cached_n = 0;
  static std::string text;
  if (cached_n != n) {
    text = allocs_module(n);
    cached_n = n;
  }
  for (auto _ : state) {
    auto m = fe::parse_module(text);
    if (m.error || m.programs.size() != 1)
      state.SkipWithError("the generated module does not read");
    ref::program_ptr p = m.programs.front().program;
    const auto pl = commscope::analyze(p);
    if (!pl.ok())
      state.SkipWithError("the generated program is rejected");
    commscope::materialize(p, pl);
    std::string sizes;
    for (const auto& f : pl.functions)
      for (const auto& a : f.allocations)
        if (a.size)
          fe::append_expression(sizes, *a.size);
    benchmark::DoNotOptimize(sizes.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(n));
  report(state, text);
}

BENCHMARK(bm_tokenize)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_read_module)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_whole_job)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_allocs)->Arg(20000)->Arg(200000)->Arg(1000000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
