// commscope-opt's own helpers: byte counts as printed (bytes.hpp) and the labels of
// `--emit=dot` pictures (dot.hpp) when an allocation's size folds to bytes.
#include "bytes.hpp"
#include "dot.hpp"

#include <commscope/commscope.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/reference/traits.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace {

namespace ref = commscope::reference;
namespace fe = commscope::frontend;
using commscope::opt::bytes_text;

TEST_CASE("bytes_text separates thousands with commas") {
  CHECK(bytes_text(0) == "0 B");
  CHECK(bytes_text(7) == "7 B");
  CHECK(bytes_text(999) == "999 B");
  CHECK(bytes_text(1000) == "1,000 B");
  CHECK(bytes_text(1024) == "1,024 B");
  CHECK(bytes_text(123456) == "123,456 B");
  CHECK(bytes_text(1234567) == "1,234,567 B");
  CHECK(bytes_text(-1) == "-1 B");
  CHECK(bytes_text(-4096) == "-4,096 B");
  CHECK(bytes_text(-100000) == "-100,000 B");
  CHECK(bytes_text(std::numeric_limits<std::int64_t>::max()) == "9,223,372,036,854,775,807 B");
  CHECK(bytes_text(std::numeric_limits<std::int64_t>::min()) == "-9,223,372,036,854,775,808 B");
}

constexpr std::string_view model = R"(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, a, b):
        return a

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        buf = pld.alloc_window_buffer(256 * 4, name="buf")
        raw = pld.alloc_window_buffer(8, name="raw")
        open_size = pld.alloc_window_buffer(pld.world_size() * 4, name="open_size")
        vb = pld.window(buf, [256], dtype=pl.FP32)
        vr = pld.window(raw, [2], dtype=pl.FP32)
        vo = pld.window(open_size, [1], dtype=pl.FP32)
        self.chip(vb, vr, device=0)
        self.chip(vo, vo, device=1)
)";

/// The picture of `model`, with the bytes `bytes(a)` gives.
template <class Bytes> std::string picture(Bytes bytes) {
  const auto parsed = fe::parse(model);
  REQUIRE(parsed);
  const commscope::ir_traits<ref::program_ptr> traits;
  const auto plan = commscope::analyze(parsed.program, traits, commscope::with_evidence);
  REQUIRE(plan.ok());
  commscope::opt::dot::graph_writer w("model");
  w.begin_program("P", 5);
  for (const auto& fp : plan.functions)
    w.function(
        fp, traits,
        [&](std::uint32_t a) {
          std::string size;
          if (fp.allocations[a].size)
            fe::append_expression(size, *fp.allocations[a].size);
          return size;
        },
        [&](std::uint32_t a) { return bytes(std::string(fp.allocations[a].name)); });
  w.end_program(plan.functions.empty());
  return std::move(w).finish();
}

TEST_CASE("a slot shows its bytes when its size folds to an integer") {
  const std::string dot = picture([](const std::string& name) -> std::optional<std::int64_t> {
    if (name == "buf")
      return 1024;
    if (name == "raw")
      return 8;
    return std::nullopt;
  });
  CHECK(dot.find(R"(label="buf\n256 * 4 = 1,024 B")") != std::string::npos);
  CHECK(dot.find(R"(label="raw\n8 B")") != std::string::npos); // not `8 = 8 B`
  CHECK(dot.find(R"(label="open_size\npld.world_size() * 4")") != std::string::npos);
}

TEST_CASE("without bytes a slot shows its size as written") {
  const std::string dot = picture([](const std::string&) { return std::optional<std::int64_t>(); });
  CHECK(dot.find(R"(label="buf\n256 * 4")") != std::string::npos);
  CHECK(dot.find(R"(label="raw\n8")") != std::string::npos);
  CHECK(dot.find(" B\"") == std::string::npos);
}

} // namespace
