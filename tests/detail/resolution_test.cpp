// docs/semantics.md, step 2 and "Resolution of a variable to a view": copies of views,
// copies of allocation pointers, collective results, and safety against bindings that
// loop.
#include "pass_support.hpp"

#include <algorithm>
#include <iterator>
#include <ranges>

using namespace pass_test;
using fb = ref::function_builder;

TEST_SUITE_BEGIN("resolution");

TEST_CASE("copies of a view resolve to it") {
  fixture f;
  auto buf = f.h.alloc("buf", 64);
  auto v = f.h.window("v", buf);
  auto c1 = f.h.assign("c1", v);
  auto c2 = f.h.assign("c2", c1);
  f.h.dispatch(f.chip, {c2}, 3);
  f.h.dispatch(f.chip, {c1}, 4);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "buf") == "{3,4}");
  const auto& fp = pl.functions[0];
  REQUIRE(fp.views.size() == 1); // copies are not views themselves
  CHECK(fp.views[0].variable == v.get());
  CHECK(fp.views[0].allocation == 0);
  CHECK(fp.allocations[0].base == buf.get());
}

TEST_CASE("a window of a copy of the allocation pointer is a view of the allocation") {
  fixture f;
  auto buf = f.h.alloc("buf", 64);
  auto p = f.h.assign("p", buf);
  auto q = f.h.assign("q", p);
  auto v1 = f.h.window("v1", buf);
  auto v2 = f.h.window("v2", q);
  f.h.dispatch(f.chip, {v1}, 0);
  f.h.dispatch(f.chip, {v2}, 1);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  const auto& fp = pl.functions[0];
  REQUIRE(fp.allocations.size() == 1);
  REQUIRE(fp.views.size() == 2);
  CHECK(fp.views[0].variable == v1.get());
  CHECK(fp.views[1].variable == v2.get());
  CHECK(fp.views[1].allocation == 0);
  CHECK(fp.allocations[0].view_count == 2);
  std::vector<std::uint32_t> listed;
  for (const auto v : fp.views_of(0))
    listed.push_back(v);
  CHECK(listed == std::vector<std::uint32_t>{0, 1});
  CHECK(coverage(pl, "buf") == "{0,1}");
}

TEST_CASE("each allocation lists its own views in source order, when views interleave") {
  fixture f;
  auto a = f.h.alloc("a", 64);
  auto b = f.h.alloc("b", 64);
  auto a1 = f.h.window("a1", a);
  auto b1 = f.h.window("b1", b);
  auto a2 = f.h.window("a2", a);
  auto b2 = f.h.window("b2", b);
  auto a3 = f.h.window("a3", a);
  f.h.dispatch(f.chip, {a1, b1}, 0);
  f.h.dispatch(f.chip, {a2, b2, a3}, 1);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  const auto& fp = pl.functions[0];
  REQUIRE(fp.views.size() == 5);
  const auto names_of = [&](std::uint32_t al) {
    std::string out;
    for (const auto v : fp.views_of(al))
      out += std::string(fp.views[v].variable->name.view()) + " ";
    return out;
  };
  CHECK(names_of(0) == "a1 a2 a3 ");
  CHECK(names_of(1) == "b1 b2 ");
  CHECK(fp.views_of(0).size() == 3);
  CHECK(fp.views_of(1).front() == 1);
  // A standard forward range, for the algorithms a compiler engineer reaches for.
  using list = decltype(fp.views_of(0));
  static_assert(std::ranges::forward_range<list>);
  static_assert(std::forward_iterator<std::ranges::iterator_t<list>>);
  CHECK(std::ranges::distance(fp.views_of(0)) == 3);
  CHECK(std::ranges::find(fp.views_of(1), 3u) != fp.views_of(1).end());
  CHECK(std::ranges::find(fp.views_of(1), 2u) == fp.views_of(1).end());
}

TEST_CASE("a window of something that is not an allocation is not a view, and an error") {
  fixture f;
  auto buf = f.h.alloc("buf", 64);                // 4
  auto n = f.h.assign("n", 5);
  auto w = f.h.window("w", n);                   // 6: a window of an integer temporary
  auto w2 = f.h.window("w2", fb::name("param")); // 7: of an unbound name
  f.h.dispatch(f.chip, {w, w2}, 0);
  const auto pl = f.analyze();
  // The windows are used on device 0, and no scope would hold them.
  CHECK(diags(pl) == "dead-alloc buf 4:9\nmalformed-op  6:9\nmalformed-op  7:9");
  CHECK(pl.diagnostics[1].why == commscope::reason::window_of_unknown_pointer);
  CHECK(pl.functions[0].views.empty());
  (void)buf;
}

TEST_CASE("a pointer bound twice is followed no further") {
  fixture f;
  auto buf = f.h.alloc("buf", 64); // 4
  auto p = f.h.assign("p", buf);
  f.h.assign_to(p, 0);
  auto v = f.h.window("v", p); // 7: a window of 0
  f.h.dispatch(f.chip, {v}, 0);
  CHECK(diags(f.analyze()) == "dead-alloc buf 4:9\nmalformed-op  7:9");
}

TEST_CASE("a view rebound before its use is no view there, and still a view") {
  fixture f;
  auto buf = f.h.alloc("buf", 64);  // 4
  auto v = f.h.window("v", buf);
  f.h.assign_to(v, 1);
  f.h.dispatch(f.chip, {v}, 0);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "unconsumed-alloc buf 4:9"); // not dead: the view existed
  CHECK(pl.functions[0].views.size() == 1);
}

TEST_CASE("copy cycles resolve to nothing, without looping or crashing") {
  SUBCASE("a = b, b = a as a device") {
    fixture f;
    auto v = f.view("buf");          // 4
    auto a = f.h.new_variable("a");
    auto b = f.h.new_variable("b");
    f.h.assign_to(a, b);             // 6
    f.h.assign_to(b, a);             // 7
    f.h.dispatch(f.chip, {v}, a);    // 8
    f.h.dispatch(f.chip, {v}, b);    // 9
    CHECK(diags(f.analyze()) == "unsupported-device chip 8:9\nunsupported-device chip 9:9");
  }
  SUBCASE("a = a") {
    fixture f;
    auto v = f.view("buf");          // 4
    auto a = f.h.new_variable("a");
    f.h.assign_to(a, a);             // 6
    f.h.dispatch(f.chip, {v}, a);    // 7
    auto r = f.h.for_range("r", a);  // 8: a bound that is a cycle
    f.h.dispatch(f.chip, {v}, r);    // 9
    f.h.end();
    CHECK(diags(f.analyze()) == "unsupported-device chip 7:9\nunsupported-device chip 9:13");
  }
  SUBCASE("a cycle as an allocation pointer and as a view") {
    fixture f;
    auto buf = f.h.alloc("buf", 64);                   // 4
    auto a = f.h.new_variable("a");
    auto b = f.h.new_variable("b");
    auto c = f.h.new_variable("c");
    f.h.assign_to(a, b);                               // 5
    f.h.assign_to(b, c);                               // 6
    f.h.assign_to(c, a);                               // 7
    auto w = f.h.window("w", a);                       // 8: not a view, an error
    auto s = f.view("sig");                            // 9-10
    f.h.dispatch(f.chip, {w, a, b, s}, 0);             // 11
    f.h.collective(operation::allreduce, {s, c});      // 12
    const auto pl = f.analyze();
    CHECK(diags(pl) ==
          "dead-alloc buf 4:9\nmalformed-op  8:9\ncollective-arg-not-window allreduce 12:9");
    REQUIRE(pl.diagnostics.size() == 3);
    CHECK(pl.diagnostics[2].argument == 1);
    (void)buf;
  }
  SUBCASE("a cycle through a collective result") {
    fixture f;
    auto s = f.view("sig");                                    // 4-5
    f.h.dispatch(f.chip, {s}, 0);                              // 6
    auto x = f.h.new_variable("x");
    auto y = f.h.collective("y", operation::allreduce, {x, s}); // 7:13
    f.h.assign_to(x, y);                                        // 8
    f.h.dispatch(f.chip, {y}, 1);                               // 9
    f.h.dispatch(f.chip, {x}, 2);                               // 10
    const auto pl = f.analyze();
    CHECK(diags(pl) == "collective-arg-not-window allreduce 7:13");
  }
}

TEST_CASE("collective results resolve through chains of results and copies") {
  fixture f;
  auto data = f.view("data");
  auto s1 = f.view("s1");
  auto s2 = f.view("s2");
  auto y = f.h.collective("y", operation::allreduce, {data, s1});
  auto y2 = f.h.assign("y2", y);
  auto z = f.h.collective("z", operation::allreduce, {y2, s2});
  auto z2 = f.h.assign("z2", z);
  f.h.dispatch(f.chip, {z2}, 9);
  f.h.dispatch(f.chip, {z}, 8);
  f.h.dispatch(f.chip, {y}, 7);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "data") == "{7,8,9}");
  CHECK(domains(pl) == "[{7,8,9}] data,s1,s2");
}

TEST_CASE("resolution is flow-sensitive: a copy made after its use does not reach it") {
  fixture f;
  auto v = f.view("buf");
  auto c = f.h.new_variable("c");
  f.h.dispatch(f.chip, {c}, 5);
  f.h.assign_to(c, v);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "unconsumed-alloc buf 4:9");
}

// docs/semantics.md, "Rebinding and control flow": one variable object bound several
// times (assign_to), as a front end that does not rename would produce.

TEST_CASE("rebinding: data = allreduce(data, sig) on one variable, straight and in a loop") {
  fixture f;
  auto data = f.view("buf");   // 4-5
  auto sig = f.view("sig");    // 6-7
  auto r = f.h.for_world("r"); // 8
  f.h.dispatch(f.chip, {data}, r);
  f.h.assign_to(data, f.h.operation(operation::allreduce, {data, sig})); // 10
  f.h.end();
  f.h.assign_to(data, f.h.operation(operation::allreduce, {data, sig})); // 11
  f.h.dispatch(f.chip, {data}, 0);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(domains(pl) == "[all] buf,sig");
}

TEST_CASE("rebinding: a use in a loop sees the binding later in the body (next iteration)") {
  fixture f;
  auto v = f.view("buf"); // 4-5
  auto c = f.h.new_variable("c");
  f.h.for_range("k", 2);        // 6
  f.h.dispatch(f.chip, {c}, 5); // 7: c from the previous iteration
  f.h.assign_to(c, v);          // 8
  f.h.end();
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "buf") == "{5}");
}

TEST_CASE("rebinding: after a binding in one branch the variable may be either view") {
  fixture f;
  auto data = f.view("a");         // 4-5
  auto w = f.view("b");            // 6-7
  f.h.begin_if(1);                 // 8
  f.h.dispatch(f.chip, {data}, 1); // 9: before the rebinding, data is a's view
  f.h.assign_to(data, w);          // 10
  f.h.end();
  f.h.dispatch(f.chip, {data}, 2); // 11: a's or b's view: both
  f.h.dispatch(f.chip, {w}, 3);    // 12
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{1,2}");
  CHECK(coverage(pl, "b") == "{2,3}");
}

TEST_CASE("rebinding: a binding that both branches agree on stays exact") {
  fixture f;
  auto data = f.view("a"); // 4-5
  f.h.begin_while(1);
  f.h.assign_to(data, data); // a copy of itself: every binding is a's view
  f.h.end();
  f.h.dispatch(f.chip, {data}, 4);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{4}");
}

TEST_CASE("views are resolved per function") {
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip");
  auto& h1 = pb.host_orchestrator("one");
  auto v1 = h1.window("v", h1.alloc("a", 8));
  h1.dispatch(chip, {v1}, 1);
  auto& h2 = pb.host_orchestrator("two");
  auto b = h2.alloc("b", 8);                     // 8
  h2.window("w", b);
  h2.dispatch(chip, {v1}, 2); // a view of the other function: nothing here
  const program_ptr p = pb.finish();
  const auto pl = commscope::analyze(p);
  CHECK(diags(pl) == "unconsumed-alloc b 8:9");
  CHECK(coverage(pl, "a") == "{1}");
}

TEST_SUITE_END();
