// docs/semantics.md, "Errors": every code with its exact line:column, messages, programs
// with many errors (all reported, in source order), and the no-cascade reporting rules.
//
// Lines: chip 1-2, host 3, first statement 4. Columns: a statement at depth k starts at
// 9 + 4k; a call after `target = ` starts target.size() + 3 further.
#include "pass_support.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace pass_test;
using fb = ref::function_builder;

TEST_SUITE_BEGIN("errors");

TEST_CASE("dead-alloc: an allocation without a window view, at its assignment") {
  fixture f;
  f.h.alloc("buf", 64);                // 4:9
  auto r = f.h.for_range("r", 2);      // 5
  f.h.alloc("inner", 8);               // 6:13
  f.h.end();
  (void)r;
  const auto pl = f.analyze();
  CHECK(diags(pl) == "dead-alloc buf 4:9\ndead-alloc inner 6:13");
  CHECK(pl.diagnostics[0].message() == "allocation 'buf' has no window view");
}

TEST_CASE("dead-alloc: the allocation pointer passed without a window is no view") {
  fixture f;
  auto buf = f.h.alloc("buf", 64); // 4
  f.h.dispatch(f.chip, {buf}, 0);
  CHECK(diags(f.analyze()) == "dead-alloc buf 4:9");
}

TEST_CASE("unconsumed-alloc: views but no dispatch or collective") {
  fixture f;
  auto buf = f.h.alloc("buf", 64, "named"); // 4, name= override
  auto v = f.h.window("v", buf);
  f.h.assign("copy", v);
  f.h.return_value({v});
  const auto pl = f.analyze();
  CHECK(diags(pl) == "unconsumed-alloc named 4:9");
  CHECK(pl.diagnostics[0].message() ==
        "allocation 'named' has views but no dispatch or collective gives it devices");
}

TEST_CASE("empty-coverage: only empty loops dispatch the allocation") {
  fixture f;
  auto v = f.view("buf");          // 4
  auto r = f.h.for_range("r", 0);  // 6
  f.h.dispatch(f.chip, {v}, r);
  f.h.end();
  const auto pl = f.analyze();
  CHECK(diags(pl) == "empty-coverage buf 4:9");
  CHECK(pl.diagnostics[0].message() ==
        "allocation 'buf' is only dispatched from empty loops, so its device set is empty");
}

TEST_CASE("a collective whose data has empty coverage is uncovered, once") {
  fixture f;
  auto d = f.view("d");            // 4
  auto s = f.view("s");            // 6
  auto r = f.h.for_range("r", 0);  // 8
  f.h.dispatch(f.chip, {d}, r);
  f.h.end();
  f.h.collective(operation::allreduce, {d, s}); // 10: d has bottom, but was dispatched
  // One diagnostic: d is an argument of a reported collective, so its own empty-coverage
  // is not reported again (docs/semantics.md, "Reporting rules").
  CHECK(diags(f.analyze()) == "uncovered-collective allreduce 10:9");
}

TEST_CASE("the device errors carry the call's location and their numbers") {
  fixture f;
  auto v = f.view("buf");                               // 4
  auto r = f.h.for_range("r", 2);                       // 6
  auto w = f.h.for_range("w", 0, f.h.world_size(), 0);  // 7
  f.h.dispatch(f.chip, {v}, fb::add(r, w));             // 8:17 unsupported
  f.h.dispatch(f.chip, {v}, -3);                        // 9:17 negative
  f.h.dispatch(f.chip, {v}, std::int64_t{2000000});     // 10:17 out of range
  f.h.dispatch(f.chip, {v}, w);                         // 11:17 partial
  f.h.end();
  f.h.end();
  const auto pl = f.analyze();
  CHECK(diags(pl) == "unsupported-device chip 8:17\n"
                     "negative-device chip 9:17\n"
                     "device-out-of-range chip 10:17\n"
                     "partial-world-range chip 11:17");
  REQUIRE(pl.diagnostics.size() == 4);
  CHECK(pl.diagnostics[1].device == -3);
  CHECK(pl.diagnostics[2].device == 2000000);
  CHECK(pl.diagnostics[2].limit == 1048576);
  CHECK(pl.diagnostics[0].message() ==
        "cannot infer the devices of the dispatch of 'chip' from its device= expression, which is "
        "neither an integer constant nor a variable");
  CHECK(pl.diagnostics[2].message() ==
        "the dispatch of 'chip' uses device 2000000, at or above the device limit 1048576");
  CHECK(pl.diagnostics[3].message() ==
        "the dispatch of 'chip' iterates over the world with a negative start, a step below 1 or "
        "a stop past world_size(): a scope holds range(START, world_size() - C, STEP) only for "
        "START >= 0, STEP >= 1 and C >= 0");
}

TEST_CASE("unsupported-device says what of device= the pass could not follow") {
  fixture f;
  auto v = f.view("buf");                       // 4
  auto k = f.h.assign("k", fb::name("opaque")); // 6
  f.h.dispatch(f.chip, {v}, k);                 // 7: a value the pass cannot know
  f.h.dispatch(f.chip, {v}, fb::add(k, 1));     // 8: an expression
  auto r = f.h.for_range("r", 0, k, 1);         // 9
  f.h.dispatch(f.chip, {v}, r);                 // 10: a loop bound the pass cannot know
  f.h.end();
  auto s = f.h.for_range("s", 0, 4, 0); // 11
  f.h.dispatch(f.chip, {v}, s);         // 12: a loop that never advances
  f.h.end();
  f.h.dispatch(f.chip, {v}, r);       // 13: a loop that has ended
  auto i = f.h.assign("i", 0);        // 14
  f.h.begin_while(fb::name("again")); // 15
  f.h.dispatch(f.chip, {v}, i);       // 16: a counter carried around the loop
  f.h.assign_to(i, fb::add(i, 1));    // 17
  f.h.end();
  const auto pl = f.analyze();
  CHECK(diags(pl) == "unsupported-device chip 7:9\nunsupported-device chip 8:9\n"
                     "unsupported-device chip 10:13\nunsupported-device chip 12:13\n"
                     "unsupported-device chip 13:9\nunsupported-device chip 16:13");
  REQUIRE(pl.diagnostics.size() == 6);
  using commscope::reason;
  CHECK(pl.diagnostics[0].why == reason::device_variable);
  CHECK(pl.diagnostics[1].why == reason::device_expression);
  CHECK(pl.diagnostics[2].why == reason::device_loop_bounds);
  CHECK(pl.diagnostics[3].why == reason::device_loop_step);
  CHECK(pl.diagnostics[4].why == reason::device_loop_ended);
  CHECK(pl.diagnostics[5].why == reason::device_variable);
  // The loop's own cases point at the loop that binds the device variable.
  for (const std::size_t k : {0, 1, 5})
    CHECK(pl.diagnostics[k].notes.empty());
  for (const auto& [k, line] : {std::pair{2, 9}, std::pair{3, 11}, std::pair{4, 9}}) {
    REQUIRE(pl.diagnostics[k].notes.size() == 1);
    CHECK(pl.diagnostics[k].notes[0].what == commscope::note_kind::variable_loop);
    CHECK(pl.diagnostics[k].notes[0].where.line == line);
    CHECK(pl.diagnostics[k].notes[0].message() == "the device variable is bound by this loop");
  }
  CHECK(pl.diagnostics[2].message() ==
        "cannot infer the devices of the dispatch of 'chip' from its device= expression: it is "
        "the variable of a loop whose bounds are not all integer constants or the world size");
  CHECK(pl.diagnostics[4].help() == "dispatch inside the loop, or pass an integer constant");
}

TEST_CASE("device literals are judged the same on each side of 32 bits") {
  // The walk keeps a literal below 2^32 - 1 in the dispatch's record and reads any other
  // from the IR again (collect.hpp, device_form): both give the same numbers.
  fixture f;
  auto v = f.view("buf");                                               // 4
  f.h.dispatch(f.chip, {v}, std::int64_t{4294967294});                  // 6:9
  f.h.dispatch(f.chip, {v}, std::int64_t{4294967295});                  // 7:9
  f.h.dispatch(f.chip, {v}, std::int64_t{1} << 40);                     // 8:9
  f.h.dispatch(f.chip, {v}, std::numeric_limits<std::int64_t>::min()); // 9:9
  f.h.dispatch(f.chip, {v}, std::int64_t{1048575});                     // 10: the last device
  const auto pl = f.analyze();
  CHECK(diags(pl) == "device-out-of-range chip 6:9\n"
                     "device-out-of-range chip 7:9\n"
                     "device-out-of-range chip 8:9\n"
                     "negative-device chip 9:9");
  REQUIRE(pl.diagnostics.size() == 4);
  CHECK(pl.diagnostics[0].device == 4294967294);
  CHECK(pl.diagnostics[1].device == 4294967295);
  CHECK(pl.diagnostics[2].device == std::int64_t{1} << 40);
  CHECK(pl.diagnostics[3].device == std::numeric_limits<std::int64_t>::min());
}

TEST_CASE("duplicate-name: two allocations of one domain, reported at the later one") {
  fixture f;
  auto a = f.h.window("a_v", f.h.alloc("a", 64, "x"));       // 4-5
  auto b = f.h.window("b_v", f.h.alloc("b", 64, "x"));       // 6-7
  auto c = f.h.window("c_v", f.h.alloc("c", 64, "x"));       // 8-9
  auto other = f.h.window("o_v", f.h.alloc("o", 64, "x"));   // 10-11
  f.h.dispatch(f.chip, {a, b, c}, 0);
  f.h.dispatch(f.chip, {other}, 1); // another domain: no clash
  const auto pl = f.analyze();
  CHECK(diags(pl) == "duplicate-name x 6:9\nduplicate-name x 8:9");
  CHECK(pl.diagnostics[0].message() == "allocation name 'x' is used twice in one comm domain");
}

TEST_CASE("duplicate-name: names are compared within a domain, whatever lies between") {
  fixture f;
  auto a = f.h.window("a_v", f.h.alloc("a", 64, "x")); // 4-5, domain {0}
  auto b = f.h.window("b_v", f.h.alloc("b", 64, "x")); // 6-7, domain {1}
  auto c = f.h.window("c_v", f.h.alloc("c", 64, "y")); // 8-9, domain {0}
  auto d = f.h.window("d_v", f.h.alloc("d", 64, "x")); // 10-11, domain {0}
  auto e = f.h.window("e_v", f.h.alloc("e", 64, "y")); // 12-13, domain {1}
  f.h.dispatch(f.chip, {a, c, d}, 0);
  f.h.dispatch(f.chip, {b, e}, 1);
  const auto pl = f.analyze();
  CHECK(diags(pl) == "duplicate-name x 10:9");
  REQUIRE(pl.diagnostics.size() == 1);
  REQUIRE(pl.diagnostics[0].notes.size() == 1);
  CHECK(pl.diagnostics[0].notes[0].what == commscope::note_kind::earlier_allocation);
  CHECK(pl.diagnostics[0].notes[0].where.line == 4);
  REQUIRE(pl.functions[0].domains.size() == 2);
  CHECK(pl.functions[0].domains[0].slots == std::vector<std::uint32_t>{0, 2, 3});
  CHECK(pl.functions[0].domains[1].slots == std::vector<std::uint32_t>{1, 4});
}

TEST_CASE("malformed-op: an allocation that is not assigned directly") {
  fixture f;
  auto v = f.view("buf"); // 4
  f.h.dispatch(f.chip, {v}, 0);
  f.h.evaluate(f.h.operation(operation::alloc_window_buffer, {8}));                // 7:9
  f.h.assign("x", fb::add(f.h.operation(operation::alloc_window_buffer, {8}), 1)); // 8:13
  const auto pl = f.analyze();
  CHECK(diags(pl) == "malformed-op pld.tensor.alloc_window_buffer 7:9\n"
                     "malformed-op pld.tensor.alloc_window_buffer 8:13");
  REQUIRE(pl.diagnostics.size() == 2);
  CHECK(pl.diagnostics[0].why == commscope::reason::alloc_not_assigned);
  CHECK(pl.diagnostics[0].message() ==
        "allocation 'pld.tensor.alloc_window_buffer' must be assigned directly to one variable");
  CHECK(pl.functions[0].allocations.size() == 1); // only buf is an allocation
}

TEST_CASE("malformed-op: an allocation with the wrong number of arguments") {
  fixture f;
  f.h.alloc_with("a", {});          // 4: the call after `a = `, column 13
  f.h.alloc_with("bb", {1, 2});     // 5: column 14
  const auto pl = f.analyze();
  CHECK(diags(pl) == "malformed-op alloc_window_buffer 4:13\n"
                     "malformed-op alloc_window_buffer 5:14");
  REQUIRE(pl.diagnostics.size() == 2);
  CHECK(pl.diagnostics[0].arity == 0);
  CHECK(pl.diagnostics[1].arity == 2);
  CHECK(pl.diagnostics[1].expected_arity == 1);
  CHECK(pl.diagnostics[1].message() ==
        "operation 'alloc_window_buffer' takes 1 positional argument, got 2");
  CHECK(pl.functions[0].allocations.empty()); // malformed: not recorded, so not dead
}

TEST_CASE("malformed-op: a call of an unknown function") {
  fixture f;
  auto v = f.view("buf");                              // 4
  f.h.dispatch(f.chip, {v}, 0);                        // 6
  f.h.evaluate(f.h.call_unknown("nope", {v}));         // 7:9
  f.h.assign("y", f.h.call_unknown("later", {}));      // 8:13
  const auto pl = f.analyze();
  CHECK(diags(pl) == "malformed-op nope 7:9\nmalformed-op later 8:13");
  CHECK(pl.diagnostics[0].why == commscope::reason::unknown_callee);
  CHECK(pl.diagnostics[0].message() == "call of unknown function 'nope'");
}

TEST_CASE("malformed-op: the views passed to a device= call of an unknown function") {
  fixture f;
  auto v = f.view("buf");
  f.h.evaluate(f.h.call(nullptr, {v}, 0)); // no dispatch, and no unconsumed-alloc after it
  const auto pl = f.analyze();
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].why == commscope::reason::unknown_callee);
}

TEST_CASE("malformed-op: a window that is not assigned directly, and nothing else for it") {
  // A view is typed with its window buffer through its variable: a window nested in an
  // expression has none. Dropped, its dispatch's devices would be missing from buf's set.
  fixture f;
  auto buf = f.h.alloc("buf", 64);  // 4
  auto only = f.h.alloc("only", 8); // 5: its one window is nested: no dead-alloc after it
  auto v = f.h.window("v", buf);    // 6
  f.h.dispatch(f.chip, {v}, 0);
  f.h.dispatch(f.chip, {f.h.operation(operation::window, {buf, fb::list({8}), 1})}, 1); // 8
  f.h.assign("t", fb::list({f.h.operation(operation::window, {only, fb::list({8}), 1})})); // 9
  f.h.evaluate(f.h.operation(operation::window, {fb::name("ext"), fb::list({8}), 1})); // 10
  const auto pl = f.analyze();
  CHECK(diags(pl) == "malformed-op buf 8:9\nmalformed-op only 9:13"); // 10 names no allocation
  REQUIRE(pl.diagnostics.size() == 2);
  CHECK(pl.diagnostics[0].why == commscope::reason::window_not_assigned);
  CHECK(pl.diagnostics[0].message() ==
        "a window of allocation 'buf' must be assigned directly to one variable: the rewrite "
        "gives a view its window buffer through its variable");
  REQUIRE(pl.diagnostics[0].notes.size() == 1);
  CHECK(pl.diagnostics[0].notes[0].where.line == 4);
}

TEST_CASE("a window whose pointer is an expression views what the pointer names") {
  fixture f;
  auto buf = f.h.alloc("buf", 64); // 4
  auto v = f.h.window("v", buf);
  f.h.dispatch(f.chip, {v}, 0);
  auto w = f.h.window("w", fb::add(buf, 0)); // derived from buf: a view of it
  f.h.dispatch(f.chip, {w}, 1);
  const auto pl = f.analyze();
  CHECK(coverage(pl, "buf") == "{0,1}");
  CHECK(pl.functions[0].views.size() == 2);
}

TEST_CASE("malformed-op: window with the wrong number of arguments") {
  fixture f;
  auto buf = f.h.alloc("buf", 64);                                               // 4
  f.h.assign("w1", f.h.operation(operation::window, {buf}));                     // 5:14
  f.h.assign("w4", f.h.operation(operation::window, {buf, fb::list({8}), 1, 2})); // 6:14
  const auto pl = f.analyze();
  // buf has no well-formed window: it is dead as well (dead-alloc is always reported).
  CHECK(diags(pl) == "dead-alloc buf 4:9\n"
                     "malformed-op window 5:14\n"
                     "malformed-op window 6:14");
  REQUIRE(pl.diagnostics.size() == 3);
  CHECK(pl.diagnostics[1].arity == 1);
  // The bound each misses: ptr and shape are positional, dtype may be a keyword.
  CHECK(pl.diagnostics[1].expected_arity == 2);
  CHECK(pl.diagnostics[1].message() == "operation 'window' takes 2 positional arguments, got 1");
  CHECK(pl.diagnostics[2].arity == 4);
  CHECK(pl.diagnostics[2].message() == "operation 'window' takes 3 positional arguments, got 4");
}

TEST_CASE("malformed-op: world_size with arguments") {
  fixture f;
  f.h.assign("n", f.h.operation(operation::world_size, {1})); // 4:13
  CHECK(diags(f.analyze()) == "malformed-op world_size 4:13");
}

TEST_CASE("the collective codes, each at its call") {
  fixture f;
  auto d = f.view("d");    // 4
  auto s = f.view("s");    // 6
  auto u = f.view("u");    // 8
  auto b = f.view("b");    // 10
  auto t = f.view("t");    // 12
  f.h.dispatch(f.chip, {d, t}, 0);                                   // 14
  f.h.collective(operation::allreduce, {d, 5});                      // 15 not-window
  f.h.collective(operation::allreduce, {u, s});                      // 16 uncovered
  f.h.collective(operation::barrier, {b});                           // 17 no coverage
  f.h.for_range("i", 2);                                             // 18
  f.h.collective("z", operation::all_to_all_v, {0, t, s, 0, t});     // 19:17 in loop
  f.h.end();
  const auto pl = f.analyze();
  CHECK(diags(pl) == "collective-arg-not-window allreduce 15:9\n"
                     "uncovered-collective allreduce 16:9\n"
                     "barrier-no-coverage barrier 17:9\n"
                     "collective-in-loop all_to_all_v 19:17");
  REQUIRE(pl.diagnostics.size() == 4);
  CHECK(pl.diagnostics[1].message() == "the buffer of collective 'allreduce' has no devices to pass on");
  CHECK(pl.diagnostics[3].message() ==
        "collective 'all_to_all_v' cannot run inside a loop: its signal is single-use");
}

TEST_CASE("every error of a program is reported, in source order, across functions") {
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip");                 // 1-2
  auto& h1 = pb.host_orchestrator("first");                 // 3
  h1.alloc("dead", 8);                                      // 4
  auto x = h1.window("x_v", h1.alloc("x", 8));              // 5-6
  h1.dispatch(chip, {x}, -1);                               // 7
  h1.window("u_v", h1.alloc("u", 8));                       // 8-9
  h1.evaluate(h1.call_unknown("nope", {}));                 // 10
  auto& h2 = pb.host_orchestrator("second");                // 11
  auto e = h2.window("e_v", h2.alloc("e", 8));              // 12-13
  auto p = h2.window("p_v", h2.alloc("p", 8));              // 14-15
  auto r = h2.for_range("r", 0);                            // 16
  h2.dispatch(chip, {e}, r);                                // 17
  h2.end();
  auto w = h2.for_range("w", 1, h2.world_size(), -1);        // 18
  h2.dispatch(chip, {p}, w);                                // 19:13
  h2.end();
  auto q = h2.window("q_v", h2.alloc("q", 8));              // 20-21
  h2.collective(operation::barrier, {q});                   // 22
  const program_ptr prog = pb.finish();
  const auto pl = commscope::analyze(prog);
  // u's diagnostic (line 8) is found after the call on line 10, but sorts before it.
  CHECK(diags(pl) == "dead-alloc dead 4:9\n"
                     "negative-device chip 7:9\n"
                     "unconsumed-alloc u 8:9\n"
                     "malformed-op nope 10:9\n"
                     "empty-coverage e 12:9\n"
                     "partial-world-range chip 19:13\n"
                     "barrier-no-coverage barrier 22:9");
  CHECK(pl.functions.size() == 2);
}

TEST_CASE("no cascade: a reported dispatch suppresses its arguments' allocation errors") {
  SUBCASE("unconsumed") {
    fixture f;
    auto v = f.view("buf");            // 4
    f.h.dispatch(f.chip, {v}, -1);     // 6
    CHECK(diags(f.analyze()) == "negative-device chip 6:9");
  }
  SUBCASE("through a copy of the view") {
    fixture f;
    auto v = f.view("buf");            // 4
    auto c = f.h.assign("c", v);       // 6
    auto r = f.h.for_range("r", 1, f.h.world_size(), -1); // 7
    f.h.dispatch(f.chip, {c}, r);      // 8:13
    f.h.end();
    CHECK(diags(f.analyze()) == "partial-world-range chip 8:13");
  }
  SUBCASE("empty") {
    fixture f;
    auto v = f.view("buf");            // 4
    auto r = f.h.for_range("r", 0);    // 6
    f.h.dispatch(f.chip, {v}, r);
    f.h.end();
    f.h.dispatch(f.chip, {v}, fb::name("rank")); // 8: unsupported
    CHECK(diags(f.analyze()) == "unsupported-device chip 8:9");
  }
  SUBCASE("duplicate") {
    fixture f;
    auto a = f.h.window("a_v", f.h.alloc("a", 64, "x")); // 4-5
    auto b = f.h.window("b_v", f.h.alloc("b", 64, "x")); // 6-7
    f.h.dispatch(f.chip, {a, b}, 0);                     // 8
    f.h.dispatch(f.chip, {b}, std::int64_t{1} << 40);    // 9: b's devices are uncertain
    CHECK(diags(f.analyze()) == "device-out-of-range chip 9:9");
  }
  SUBCASE("allocations inheriting only from a suppressed one") {
    fixture f;
    auto d = f.view("d");                                // 4
    auto s = f.view("s");                                // 6
    auto s2 = f.view("s2");                              // 8
    f.h.dispatch(f.chip, {d}, -5);                       // 10
    f.h.collective(operation::allreduce, {d, s});        // 11: not uncovered
    f.h.collective(operation::broadcast, {s, s2});       // 12: not uncovered
    f.h.collective(operation::barrier, {s2});            // 13: not barrier-no-coverage
    CHECK(diags(f.analyze()) == "negative-device chip 10:9");
  }
  SUBCASE("a reported collective suppresses its arguments") {
    fixture f;
    auto a = f.view("a");                                // 4
    auto b = f.view("b");                                // 6
    f.h.collective(operation::allreduce, {a});           // 8: arity
    f.h.collective(operation::allgather, {b, 1, a});     // 9: target not a view
    CHECK(diags(f.analyze()) == "malformed-op allreduce 8:9\n"
                                "collective-arg-not-window allgather 9:9");
  }
  SUBCASE("dead-alloc is always reported") {
    fixture f;
    auto buf = f.h.alloc("buf", 8);                      // 4
    auto v = f.view("live");                             // 5
    f.h.dispatch(f.chip, {v, buf}, -1);                  // 7
    CHECK(diags(f.analyze()) == "dead-alloc buf 4:9\nnegative-device chip 7:9");
  }
  SUBCASE("errors of other allocations are still reported") {
    fixture f;
    auto a = f.view("a");                                // 4
    f.view("b");                                         // 6
    f.h.dispatch(f.chip, {a}, -1);                       // 8
    CHECK(diags(f.analyze()) == "unconsumed-alloc b 6:9\nnegative-device chip 8:9");
  }
  SUBCASE("a dispatch reports at most one error") {
    fixture f;
    auto a = f.view("a");                                // 4
    auto r = f.h.for_range("r", -1, std::int64_t{1} << 30, 1); // 6: negative AND too big
    f.h.dispatch(f.chip, {a}, r);                        // 7
    f.h.end();
    CHECK(diags(f.analyze()) == "negative-device chip 7:13");
  }
}

TEST_CASE("no cascade: a collective's coverage lost to a reported dispatch") {
  fixture f;
  auto in = f.view("in");                                // 4
  auto t = f.view("t");                                  // 6
  auto s = f.view("s");                                  // 8
  auto rc = f.view("rc");                                // 10
  f.h.dispatch(f.chip, {in}, 0);                         // 12
  f.h.dispatch(f.chip, {t}, fb::name("somewhere"));      // 13
  f.h.collective(operation::all_to_all_v, {in, t, s, 0, rc}); // 14
  CHECK(diags(f.analyze()) == "unsupported-device chip 13:9");
}

TEST_CASE("view-escapes: a view or a window pointer that a host others call returns, and "
          "nothing where the host returns to the runtime") {
  for (const bool called : {true, false}) {
    CAPTURE(called);
    fixture f;
    if (called)
      f.h.called_by_others();
    auto a = f.h.alloc("a", 64);                // 4
    auto v = f.h.window("v", a);                // 5
    f.h.dispatch(f.chip, {v}, 0);               // 6
    auto b = f.h.alloc("b", 64);                // 7
    auto w = f.h.window("w", b);                // 8
    f.h.dispatch(f.chip, {w}, 1);               // 9
    auto c = f.h.alloc("c", 64);                // 10
    auto u = f.h.window("u", c);                // 11
    f.h.dispatch(f.chip, {u}, 2);               // 12
    f.h.return_value({fb::list({v, 1}), b, 3}); // 13: c's view stays in the host
    const auto pl = f.analyze();
    if (!called) {
      CHECK(diags(pl).empty());
      continue;
    }
    CHECK(diags(pl) == "view-escapes a 13:9\nview-escapes b 13:9");
    REQUIRE(pl.diagnostics.size() == 2);
    CHECK(pl.diagnostics[0].why == commscope::reason::view_returned_to_callers);
    CHECK(pl.diagnostics[0].message() ==
          "a view of allocation 'a' is returned by 'host' to callers the pass does not follow: "
          "a caller that dispatches it would use devices the allocation's scope lacks");
    REQUIRE(pl.diagnostics[0].notes.size() == 1);
    CHECK(pl.diagnostics[0].notes[0].where.line == 5);
    CHECK(pl.diagnostics[1].why == commscope::reason::pointer_returned_to_callers);
  }
}

TEST_CASE("a function with more walk positions than the analysis numbers is reported, at its "
          "first statement") {
  // Four billion statements do not fit in a test: the walk's counter starts near the
  // limit instead, as it would stand deep into such a function.
  using adapter = commscope::detail::adapter<traits>;
  fixture f;
  auto buf_v = f.view("buf"); // 4:9
  f.h.dispatch(f.chip, {buf_v}, 0);
  const auto p = f.finish();
  const adapter a{traits{}};
  commscope::detail::variable_table<adapter> vars(a, p);
  for (std::uint64_t start : {std::uint64_t{0}, commscope::detail::max_position - 2}) {
    for (auto&& fn : a.functions(p)) {
      if (!a.describe(fn).is_host_orchestrator())
        continue;
      vars.reset();
      commscope::detail::function_facts<adapter> facts;
      std::uint64_t order = start;
      commscope::detail::collector<adapter>(a, vars, facts, order).run(fn);
      if (start == 0) {
        CHECK(facts.diagnostics.empty());
        continue;
      }
      REQUIRE(facts.diagnostics.size() == 1);
      const auto& d = facts.diagnostics[0];
      CHECK(d.code == error_code::malformed_op);
      CHECK(d.why == commscope::reason::function_too_large);
      CHECK(d.where.line == 4);
      CHECK(d.message() == "host orchestrator 'host' has more statements and calls than the "
                           "analysis numbers (4,294,967,295)");
    }
  }
}

TEST_SUITE_END();
