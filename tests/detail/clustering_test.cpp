// docs/semantics.md, step 9, "Cluster": first-equal-descriptor clustering, domain and
// slot order.
#include "pass_support.hpp"

#include <cstdint>
#include <string>
#include <vector>

using namespace pass_test;

TEST_SUITE_BEGIN("clustering");

TEST_CASE("many domains: the table of domain leaders grows, each set keeps its first domain") {
  // 100 distinct device sets, in two rounds: each allocation of the second round joins the
  // domain the first round opened for its set, across the table's growth.
  fixture f;
  std::vector<variable_ptr> views;
  for (int round = 0; round < 2; ++round)
    for (int d = 0; d < 100; ++d)
      views.push_back(f.view("b" + std::to_string(round) + "_" + std::to_string(d)));
  for (std::size_t i = 0; i < views.size(); ++i) {
    // Odd sets are two devices, so that equal sets are not always equal first intervals.
    const auto d = static_cast<std::int64_t>(i % 100);
    f.h.dispatch(f.chip, {views[i]}, 2 * d);
    if (d % 2 == 1)
      f.h.dispatch(f.chip, {views[i]}, 2 * d + 1);
  }
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  const auto& fp = pl.functions[0];
  REQUIRE(fp.domains.size() == 100);
  for (std::uint32_t i = 0; i < 200; ++i)
    CHECK(fp.allocations[i].domain == i % 100);
  CHECK(render(fp.domains[3].devices) == "{6,7}");
  CHECK(fp.domains[99].slots == std::vector<std::uint32_t>{99, 199});
}

TEST_CASE("allocations with equal descriptors share the first such domain") {
  fixture f;
  auto a = f.view("a");
  auto b = f.view("b");
  auto c = f.view("c");
  auto d = f.view("d");
  auto e = f.view("e");
  f.h.dispatch(f.chip, {a}, 1);
  f.h.dispatch(f.chip, {b}, 0);
  f.h.dispatch(f.chip, {c}, 1);
  auto r = f.h.for_world("r");
  f.h.dispatch(f.chip, {d}, r);
  f.h.end();
  f.h.dispatch(f.chip, {e}, 0);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(domains(pl) == "[{1}] a,c; [{0}] b,e; [all] d");
  const auto& fp = pl.functions[0];
  CHECK(fp.allocations[0].domain == 0);
  CHECK(fp.allocations[1].domain == 1);
  CHECK(fp.allocations[2].domain == 0);
  CHECK(fp.allocations[3].domain == 2);
  CHECK(fp.allocations[4].domain == 1);
}

TEST_CASE("domain order is the order of each domain's first allocation, not of dispatches") {
  fixture f;
  auto a = f.view("a");
  auto b = f.view("b");
  auto c = f.view("c");
  // Dispatched in reverse order of declaration.
  f.h.dispatch(f.chip, {c}, 3);
  f.h.dispatch(f.chip, {b}, 2);
  f.h.dispatch(f.chip, {a}, 1);
  CHECK(domains(f.analyze()) == "[{1}] a; [{2}] b; [{3}] c");
}

TEST_CASE("slots keep allocation order, whatever the order of dispatch arguments") {
  fixture f;
  auto a = f.view("a");
  auto b = f.view("b");
  auto c = f.view("c");
  f.h.dispatch(f.chip, {c, a, b}, 0);
  CHECK(domains(f.analyze()) == "[{0}] a,b,c");
}

TEST_CASE("{0,1} and {1,0} are one descriptor") {
  fixture f;
  auto a = f.view("a");
  auto b = f.view("b");
  auto c = f.view("c");
  f.h.dispatch(f.chip, {a}, 0);
  f.h.dispatch(f.chip, {a}, 1);
  f.h.dispatch(f.chip, {b}, 1);
  f.h.dispatch(f.chip, {b}, 0);
  auto r = f.h.for_range("r", 1, -1, -1); // 1, 0
  f.h.dispatch(f.chip, {c}, r);
  f.h.end();
  CHECK(domains(f.analyze()) == "[{0,1}] a,b,c");
}

TEST_CASE("all is not any subset, and subsets are not each other") {
  fixture f;
  auto all1 = f.view("all1");
  auto sub = f.view("sub");
  auto sup = f.view("sup");
  auto all2 = f.view("all2");
  auto big = f.view("big");
  auto r = f.h.for_world("r");
  f.h.dispatch(f.chip, {all1, all2}, r);
  f.h.end();
  f.h.dispatch(f.chip, {sub, sup}, 0);
  f.h.dispatch(f.chip, {sup}, 1);
  // A finite set of every id below the limit is still not `all`.
  auto k = f.h.for_range("k", std::int64_t{1} << 20);
  f.h.dispatch(f.chip, {big}, k);
  f.h.end();
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  const auto& fp = pl.functions[0];
  REQUIRE(fp.domains.size() == 4);
  CHECK(render(fp.domains[0].devices) == "all");
  CHECK(render(fp.domains[1].devices) == "{0}");
  CHECK(render(fp.domains[2].devices) == "{0,1}");
  const auto& last = fp.domains[3].devices;
  CHECK_FALSE(last.is_all());
  REQUIRE(last.intervals().size() == 1);
  CHECK(last.intervals()[0] == commscope::device_interval{0, (std::int64_t{1} << 20) - 1});
  CHECK(fp.domains[0].slots.size() == 2);
  CHECK(fp.domains[3].slots.size() == 1);
  CHECK(fp.allocations[fp.domains[3].slots[0]].name == "big");
}

TEST_CASE("many domains: one per device, in declaration order") {
  constexpr int n = 64;
  fixture f;
  std::vector<variable_ptr> views;
  for (int i = 0; i < 2 * n; ++i)
    views.push_back(f.view(cat("b", i)));
  // b_i goes to device (n - 1 - i % n): domains are declared in the order b0, b1, ...
  for (int i = 2 * n; i-- > 0;)
    f.h.dispatch(f.chip, {views[static_cast<std::size_t>(i)]}, n - 1 - i % n);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  const auto& fp = pl.functions[0];
  REQUIRE(fp.domains.size() == n);
  for (int d = 0; d < n; ++d) {
    CAPTURE(d);
    const auto& dom = fp.domains[static_cast<std::size_t>(d)];
    CHECK(render(dom.devices) == cat("{", n - 1 - d, "}"));
    REQUIRE(dom.slots.size() == 2);
    CHECK(dom.slots[0] == static_cast<std::uint32_t>(d));
    CHECK(dom.slots[1] == static_cast<std::uint32_t>(d + n));
  }
}

TEST_CASE("domains are per function") {
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip");
  auto& h1 = pb.host_orchestrator("one");
  auto a = h1.window("a_v", h1.alloc("a", 8));
  h1.dispatch(chip, {a}, 1);
  auto& h2 = pb.host_orchestrator("two");
  auto b = h2.window("b_v", h2.alloc("b", 8));
  auto c = h2.window("c_v", h2.alloc("c", 8));
  h2.dispatch(chip, {b}, 2);
  h2.dispatch(chip, {c}, 1);
  const program_ptr p = pb.finish();
  const auto pl = commscope::analyze(p);
  CHECK(diags(pl) == "");
  CHECK(domains(function_named(pl, "one")) == "[{1}] a");
  CHECK(domains(function_named(pl, "two")) == "[{2}] b; [{1}] c");
}

TEST_CASE("an allocation's devices are the union of what its dispatches pass, over more "
          "distinct sets and pairs of sets than any cache of them holds") {
  // Each allocation is passed one of 5 devices, then a loop's range, one of 97, then its
  // device again (two allocations in three): 485 pairs of sets, so that sets and pairs
  // keep replacing one another in the lookups, and one set is joined with many others.
  fixture f;
  constexpr int n = 600;
  std::vector<variable_ptr> views;
  for (int i = 0; i < n; ++i)
    views.push_back(f.view("b" + std::to_string(i)));
  const auto own = [](int i) { return std::int64_t{1000} + i % 5; };
  const auto low = [](int i) { return std::int64_t{4} * (i % 97); };
  for (int i = 0; i < n; ++i) {
    f.h.dispatch(f.chip, {views[i]}, own(i));
    auto r =
        f.h.for_range("r" + std::to_string(i), ref::ex(low(i)), ref::ex(low(i) + 3), ref::ex(1));
    f.h.dispatch(f.chip, {views[i]}, r);
    f.h.end();
    if (i % 3 != 0)
      f.h.dispatch(f.chip, {views[i]}, own(i));
  }
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  const auto& fp = pl.functions[0];
  REQUIRE(fp.allocations.size() == n);
  for (int i = 0; i < n; ++i) {
    commscope::device_set::builder want;
    want.add(commscope::device_interval{own(i), own(i)});
    want.add(commscope::device_interval{low(i), low(i) + 2});
    CHECK(render(fp.allocations[static_cast<std::size_t>(i)].devices) == render(want.finish()));
  }
}

TEST_SUITE_END();

TEST_CASE("sets that differ only in their progressions hash apart") {
  using commscope::device_progression;
  using commscope::device_set;
  device_set a = device_set::single(0), b = device_set::single(0);
  a.join(device_set::progression(device_progression{1, 2, 0}));
  b.join(device_set::progression(device_progression{2, 2, 0}));
  CHECK(commscope::detail::hash_of(a) != commscope::detail::hash_of(b));
  CHECK(commscope::detail::hash_of(a) != commscope::detail::hash_of(device_set::single(0)));
}
