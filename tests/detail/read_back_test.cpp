// Functions that already hold scopes are read back, never wrapped again: the fuzz finding
// of a scope followed by more statements, and the round trip through the printer.
#include <commscope/commscope.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/reference/traits.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace commscope::reference;
using namespace commscope::frontend;

namespace {
constexpr const char* header = R"(import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
)";

program_ptr parsed(const std::string& body) {
  auto r = parse(std::string(header) + body);
  REQUIRE_MESSAGE(r.program, (r.error ? r.error->message : std::string()));
  return r.program;
}
} // namespace

TEST_CASE("a scope followed by more statements is read back, not wrapped a second time") {
  program_ptr p = parsed(R"(        with pld.comm_domain("comm_d0", devices=[0], slots=[a]):
            a = pld.alloc_window_buffer(64)
            v = pld.window(a, [8], dtype=pl.FP32)
            self.chip(v, device=0)
        w = pld.window(a, [8], dtype=pl.FP32)
        self.chip(w, device=1)
)");
  const program_ptr before = p;
  const auto pl = commscope::analyze(p);
  CHECK(pl.ok());
  REQUIRE(pl.functions.size() == 1);
  const auto& f = pl.functions[0];
  CHECK(f.status == decltype(f.status)::already_materialized);
  REQUIRE(f.domains.size() == 1);
  CHECK(f.domains[0].name == "comm_d0");
  REQUIRE(f.allocations.size() == 1);
  CHECK(f.allocations[0].name == "a");
  CHECK(commscope::materialize(p, pl) == commscope::rewrite_result::unchanged);
  CHECK(p == before);
  // No window buffer is a slot of two scopes.
  for (const auto& d : commscope::verify(p))
    CHECK(d.why != commscope::reason::slot_in_two_scopes);
}

TEST_CASE("nested scopes read back outermost first, with their views") {
  program_ptr p = parsed(R"(        buf = pld.alloc_window_buffer(256)
        part = pld.alloc_window_buffer(64, name="staging")
        data = pld.window(buf, [64], dtype=pl.FP32)
        piece = pld.window(part, [16], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.chip(data, device=r)
        for d in pl.range(0, 4, 2):
            self.chip(piece, device=d)
)");
  REQUIRE(commscope::run(p).empty());
  const std::string printed = print(p);
  program_ptr again = parse(printed).program;
  REQUIRE(again);
  const auto pl = commscope::analyze(again);
  REQUIRE(pl.ok());
  const auto& f = pl.functions[0];
  CHECK(f.status == decltype(f.status)::already_materialized);
  REQUIRE(f.domains.size() == 2);
  CHECK(f.domains[0].devices.is_all());
  CHECK(f.domains[1].devices.size() == 2);
  CHECK(f.domains[1].devices.contains(2));
  REQUIRE(f.views.size() == 2);
  CHECK(f.allocations[f.views[0].allocation].name == "buf");
  CHECK(f.allocations[f.views[1].allocation].name == "staging");
  CHECK(f.allocations[f.views[0].allocation].view_count == 1);
  CHECK(*f.views_of(f.views[1].allocation).begin() == 1);
  CHECK(print(again) == printed);
  CHECK(commscope::verify(again).empty());
}
