// The data-oriented index IR (index_ir.hpp) through a stateful traits object: the whole
// table of compile-time cases, the rebinding cases with one variable rebound rather than
// renamed, and the rewrite, the verifier and the read-back on the result.
#include "index_ir.hpp"

#include "../compile_time/cases.hpp"

#include <commscope/compile_time/expect.hpp>

#include <doctest/doctest.h>

#include <string>
#include <type_traits>

using namespace commscope::compile_time;

static_assert(commscope::materializable_ir<index_ir::traits>);
static_assert(commscope::reads_scopes<index_ir::traits>);
static_assert(commscope::numbers_variables<index_ir::traits>);
static_assert(!commscope::has_rewriter<index_ir::traits>);
static_assert(sizeof(index_ir::st) == 4 && sizeof(index_ir::var) == 4 && sizeof(index_ir::wb) == 4);

namespace {

template <class Table> void check_table(const char* what) {
  std::size_t checked = 0;
  Table::for_each([&](const auto& c) {
    INFO(what, ": ", c.name);
    auto m = index_ir::from_compile_time(c.program);
    const verdict v = check(m, c.expected, index_ir::traits{&m});
    CHECK_MESSAGE(v.ok(), describe(v.what), " (index ", v.index, ")");
    ++checked;
  });
  CHECK(checked == Table::size);
}

} // namespace

TEST_CASE("every case of the compile-time table holds in the index IR") {
  check_table<ct_cases::all>("table");
}

TEST_CASE("the rebinding cases hold with one variable rebound, not renamed") {
  check_table<ct_cases::rebinding>("rebinding");
  check_table<ct_cases::rebinding_without_renaming>("without renaming");
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

TEST_CASE("materialize, verify and read back in place; window buffer 0 is a real one") {
  std::size_t rewritten = 0;
  ct_cases::all::for_each([&](const auto& c) {
    INFO(c.name);
    auto m = index_ir::from_compile_time(c.program);
    const index_ir::traits t{&m};
    const auto first = commscope::analyze(m, t);
    const auto what = commscope::materialize(m, first, t);
    if (!first.ok()) {
      CHECK(what == commscope::materialized::rejected);
      CHECK(m.buffers.empty());
      return;
    }
    if (what != commscope::materialized::rewritten)
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
    CHECK(commscope::materialize(m, second, t) == commscope::materialized::unchanged);
  });
  CHECK(rewritten >= 20);
}

TEST_CASE("the verifier finds a view outside its scope, and never reads a null handle") {
  auto m = index_ir::from_compile_time(ct_cases::constant_device.program);
  const index_ir::traits t{&m};
  REQUIRE(commscope::materialize(m, commscope::analyze(m, t), t) ==
          commscope::materialized::rewritten);
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
