// The contract on the adapters the tests ship: the reference IR is complete, the minimal
// IR analyses but does not rewrite, and detection of optional members works.
#include "minimal_ir.hpp"

#include <commscope/reference/builder.hpp>
#include <commscope/reference/traits.hpp>

#include <doctest/doctest.h>

using reference_traits = commscope::ir_traits<commscope::reference::program_ptr>;
using minimal_traits = commscope::ir_traits<minimal::program>;

static_assert(commscope::materializable_ir<reference_traits>);
static_assert(commscope::provides<reference_traits, commscope::contract::variable_index>);
static_assert(commscope::analyzable_ir<minimal_traits>);
static_assert(!commscope::rewrites<minimal_traits>);
static_assert(!commscope::provides<minimal_traits, commscope::contract::variable_index>);
static_assert(!commscope::provides<minimal_traits,
                                   commscope::contract::variable_key>); // the int handle is the key
static_assert(commscope::contract::variable_identity::holds<minimal_traits>);
static_assert(!commscope::reads_scopes<minimal_traits>);
static_assert(commscope::reads_scopes<reference_traits>);
static_assert(!commscope::provides<commscope::ir_traits<int>, commscope::contract::specialization>);
static_assert(commscope::contract::device_limit::of<reference_traits>() == 1 << 20);

struct limited : reference_traits {
  static constexpr std::int64_t device_limit = 8;
  using storage = commscope::std_storage; // no longer read: an adapter that names it compiles
};
static_assert(commscope::contract::device_limit::of<limited>() == 8);

TEST_CASE("a hashed-variable adapter without rewrite hooks gets the full analysis") {
  minimal::program p;
  auto& chip = p.functions.emplace_back();
  chip.info = {"chip", commscope::level::chip, true, false};
  auto& host = p.functions.emplace_back();
  host.info = {"host", commscope::level::host, true, false};
  int buf = 0, view = 0, r = 0, copy = 0;
  host.body.push_back(p.assign(buf, p.op(commscope::operation::alloc_window_buffer,
                                         {p.integer(64)}, "buf")));
  host.body.push_back(p.assign(view, p.op(commscope::operation::window,
                                          {p.use(buf), p.integer(0)})));
  host.body.push_back(p.assign(copy, p.use(view)));
  r = p.fresh();
  host.body.push_back(p.loop(r, p.integer(1), p.integer(7), p.integer(3),
                             {p.evaluate(p.call(chip, {p.use(copy)}, p.use(r)))}));
  const auto pl = commscope::analyze(p);
  REQUIRE(pl.ok());
  REQUIRE(pl.functions.size() == 1);
  REQUIRE(pl.functions[0].domains.size() == 1);
  std::vector<commscope::device_id> ids;
  pl.functions[0].domains[0].devices.for_each([&](auto d) { ids.push_back(d); });
  CHECK(ids == std::vector<commscope::device_id>{1, 4});
}

TEST_CASE("an adapter's device limit is honored") {
  using namespace commscope::reference;
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip");
  auto& h = pb.host_orchestrator("host");
  auto data = h.window("data", h.alloc("buf", 4));
  h.dispatch(chip, {data}, 8);
  const program_ptr p = pb.finish();
  const auto wide = commscope::analyze(p);
  CHECK(wide.ok());
  const auto narrow = commscope::analyze(p, limited{});
  REQUIRE(narrow.diagnostics.size() == 1);
  CHECK(narrow.diagnostics[0].code == commscope::error_code::device_out_of_range);
  CHECK(narrow.diagnostics[0].limit == 8);
}

struct nesting_limited : reference_traits {
  static constexpr std::size_t scope_nesting_limit = 2;
};
static_assert(commscope::contract::scope_nesting_limit::of<nesting_limited>() == 2);
static_assert(commscope::contract::scope_nesting_limit::of<reference_traits>() ==
              static_cast<std::size_t>(-1));

TEST_CASE("an adapter's scope-nesting limit is reported at the first allocation beyond it") {
  using namespace commscope::reference;
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip");
  auto& h = pb.host_orchestrator("host");
  for (int d = 0; d < 4; ++d) {
    const std::string n = "b" + std::to_string(d);
    h.dispatch(chip, {h.window("v" + n, h.alloc(n, 4))}, d);
  }
  const program_ptr p = pb.finish();
  CHECK(commscope::analyze(p).ok());
  const auto narrow = commscope::analyze(p, nesting_limited{});
  REQUIRE(narrow.diagnostics.size() == 1);
  CHECK(narrow.diagnostics[0].code == commscope::error_code::scope_nesting_limit);
  CHECK(narrow.diagnostics[0].subject == "b2");
  CHECK(narrow.diagnostics[0].depth == 3);
  CHECK(narrow.diagnostics[0].limit == 2);
}

struct wraps_nothing : reference_traits {
  static bool can_wrap_body(function) { return false; }
};

TEST_CASE("a body the adapter cannot wrap is malformed-op only when it allocates") {
  using namespace commscope::reference;
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip");
  auto& h = pb.host_orchestrator("host");
  h.dispatch(chip, {h.window("data", h.alloc("buf", 4))}, 0);
  pb.host_orchestrator("empty");
  const program_ptr p = pb.finish();
  const auto pl = commscope::analyze(p, wraps_nothing{});
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].code == commscope::error_code::malformed_op);
  CHECK(pl.diagnostics[0].why == commscope::reason::unwrappable_body);
  CHECK(pl.diagnostics[0].subject == "buf");
}
