// The data-oriented index IR (index_ir.hpp) through a stateful traits object: the whole
// table of compile-time cases, the rebinding cases with one variable rebound rather than
// renamed, the rewrite, the verifier and the read-back on the result, and control flow
// (branches as alternatives, loops, break/continue, a parallel assignment) built directly.
#include "builder.hpp"
#include "index_ir.hpp"

#include "../compile_time/cases.hpp"

#include <commscope/compile_time/expect.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

using namespace commscope::compile_time;

static_assert(commscope::materializable_ir<index_ir::traits>);
static_assert(commscope::reads_scopes<index_ir::traits>);
static_assert(commscope::provides<index_ir::traits, commscope::contract::variable_index>);
static_assert(!commscope::provides<index_ir::traits, commscope::contract::rewriter>);
static_assert(commscope::materializable_ir<index_ir::hashed_traits>);
static_assert(!commscope::provides<index_ir::hashed_traits, commscope::contract::variable_index>);
static_assert(sizeof(index_ir::st) == 4 && sizeof(index_ir::var) == 4 && sizeof(index_ir::wb) == 4);

namespace {

template <class Table, class Traits = index_ir::traits> void check_table(const char* what) {
  std::size_t checked = 0;
  Table::for_each([&](const auto& c) {
    INFO(what, ": ", c.name);
    auto m = index_ir::from_compile_time(c.program);
    const verdict v = check(m, c.expected, Traits{&m});
    CHECK_MESSAGE(v.ok(), describe(v.what), " (index ", v.index, ")");
    ++checked;
  });
  CHECK(checked == Table::size);
}

} // namespace

TEST_CASE("every case of the compile-time table holds in the index IR") {
  check_table<ct_cases::all>("table");
}

TEST_CASE("every case holds with variables told apart by their hashed handles, not numbered") {
  check_table<ct_cases::all, index_ir::hashed_traits>("table");
  check_table<ct_cases::rebinding_without_renaming, index_ir::hashed_traits>("without renaming");
  check_table<ct_cases::alternatives, index_ir::hashed_traits>("alternatives");
}

TEST_CASE("loops over part of the world: partial-world-range, as without symbolic sets") {
  check_table<ct_cases::partial_world>("partial world");
}

TEST_CASE("the rebinding cases hold with one variable rebound, not renamed") {
  check_table<ct_cases::rebinding>("rebinding");
  check_table<ct_cases::rebinding_without_renaming>("without renaming");
  check_table<ct_cases::alternatives>("alternatives");
  // The index IR did not rename: the rebound names are one variable each.
  auto m = index_ir::from_compile_time(ct_cases::rebind_collective_result.program);
  std::size_t named_data = 0;
  for (const auto& n : m.variables)
    named_data += n == "data" ? 1 : 0;
  CHECK(named_data == 1);
}

TEST_CASE("the index IR and the compile-time IR report the same diagnostics") {
  ct_cases::all::for_each([](const auto& c) {
    INFO(c.name);
    const auto ct_plan = commscope::analyze(c.program);
    auto m = index_ir::from_compile_time(c.program);
    const auto plan = commscope::analyze(m, index_ir::traits{&m});
    REQUIRE(ct_plan.diagnostics.size() == plan.diagnostics.size());
    for (std::size_t i = 0; i < plan.diagnostics.size(); ++i) {
      CHECK(ct_plan.diagnostics[i].message() == plan.diagnostics[i].message());
      CHECK(ct_plan.diagnostics[i].where.line == plan.diagnostics[i].where.line);
    }
  });
}

TEST_CASE("materialize, verify and read back in place, window buffer 0 is a real one") {
  std::size_t rewritten = 0;
  ct_cases::all::for_each([&](const auto& c) {
    INFO(c.name);
    auto m = index_ir::from_compile_time(c.program);
    const index_ir::traits t{&m};
    const auto first = commscope::analyze(m, t);
    const auto what = commscope::materialize(m, first, t);
    if (!first.ok()) {
      CHECK(what == commscope::rewrite_result::rejected);
      CHECK(m.buffers.empty());
      return;
    }
    if (what != commscope::rewrite_result::rewritten)
      return;
    ++rewritten;
    CHECK(commscope::verify(m, t).empty());
    // Built in one step from the allocation's own statement.
    for (const auto& b : m.buffers)
      CHECK(m.expressions[m.statements[index_ir::at(b.allocation)].value].name == b.name);
    const auto second = commscope::analyze(m, t);
    REQUIRE(second.ok());
    const verdict v = compare(second, c.expected, t);
    CHECK_MESSAGE(v.ok(), describe(v.what), " (index ", v.index, ")");
    for (const auto& f : second.functions)
      if (!f.allocations.empty())
        CHECK(f.status == std::remove_cvref_t<decltype(f)>::state::already_materialized);
    CHECK(commscope::materialize(m, second, t) == commscope::rewrite_result::unchanged);
  });
  CHECK(rewritten >= 20);
}

TEST_CASE("the verifier finds a view outside its scope, and never reads a null handle") {
  auto m = index_ir::from_compile_time(ct_cases::constant_device.program);
  const index_ir::traits t{&m};
  REQUIRE(commscope::materialize(m, commscope::analyze(m, t), t) ==
          commscope::rewrite_result::rewritten);
  REQUIRE(m.buffers.size() == 1);
  // A new top-level assignment after the scope claims window buffer 0 from outside it.
  m.variables.emplace_back("stray");
  auto& host = m.functions[1];
  REQUIRE(host.count == 1);
  index_ir::statement_node stray;
  stray.kind = commscope::statement_kind::assignment;
  stray.target = static_cast<std::uint32_t>(m.variables.size() - 1);
  index_ir::expression_node zero;
  zero.kind = commscope::expression_kind::integer;
  m.expressions.push_back(zero);
  stray.value = static_cast<std::uint32_t>(m.expressions.size() - 1); // stray = 0
  stray.where = {99, 5};
  m.statements.push_back(stray);
  m.view_buffer.resize(m.statements.size(), index_ir::none);
  m.view_buffer.back() = 0;
  const auto first = static_cast<std::uint32_t>(m.lists.size());
  m.lists.push_back(m.lists[host.first]);
  m.lists.push_back(static_cast<std::uint32_t>(m.statements.size() - 1));
  host.first = first;
  host.count = 2;
  const auto found = commscope::verify(m, t);
  REQUIRE(found.size() == 1);
  CHECK(found[0].why == commscope::reason::view_outside_scope);
  CHECK(found[0].subject == "buf");
  CHECK(found[0].where.line == 99);
}

// ---- control flow (docs/semantics.md, "Rebinding and control flow"), one variable rebound
namespace {

using index_ir::builder;
using stmts = builder::stmts;
constexpr commscope::function_info chip_info{"chip", commscope::level::chip, true, false};
constexpr commscope::function_info host_info{"host", commscope::level::host, true, false};

/// The devices of each allocation, by name: "b1={0,3} b2=all".
std::string devices(const auto& plan) {
  std::string s;
  for (const auto& f : plan.functions)
    for (const auto& a : f.allocations) {
      s += (s.empty() ? "" : " ") + std::string(a.name) + "=";
      if (a.devices.is_all()) {
        s += "all";
        continue;
      }
      std::string ids;
      a.devices.for_each([&](auto d) { ids += (ids.empty() ? "" : ",") + std::to_string(d); });
      s += "{" + ids + "}";
    }
  return s;
}

std::string codes(const auto& plan) {
  std::string s;
  for (const auto& d : plan.diagnostics)
    s += (s.empty() ? "" : " ") + std::string(commscope::code_name(d.code));
  return s;
}

/// A host orchestrator that allocates b1, b2, b3 with views v, w, u, then runs `body`
/// (made by `make`, given the builder), analyzed.
template <class Make> auto analyzed(Make&& make) {
  auto p = std::make_unique<index_ir::program>();
  builder b(*p);
  b.function(chip_info, {});
  stmts body;
  for (auto [buffer, view] : {std::pair("b1", "v"), std::pair("b2", "w"), std::pair("b3", "u")}) {
    body.push_back(b.assign(buffer, b.allocation(buffer, b.integer(64))));
    body.push_back(
        b.assign(view, b.call(commscope::operation::window, {b.use(buffer), b.opaque()})));
  }
  for (auto s : make(b))
    body.push_back(s);
  b.function(host_info, body);
  auto plan = commscope::analyze(p->m, p->adapter());
  return std::pair(std::move(p), std::move(plan));
}

/// chip(view, device=device): a constant, or the named loop variable.
index_ir::st dispatch(builder& b, std::string_view view, std::variant<int, const char*> device) {
  const auto d = std::holds_alternative<int>(device) ? b.integer(std::get<int>(device))
                                                     : b.use(std::get<const char*>(device));
  const index_ir::ex args[] = {b.use(view)};
  return b.evaluate(b.call(commscope::call_target::of(chip_info), args, d));
}
index_ir::st copy(builder& b, std::string_view to, std::string_view from) {
  return b.assign(to, b.use(from));
}
index_ir::ex world(builder& b) { return b.call(commscope::operation::world_size, {}); }

} // namespace

TEST_CASE("control flow: a binding in one branch does not reach the other") {
  // if flag: v = w / else: chip(v, device=0): the else branch sees only v's own view.
  const auto [p, plan] = analyzed([](builder& b) {
    return stmts{b.if_else(b.use("flag"), {{copy(b, "v", "w")}, {dispatch(b, "v", 0)}}),
                 dispatch(b, "w", 1), dispatch(b, "u", 2)};
  });
  CHECK(codes(plan) == "");
  CHECK(devices(plan) == "b1={0} b2={1} b3={2}");
}

TEST_CASE("control flow: after `if flag: v = w`, a dispatch of v covers both views") {
  const auto [p, plan] = analyzed([](builder& b) {
    return stmts{b.if_else(b.use("flag"), {{copy(b, "v", "w")}, {}}), dispatch(b, "v", 2),
                 dispatch(b, "u", 0)};
  });
  CHECK(codes(plan) == "");
  CHECK(devices(plan) == "b1={2} b2={2} b3={0}");
}

TEST_CASE("control flow: if/elif without else keeps the old view, with else it is replaced") {
  {
    const auto [p, plan] = analyzed([](builder& b) {
      return stmts{b.if_else(b.use("c0"), {{copy(b, "v", "w")}, {copy(b, "v", "u")}, {}}),
                   dispatch(b, "v", 1)};
    });
    CHECK(codes(plan) == "");
    CHECK(devices(plan) == "b1={1} b2={1} b3={1}");
  }
  // Every branch binds v: the view from before no longer reaches.
  const auto [p, plan] = analyzed([](builder& b) {
    return stmts{dispatch(b, "v", 0),
                 b.if_else(b.use("c0"), {{copy(b, "v", "w")}, {copy(b, "v", "u")}}),
                 dispatch(b, "v", 1)};
  });
  CHECK(codes(plan) == "");
  CHECK(devices(plan) == "b1={0} b2={1} b3={1}");
}

TEST_CASE("control flow: a loop that rebinds a view at its end covers both at its top") {
  {
    const auto [p, plan] = analyzed([](builder& b) {
      return stmts{b.for_loop("r", b.integer(0), world(b), b.integer(1),
                              {dispatch(b, "v", "r"), copy(b, "v", "w")}),
                   dispatch(b, "u", 0)};
    });
    CHECK(codes(plan) == "");
    CHECK(devices(plan) == "b1=all b2=all b3={0}");
  }
  const auto [p, plan] = analyzed([](builder& b) {
    return stmts{b.while_loop(b.use("c0"), {dispatch(b, "v", 3), copy(b, "v", "w")}),
                 dispatch(b, "u", 0)};
  });
  CHECK(codes(plan) == "");
  CHECK(devices(plan) == "b1={3} b2={3} b3={0}");
}

TEST_CASE("without symbolic_device_sets a loop over part of the world stays partial-world-range") {
  static_assert(!commscope::contract::symbolic_device_sets::of<index_ir::traits>());
  const auto [p, plan] = analyzed([](builder& b) {
    return stmts{b.for_loop("r", b.integer(1), world(b), b.integer(1), {dispatch(b, "v", "r")}),
                 b.for_loop("r", b.integer(0), world(b), b.integer(2), {dispatch(b, "w", "r")}),
                 dispatch(b, "u", 0)};
  });
  CHECK(codes(plan) == "partial-world-range partial-world-range");
}

TEST_CASE("control flow: break and continue carry the view bound before them out") {
  {
    // for r in range(3): v = w; if c: break; v = u / chip(v, device=5): w's view leaves
    // the loop only through the break.
    const auto [p, plan] = analyzed([](builder& b) {
      return stmts{b.for_loop("r", b.integer(0), b.integer(3), b.integer(1),
                              {copy(b, "v", "w"), b.if_else(b.use("c"), {{b.jump()}, {}}),
                               copy(b, "v", "u")}),
                   dispatch(b, "v", 5)};
    });
    CHECK(codes(plan) == "");
    CHECK(devices(plan) == "b1={5} b2={5} b3={5}");
  }
  // while c0: v = w; if c1: continue; v = u; chip(v, device=4) at the loop's top sees
  // w's view through the continue.
  const auto [p, plan] = analyzed([](builder& b) {
    return stmts{
        dispatch(b, "v", 0),
        b.while_loop(b.use("c0"), {dispatch(b, "v", 4), copy(b, "v", "w"),
                                   b.if_else(b.use("c1"), {{b.jump()}, {}}), copy(b, "v", "u")})};
  });
  CHECK(codes(plan) == "");
  CHECK(devices(plan) == "b1={0,4} b2={4} b3={4}");
}

TEST_CASE("control flow: a parallel assignment reads both values before binding") {
  const auto [p, plan] = analyzed([](builder& b) {
    const std::string_view targets[] = {"v", "w"};
    const index_ir::ex values[] = {b.use("w"), b.use("v")};
    return stmts{b.assign_parallel(targets, values), dispatch(b, "v", 0), dispatch(b, "w", 1),
                 dispatch(b, "u", 2)};
  });
  CHECK(codes(plan) == "");
  CHECK(devices(plan) == "b1={1} b2={0} b3={2}");
}

TEST_CASE("a variable of one orchestrator is unbound in the next, though the index is the same") {
  // The module numbers its variables: both orchestrators' `v` is one index. The second
  // passes v before binding it: nothing the first bound may reach it.
  constexpr commscope::function_info second{"host2", commscope::level::host, true, false};
  auto p = std::make_unique<index_ir::program>();
  builder b(*p);
  b.function(chip_info, {});
  const auto window = [&](const char* of) {
    return b.call(commscope::operation::window, {b.use(of), b.opaque()});
  };
  b.function(host_info, {b.assign("b1", b.allocation("b1", b.integer(64))),
                         b.assign("v", window("b1")), dispatch(b, "v", 0)});
  b.function(second, {b.assign("b2", b.allocation("b2", b.integer(64))), dispatch(b, "v", 1),
                      b.assign("v", window("b2")), dispatch(b, "v", 2)});
  const auto plan = commscope::analyze(p->m, p->adapter());
  CHECK(codes(plan) == "");
  CHECK(devices(plan) == "b1={0} b2={2}");
}
