// Adversarial sizes: long copy chains, deep nesting, many allocations
// and domains. Nothing here may grow the call stack with the program's size: the suite
// runs under AddressSanitizer with the default 8 MB stack. No timing is asserted.
#include "pass_support.hpp"

#include <string>
#include <vector>

using namespace pass_test;

namespace {

std::size_t findings_count(const program_ptr& p) { return commscope::verify(p).size(); }

/// Analyze, materialize, verify and analyze again; returns the plan of the second run.
plan_t full_cycle(program_ptr& p) {
  const auto first = commscope::analyze(p);
  REQUIRE(first.ok());
  const program_ptr before = p;
  REQUIRE(commscope::materialize(p, first) == commscope::rewrite_result::rewritten);
  CHECK(p != before);
  CHECK(findings_count(p) == 0);
  auto second = commscope::analyze(p);
  CHECK(second.ok());
  return second;
}

} // namespace

TEST_SUITE_BEGIN("adversarial");

TEST_CASE("a chain of 100,000 copies of a view and of a device constant") {
  constexpr int n = 100000;
  fixture f;
  auto buf = f.h.alloc("buf", 64);
  variable_ptr v = f.h.window("v", buf);
  variable_ptr last = v;
  for (int i = 0; i < n; ++i)
    last = f.h.assign(cat("c", i), last);
  variable_ptr device = f.h.assign("d", 7);
  for (int i = 0; i < n; ++i)
    device = f.h.assign(cat("e", i), device);
  f.h.dispatch(f.chip, {last}, device);
  // And the same chain as an allocation pointer.
  variable_ptr ptr = f.h.alloc("other", 8);
  for (int i = 0; i < n; ++i)
    ptr = f.h.assign(cat("p", i), ptr);
  auto w = f.h.window("w", ptr);
  f.h.dispatch(f.chip, {w}, device);
  program_ptr p = f.finish();
  const auto pl = commscope::analyze(p);
  CHECK(diags(pl) == "");
  CHECK(domains(pl) == "[{7}] buf,other");
  const auto second = full_cycle(p);
  REQUIRE(second.functions.size() == 1);
  CHECK(second.functions[0].status == function_plan_t::state::already_materialized);
  CHECK(domains(second) == "[{7}] buf,other");
  CHECK(second.functions[0].views.size() == 2);
}

TEST_CASE("3,000 nested loops with the dispatch innermost") {
  constexpr int depth = 3000;
  fixture f;
  auto buf = f.h.alloc("buf", 64);
  auto v = f.h.window("v", buf);
  variable_ptr innermost;
  for (int i = 0; i < depth; ++i) {
    if (i % 2 == 0)
      innermost = f.h.for_world(cat("r", i));
    else
      innermost = f.h.for_range(cat("k", i), 0, 4, 1);
  }
  f.h.dispatch(f.chip, {v}, innermost); // the last loop is range(4)
  auto sig = f.h.window("sig", f.h.alloc("sig_buf", 8)); // an allocation deep inside
  f.h.collective(operation::allreduce, {v, sig});
  for (int i = 0; i < depth; ++i)
    f.h.end();
  program_ptr p = f.finish();
  const auto pl = commscope::analyze(p);
  CHECK(diags(pl) == "");
  CHECK(domains(pl) == "[{0,1,2,3}] buf,sig_buf");
  const auto second = full_cycle(p);
  CHECK(domains(second) == "[{0,1,2,3}] buf,sig_buf");
  CHECK(second.functions[0].views.size() == 2);

  // The same depth with an error at the bottom: reported at its depth's column.
  fixture g;
  auto gv = g.view("buf"); // 4-5
  for (int i = 0; i < depth; ++i)
    g.h.for_range(cat("k", i), 2); // lines 6 .. 3005
  g.h.dispatch(g.chip, {gv}, -1);               // line 3006
  for (int i = 0; i < depth; ++i)
    g.h.end();
  CHECK(diags(g.analyze()) ==
        cat("negative-device chip ", depth + 6, ":", 9 + 4 * depth));
}

TEST_CASE("20,000 allocations over 100 domains") {
  constexpr int n = 20000;
  constexpr int domains_n = 100;
  fixture f;
  std::vector<variable_ptr> views;
  views.reserve(n);
  for (int i = 0; i < n; ++i)
    views.push_back(f.view(cat("b", i)));
  for (int i = 0; i < n; ++i)
    f.h.dispatch(f.chip, {views[static_cast<std::size_t>(i)]}, i % domains_n);
  program_ptr p = f.finish();
  const auto pl = commscope::analyze(p);
  CHECK(diags(pl) == "");
  auto check_plan = [&](const plan_t& plan) {
    REQUIRE(plan.functions.size() == 1);
    const auto& fp = plan.functions[0];
    REQUIRE(fp.domains.size() == domains_n);
    for (int d = 0; d < domains_n; ++d) {
      const auto& dom = fp.domains[static_cast<std::size_t>(d)];
      REQUIRE(dom.slots.size() == n / domains_n);
      CHECK(render(dom.devices) == cat("{", d, "}"));
      for (std::size_t k = 0; k < dom.slots.size(); ++k)
        if (fp.allocations[dom.slots[k]].name !=
            cat("b", d + static_cast<int>(k) * domains_n))
          FAIL("slot " << k << " of domain " << d << " is " << fp.allocations[dom.slots[k]].name);
    }
  };
  check_plan(pl);
  const auto second = full_cycle(p);
  CHECK(second.functions[0].status == function_plan_t::state::already_materialized);
  check_plan(second);
  CHECK(second.functions[0].domains[99].name == "comm_d99");
}

TEST_CASE("20,000 allocations with one shared name: one diagnostic each, in order") {
  constexpr int n = 20000;
  fixture f;
  std::vector<variable_ptr> views;
  for (int i = 0; i < n; ++i)
    views.push_back(f.h.window("v", f.h.alloc("b", 8, "same")));
  for (int i = 0; i < n; ++i)
    f.h.dispatch(f.chip, {views[static_cast<std::size_t>(i)]}, 0);
  const auto pl = f.analyze();
  REQUIRE(pl.diagnostics.size() == n - 1);
  for (int i = 1; i < n; ++i)
    if (pl.diagnostics[static_cast<std::size_t>(i - 1)].where.line !=
        static_cast<std::uint32_t>(4 + 2 * i))
      FAIL("duplicate " << i << " at line " << pl.diagnostics[static_cast<std::size_t>(i - 1)].where.line);
}

TEST_CASE("100,000 rebindings of one variable in a loop body resolve without recursion") {
  constexpr int n = 100000;
  fixture f;
  auto data = f.view("buf"); // 4-5
  auto sig = f.view("sig");  // 6-7
  auto r = f.h.for_world("r");
  f.h.dispatch(f.chip, {data}, r); // reads the merge of the view and the loop's last binding
  for (int i = 0; i < n; ++i)
    f.h.assign_to(data, f.h.operation(operation::allreduce, {data, sig}));
  f.h.end();
  f.h.dispatch(f.chip, {data}, 0);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(domains(pl) == "[all] buf,sig");
}

TEST_CASE("3,000 nested loops, each rebinding the view: nested merges, no recursion") {
  constexpr int depth = 3000;
  fixture f;
  auto data = f.view("buf"); // 4-5
  auto other = f.view("other");
  for (int i = 0; i < depth; ++i) {
    f.h.for_range(cat("k", i), 2);
    f.h.assign_to(data, data); // a copy of itself: still the one view
  }
  f.h.dispatch(f.chip, {data}, 1);
  f.h.dispatch(f.chip, {other}, 3);
  for (int i = 0; i < depth; ++i)
    f.h.end();
  f.h.dispatch(f.chip, {data}, 2);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(domains(pl) == "[{1,2}] buf; [{3}] other");
}

TEST_SUITE_END();
