// docs/semantics.md, "Device descriptors": every row of the table, on the reference IR.
//
// Every program here starts with chip (lines 1-2), host (line 3), buf (line 4) and
// buf_v = window(buf) (line 5); a dispatch at top level is at column 9, inside one
// loop at column 13.
#include "pass_support.hpp"

#include <cstdint>

using namespace pass_test;
using fb = ref::function_builder;

TEST_SUITE_BEGIN("descriptors");

TEST_CASE("integer constant N >= 0 gives {N}") {
  CHECK(descriptor_of([](fb&) { return device_form{0}; }) == "{0}");
  CHECK(descriptor_of([](fb&) { return device_form{3}; }) == "{3}");
  CHECK(descriptor_of([](fb&) { return device_form{std::int64_t{1048575}}; }) == "{1048575}");
}

TEST_CASE("a negative constant is negative-device at the call") {
  CHECK(descriptor_of([](fb&) { return device_form{-2}; }) == "negative-device chip 6:9");
  fixture f;
  f.h.dispatch(f.chip, {f.view("buf")}, -7);
  const auto pl = f.analyze();
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].device == -7);
  CHECK(pl.diagnostics[0].message() == "the dispatch of 'chip' uses negative device -7");
}

TEST_CASE("constants through temporaries: n = 2, d = n") {
  CHECK(descriptor_of([](fb& h) {
          auto n = h.assign("n", 2);
          return device_form{h.assign("d", n)};
        }) == "{2}");
  CHECK(descriptor_of([](fb& h) {
          auto n = h.assign("n", -1);
          auto d = h.assign("d", n);
          return device_form{h.assign("e", d)};
        }) == "negative-device chip 9:9");
}

TEST_CASE("the variable of for r in range(world_size()) gives all") {
  CHECK(descriptor_of([](fb& h) { return device_form{h.for_world("r"), 1}; }) == "all");
  // A copy of the loop variable inside the loop.
  CHECK(descriptor_of([](fb& h) {
          auto r = h.for_world("r");
          return device_form{h.assign("d", r), 1};
        }) == "all");
}

TEST_CASE("world loop bounds may reach world_size() through temporaries") {
  CHECK(descriptor_of([](fb& h) {
          auto n = h.assign("n", h.world_size());
          auto m = h.assign("m", n);
          auto zero = h.assign("zero", 0);
          auto one = h.assign("one", 1);
          return device_form{h.for_range("r", zero, m, one), 1};
        }) == "all");
  CHECK(descriptor_of([](fb& h) {
          auto n = h.assign("n", h.world_size());
          return device_form{h.for_range("r", n), 1};
        }) == "all");
}

TEST_CASE(
    "range(start, world_size(), step) with a descending or zero step is partial-world-range") {
  // The loop is line 6, the dispatch line 7 column 13.
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 1, h.world_size(), -1), 1};
        }) == "partial-world-range chip 7:13");
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 0, h.world_size(), 0), 1};
        }) == "partial-world-range chip 7:13");
  CHECK(descriptor_of([](fb& h) {
          auto n = h.assign("n", h.world_size());
          auto s = h.assign("s", 3);
          return device_form{h.for_range("r", s, n, -1), 1};
        }) == "partial-world-range chip 9:13");
  // A world loop whose start is not a known constant is outside the table.
  CHECK(descriptor_of([](fb& h) {
          auto s = h.new_variable("s"); // bound by nothing: a parameter
          return device_form{h.for_range("r", s, h.world_size(), 1), 1};
        }) == "unsupported-device chip 7:13");
}

TEST_CASE("constant loops with step 1") {
  CHECK(descriptor_of([](fb& h) { return device_form{h.for_range("r", 4), 1}; }) == "{0,1,2,3}");
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 2, 5, 1), 1};
        }) == "{2,3,4}");
  CHECK(descriptor_of([](fb& h) {
          auto n = h.assign("n", 3);
          auto m = h.assign("m", n);
          return device_form{h.for_range("r", m), 1};
        }) == "{0,1,2}");
}

TEST_CASE("constant loops with step 2 and descending steps") {
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 1, 8, 2), 1};
        }) == "{1,3,5,7}");
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 0, 7, 3), 1};
        }) == "{0,3,6}");
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 6, 0, -2), 1};
        }) == "{2,4,6}");
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 3, -1, -1), 1};
        }) == "{0,1,2,3}");
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 9, 0, -4), 1};
        }) == "{1,5,9}");
}

TEST_CASE("empty ranges contribute nothing, and only empty ranges is empty-coverage") {
  // Only coverage from an empty loop: empty-coverage at the allocation (line 4).
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 0), 1};
        }) == "empty-coverage buf 4:9");
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 5, 2, 1), 1};
        }) == "empty-coverage buf 4:9");
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 2, 5, -1), 1};
        }) == "empty-coverage buf 4:9");
  // An empty loop beside a real dispatch: the empty one adds nothing.
  fixture f;
  auto data = f.view("buf");
  auto r = f.h.for_range("r", 3, 3, 1);
  f.h.dispatch(f.chip, {data}, r);
  f.h.end();
  f.h.dispatch(f.chip, {data}, 5);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "buf") == "{5}");
}

TEST_CASE("a negative element of a constant loop is negative-device") {
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", -2, 3, 1), 1};
        }) == "negative-device chip 7:13");
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 2, -3, -1), 1};
        }) == "negative-device chip 7:13");
  fixture f;
  auto data = f.view("buf");
  auto r = f.h.for_range("r", 4, -5, -3); // 4, 1, -2
  f.h.dispatch(f.chip, {data}, r);
  f.h.end();
  const auto pl = f.analyze();
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].code == error_code::negative_device);
  CHECK(pl.diagnostics[0].device == -2);
}

TEST_CASE("step 0 is unsupported-device") {
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 0, 4, 0), 1};
        }) == "unsupported-device chip 7:13");
  CHECK(descriptor_of([](fb& h) {
          auto z = h.assign("z", 0);
          return device_form{h.for_range("r", 0, 4, z), 1};
        }) == "unsupported-device chip 8:13");
}

TEST_CASE("device-out-of-range: constants and loops at or above the limit") {
  CHECK(descriptor_of([](fb&) { return device_form{std::int64_t{1048576}}; }) ==
        "device-out-of-range chip 6:9");
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 1048570, 1048577, 1), 1};
        }) == "device-out-of-range chip 7:13");
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", 1048570, 1048576, 1), 1};
        }) == "{1048570,1048571,1048572,1048573,1048574,1048575}");
}

TEST_CASE("range(4000000000) is judged without enumerating it") {
  for (std::int64_t step : {1, 2, 7}) {
    CAPTURE(step);
    fixture f;
    auto data = f.view("buf");
    auto r = f.h.for_range("r", 0, std::int64_t{4000000000}, step);
    f.h.dispatch(f.chip, {data}, r);
    f.h.end();
    const auto pl = f.analyze();
    CHECK(diags(pl) == "device-out-of-range chip 7:13");
    REQUIRE(pl.diagnostics.size() == 1);
    // The largest element: 3999999999 rounded down to the progression.
    CHECK(pl.diagnostics[0].device == (std::int64_t{4000000000} - 1) / step * step);
    CHECK(pl.diagnostics[0].limit == 1048576);
  }
  // Descending from far away: the largest element is the start.
  CHECK(descriptor_of([](fb& h) {
          return device_form{h.for_range("r", std::int64_t{4000000000}, 0, -1), 1};
        }) == "device-out-of-range chip 7:13");
}

TEST_CASE("loop bounds at and beyond 32 bits keep their exact values") {
  // The walk keeps a bound below 2^32 - 1 in 32 bits and any other beside the loop: the
  // reported device is exact either way.
  struct row {
    std::int64_t start, stop, step, device;
  };
  constexpr std::int64_t w = std::int64_t{1} << 32;
  for (const row r : {row{0, w + 5, 1, w + 4}, row{w - 1, w, 1, w - 1}, row{w - 2, w - 1, 1, w - 2},
                      row{std::int64_t{1} << 40, 0, -(w << 7), std::int64_t{1} << 40},
                      row{-3, 2, 1, -3}, row{5, -w, -w, 5 - w}}) {
    CAPTURE(r.start);
    CAPTURE(r.stop);
    CAPTURE(r.step);
    fixture f;
    auto data = f.view("buf");
    auto v = f.h.for_range("r", r.start, r.stop, r.step);
    f.h.dispatch(f.chip, {data}, v);
    f.h.end();
    const auto pl = f.analyze();
    REQUIRE(pl.diagnostics.size() == 1);
    CHECK(pl.diagnostics[0].device == r.device);
  }
}

TEST_CASE("a variable that is no enclosing loop's variable is unsupported-device") {
  SUBCASE("the loop variable used after its loop") {
    fixture f;
    auto data = f.view("buf");
    auto r = f.h.for_range("r", 4); // line 6
    f.h.dispatch(f.chip, {data}, 0);
    f.h.end();
    f.h.dispatch(f.chip, {data}, r); // line 8
    CHECK(diags(f.analyze()) == "unsupported-device chip 8:9");
  }
  SUBCASE("a copy of the loop variable used after its loop") {
    fixture f;
    auto data = f.view("buf");
    auto r = f.h.for_range("r", 4); // line 6
    auto d = f.h.assign("d", r);
    f.h.end();
    f.h.dispatch(f.chip, {data}, d); // line 8
    CHECK(diags(f.analyze()) == "unsupported-device chip 8:9");
  }
  SUBCASE("a loop variable used before its loop") {
    fixture f;
    auto data = f.view("buf");
    auto r = f.h.new_variable("r");
    f.h.dispatch(f.chip, {data}, r); // line 6
    f.h.for_range("r", 4);
    f.h.end();
    CHECK(diags(f.analyze()) == "unsupported-device chip 6:9");
  }
  SUBCASE("an unbound variable (a parameter)") {
    CHECK(descriptor_of([](fb& h) { return device_form{h.new_variable("rank")}; }) ==
          "unsupported-device chip 6:9");
  }
  SUBCASE("a variable bound twice: the binding that reaches the dispatch") {
    CHECK(descriptor_of([](fb& h) {
            auto x = h.assign("x", 1);
            h.assign_to(x, 2);
            return device_form{x};
          }) == "{2}");
  }
  SUBCASE("any other expression") {
    CHECK(descriptor_of([](fb& h) {
            auto r = h.for_range("r", 4);
            return device_form{fb::add(r, 1), 1};
          }) == "unsupported-device chip 7:13");
    CHECK(descriptor_of([](fb& h) { return device_form{h.world_size()}; }) ==
          "unsupported-device chip 6:9");
    CHECK(descriptor_of([](fb& h) {
            auto w = h.assign("w", h.world_size()); // world_size() is a bound, not a device
            return device_form{w};
          }) == "unsupported-device chip 7:9");
  }
  SUBCASE("a loop with an unknown bound") {
    CHECK(descriptor_of([](fb& h) {
            return device_form{h.for_range("r", h.new_variable("n")), 1};
          }) == "unsupported-device chip 7:13");
  }
}

TEST_CASE("a dispatch without device= contributes nothing") {
  fixture f;
  auto data = f.view("buf");
  f.h.dispatch(f.chip, {data}, std::nullopt);
  CHECK(diags(f.analyze()) == "unconsumed-alloc buf 4:9");

  fixture g;
  auto d2 = g.view("buf");
  g.h.dispatch(g.chip, {d2}, std::nullopt);
  g.h.dispatch(g.chip, {d2}, 1);
  const auto pl = g.analyze();
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "buf") == "{1}");
}

TEST_CASE("calls of functions that are not chip orchestrators are not dispatches: a view "
          "passed to one escapes") {
  program_builder pb;
  auto incore = pb.other_function("kernel", commscope::level::chip, false, false); // 1-2
  auto graph = pb.other_function("graph", commscope::level::chip, true, true);     // 3-4
  auto host_fn = pb.other_function("helper", commscope::level::host, true, false); // 5-6
  auto chip = pb.chip_orchestrator("chip");                                        // 7-8
  auto& h = pb.host_orchestrator("host");                                          // 9
  auto buf = h.alloc("buf", 64);                                                   // 10
  auto data = h.window("data", buf);                                               // 11
  // Not dispatches: their device= forms are not even judged. The pass does not follow
  // the view into them: each call is view-escapes, and buf is not reported again.
  h.dispatch(incore, {data}, -1);
  h.dispatch(graph, {data}, -1);
  h.dispatch(host_fn, {data}, -1);
  const program_ptr p = pb.finish();
  CHECK(diags(commscope::analyze(p)) ==
        "view-escapes buf 12:9\nview-escapes buf 13:9\nview-escapes buf 14:9");
  (void)chip;
}

TEST_CASE("nested loops: the descriptor comes from the loop whose variable is used") {
  CHECK(descriptor_of([](fb& h) {
          auto i = h.for_range("i", 2);
          h.for_world("r");
          return device_form{i, 2};
        }) == "{0,1}");
  CHECK(descriptor_of([](fb& h) {
          h.for_range("i", 2);
          return device_form{h.for_world("r"), 2};
        }) == "all");
  CHECK(descriptor_of([](fb& h) {
          h.for_range("i", 2);
          return device_form{h.for_range("j", 10, 13, 2), 2};
        }) == "{10,12}");
}

TEST_CASE("while and if between the loop and the dispatch") {
  CHECK(descriptor_of([](fb& h) {
          auto r = h.for_range("r", 3);
          h.begin_while(fb::name("cond"));
          h.begin_if(fb::name("flag"));
          return device_form{r, 3};
        }) == "{0,1,2}");
  // The else branch of an if inside a world loop; the dispatch is at depth 3.
  fixture f;
  auto data = f.view("buf");
  auto r = f.h.for_world("r");     // 6
  f.h.begin_if(fb::name("flag"));  // 7
  f.h.dispatch(f.chip, {data}, 0); // 8
  f.h.begin_else();
  f.h.begin_while(fb::name("c"));   // 9
  f.h.dispatch(f.chip, {data}, -1); // 10, column 9 + 4 * 3
  f.h.end();
  f.h.end();
  f.h.end();
  (void)r;
  CHECK(diags(f.analyze()) == "negative-device chip 10:21");
}

TEST_CASE("a dispatch's descriptors are joined per allocation and all absorbs") {
  fixture f;
  auto a = f.view("a");
  auto b = f.view("b");
  f.h.dispatch(f.chip, {a, b}, 0);
  f.h.dispatch(f.chip, {a}, 2);
  auto r = f.h.for_range("r", 4, 6, 1);
  f.h.dispatch(f.chip, {a}, r);
  f.h.end();
  auto w = f.h.for_world("w");
  f.h.dispatch(f.chip, {b}, w);
  f.h.end();
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{0,2,4,5}");
  CHECK(coverage(pl, "b") == "all");
}

TEST_SUITE_END();
