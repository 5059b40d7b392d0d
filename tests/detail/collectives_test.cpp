// docs/semantics.md, step 4, "Collectives": inheritance rows, arity and argument checks,
// coverage checks, loops, the fixed point, and collective results as views.
//
// Layout of the programs: chip (1-2), host (3), then each f.view(name) takes two lines
// (the allocation, then its window).
#include "pass_support.hpp"

#include <string>
#include <vector>

using namespace pass_test;
using fb = ref::function_builder;

namespace {

/// for r in range(world_size()): chip(v..., device=r) -- two lines.
void dispatch_all(fixture& f, std::vector<ref::ex> views) {
  auto r = f.h.for_world("r");
  f.h.dispatch(f.chip, std::move(views), r);
  f.h.end();
}

} // namespace

TEST_SUITE_BEGIN("collectives");

TEST_CASE("allreduce, broadcast, reduce_scatter: signal <- data") {
  for (auto op : {operation::allreduce, operation::broadcast, operation::reduce_scatter}) {
    CAPTURE(static_cast<int>(op));
    fixture f;
    auto data = f.view("data");
    auto sig = f.view("sig");
    f.h.dispatch(f.chip, {data}, 2);
    f.h.dispatch(f.chip, {data}, 5);
    f.h.collective(op, {data, sig});
    const auto pl = f.analyze();
    CHECK(diags(pl) == "");
    CHECK(coverage(pl, "sig") == "{2,5}");
    CHECK(domains(pl) == "[{2,5}] data,sig");
  }
}

TEST_CASE("the data of allreduce does not inherit from the signal") {
  fixture f;
  auto data = f.view("data"); // 4
  auto sig = f.view("sig");   // 6
  f.h.dispatch(f.chip, {sig}, 1);
  f.h.collective(operation::allreduce, {data, sig}); // 9
  CHECK(diags(f.analyze()) == "uncovered-collective allreduce 9:9");
}

TEST_CASE("barrier: the signal needs coverage of its own") {
  SUBCASE("covered by a dispatch") {
    fixture f;
    auto sig = f.view("sig");
    f.h.dispatch(f.chip, {sig}, 3);
    f.h.collective(operation::barrier, {sig});
    const auto pl = f.analyze();
    CHECK(diags(pl) == "");
    CHECK(coverage(pl, "sig") == "{3}");
  }
  SUBCASE("no coverage: barrier-no-coverage, and the signal is not also unconsumed") {
    fixture f;
    auto sig = f.view("sig");                  // 4
    f.h.collective(operation::barrier, {sig}); // 6
    const auto pl = f.analyze();
    CHECK(diags(pl) == "barrier-no-coverage barrier 6:9");
    CHECK(pl.diagnostics[0].message() ==
          "the signal of barrier 'barrier' has no devices of its own");
  }
  SUBCASE("a barrier gives no coverage to anything") {
    fixture f;
    auto sig = f.view("sig"); // 4
    f.h.dispatch(f.chip, {sig}, 0);
    f.h.collective(operation::barrier, {sig});
    auto other = f.view("other");                       // 8
    f.h.collective(operation::allreduce, {other, sig}); // 10
    CHECK(diags(f.analyze()) == "uncovered-collective allreduce 10:9");
  }
}

TEST_CASE("allgather and all_to_all: signal <- target, the input may be anything") {
  for (auto op : {operation::allgather, operation::all_to_all}) {
    CAPTURE(static_cast<int>(op));
    fixture f;
    auto in = f.view("in");
    auto target = f.view("target");
    auto sig = f.view("sig");
    f.h.dispatch(f.chip, {in}, 0);
    f.h.dispatch(f.chip, {target}, 1);
    f.h.collective(op, {in, target, sig});
    f.h.collective(op, {fb::name("whatever"), target, sig}); // input: not a view, fine
    const auto pl = f.analyze();
    CHECK(diags(pl) == "");
    CHECK(coverage(pl, "sig") == "{1}"); // not from the input
    CHECK(domains(pl) == "[{0}] in; [{1}] target,sig");
  }
}

TEST_CASE("all_to_all_v: signal and recv_counts <- target") {
  fixture f;
  auto in = f.view("in");
  auto target = f.view("target");
  auto sig = f.view("sig");
  auto send = f.view("send");
  auto recv = f.view("recv");
  f.h.dispatch(f.chip, {in, send}, 7);
  dispatch_all(f, {target});
  f.h.collective(operation::all_to_all_v, {in, target, sig, send, recv});
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "sig") == "all");
  CHECK(coverage(pl, "recv") == "all");
  CHECK(coverage(pl, "send") == "{7}");
  CHECK(domains(pl) == "[{7}] in,send; [all] target,sig,recv");
  // input and send_counts may be anything.
  fixture g;
  auto t2 = g.view("target");
  auto s2 = g.view("sig");
  auto r2 = g.view("recv");
  g.h.dispatch(g.chip, {t2}, 0);
  g.h.collective(operation::all_to_all_v, {1, t2, s2, fb::name("counts"), r2});
  const auto pl2 = g.analyze();
  CHECK(diags(pl2) == "");
  CHECK(domains(pl2) == "[{0}] target,sig,recv");
}

TEST_CASE("wrong arity is malformed-op at the collective") {
  struct row {
    operation op;
    int given;
    int expected;
    const char* name;
  };
  for (const row r :
       {row{operation::allreduce, 1, 2, "allreduce"}, row{operation::allreduce, 3, 2, "allreduce"},
        row{operation::broadcast, 1, 2, "broadcast"},
        row{operation::reduce_scatter, 0, 2, "reduce_scatter"},
        row{operation::barrier, 2, 1, "barrier"}, row{operation::barrier, 0, 1, "barrier"},
        row{operation::allgather, 2, 3, "allgather"},
        row{operation::all_to_all, 4, 3, "all_to_all"},
        row{operation::all_to_all_v, 4, 5, "all_to_all_v"},
        row{operation::all_to_all_v, 6, 5, "all_to_all_v"}}) {
    CAPTURE(r.name);
    CAPTURE(r.given);
    fixture f;
    auto a = f.view("a");    // 4
    auto b = f.view("b");    // 6
    dispatch_all(f, {a, b}); // 8-9
    const std::vector<ref::ex> all{a, b, a, b, a, b};
    const std::vector<ref::ex> args(all.begin(), all.begin() + r.given);
    f.h.collective(r.op, args); // 10
    const auto pl = f.analyze();
    CHECK(diags(pl) == std::string("malformed-op ") + r.name + " 10:9");
    REQUIRE(pl.diagnostics.size() == 1);
    CHECK(pl.diagnostics[0].why == commscope::reason::wrong_arity);
    CHECK(pl.diagnostics[0].arity == r.given);
    CHECK(pl.diagnostics[0].expected_arity == r.expected);
  }
  fixture f;
  auto a = f.view("a");
  f.h.collective("y", operation::allreduce, {a}); // 6, after `y = `
  const auto pl = f.analyze();
  CHECK(diags(pl) == "malformed-op allreduce 6:13");
  CHECK(pl.diagnostics[0].message() == "operation 'allreduce' takes 2 positional arguments, got 1");
}

TEST_CASE("data, target, signal and recv_counts must resolve to a view") {
  struct row {
    operation op;
    std::vector<int> not_view; ///< positions given as a plain name
    std::int64_t reported;     ///< the argument reported (the first bad one)
  };
  const std::vector<row> rows{
      {operation::allreduce, {0}, 0},    {operation::allreduce, {1}, 1},
      {operation::broadcast, {0, 1}, 0}, {operation::reduce_scatter, {1}, 1},
      {operation::barrier, {0}, 0},      {operation::allgather, {1}, 1},
      {operation::allgather, {2}, 2},    {operation::all_to_all, {1, 2}, 1},
      {operation::all_to_all_v, {1}, 1}, {operation::all_to_all_v, {2}, 2},
      {operation::all_to_all_v, {4}, 4}, {operation::all_to_all_v, {0, 3, 4}, 4},
  };
  for (const auto& r : rows) {
    const auto arity = commscope::detail::row(r.op).max_arity;
    CAPTURE(static_cast<int>(r.op));
    CAPTURE(r.reported);
    fixture f;
    auto a = f.view("a"); // 4
    dispatch_all(f, {a}); // 6-7
    std::vector<ref::ex> args;
    for (int i = 0; i < arity; ++i) {
      bool plain = false;
      for (int k : r.not_view)
        plain = plain || k == i;
      args.push_back(plain ? fb::name("x") : ref::ex(a));
    }
    f.h.collective(r.op, args); // 8
    const auto pl = f.analyze();
    CHECK(diags(pl) == std::string("collective-arg-not-window ") +
                           std::string(commscope::detail::row(r.op).name) + " 8:9");
    REQUIRE(pl.diagnostics.size() == 1);
    CHECK(pl.diagnostics[0].argument == r.reported);
  }
  SUBCASE("an integer, a parameter, a window of a non-allocation") {
    fixture f;
    auto a = f.view("a"); // 4
    dispatch_all(f, {a}); // 6-7
    auto param = f.h.new_variable("param");
    auto w = f.h.window("w", param);                  // 8: not a view, an error
    f.h.collective(operation::allreduce, {a, 3});     // 9
    f.h.collective(operation::allreduce, {a, param}); // 10
    f.h.collective(operation::allreduce, {w, a});     // 11
    const auto pl = f.analyze();
    CHECK(diags(pl) == "malformed-op  8:9\n"
                       "collective-arg-not-window allreduce 9:9\n"
                       "collective-arg-not-window allreduce 10:9\n"
                       "collective-arg-not-window allreduce 11:9");
    CHECK(pl.diagnostics[1].message() ==
          "argument 1 of collective 'allreduce' does not resolve to a window view");
  }
}

TEST_CASE("uncovered-collective: the data or target has no coverage to pass on") {
  for (auto op : {operation::allreduce, operation::broadcast, operation::reduce_scatter}) {
    fixture f;
    auto data = f.view("data");      // 4
    auto sig = f.view("sig");        // 6
    f.h.collective(op, {data, sig}); // 8
    const auto pl = f.analyze();
    // Neither data nor sig is also reported as unconsumed: one cause, one diagnostic.
    CHECK(diags(pl) == std::string("uncovered-collective ") +
                           std::string(commscope::detail::row(op).name) + " 8:9");
  }
  fixture f;
  auto in = f.view("in"); // 4
  auto t = f.view("t");   // 6
  auto s = f.view("s");   // 8
  f.h.dispatch(f.chip, {in}, 0);
  f.h.collective(operation::allgather, {in, t, s}); // 11
  CHECK(diags(f.analyze()) == "uncovered-collective allgather 11:9");
}

TEST_CASE("all_to_all_v inside a for or while loop is collective-in-loop") {
  auto program = [](int loop) {
    fixture f;
    auto t = f.view("t");         // 4
    auto s = f.view("s");         // 6
    auto rc = f.view("rc");       // 8
    f.h.dispatch(f.chip, {t}, 0); // 10
    if (loop == 0)
      f.h.for_range("i", 2); // 11
    else if (loop == 1)
      f.h.begin_while(fb::name("again"));
    else
      f.h.begin_if(fb::name("flag"));
    f.h.collective(operation::all_to_all_v, {0, t, s, 0, rc}); // 12, column 13
    f.h.end();
    return diags(f.analyze());
  };
  CHECK(program(0) == "collective-in-loop all_to_all_v 12:13");
  CHECK(program(1) == "collective-in-loop all_to_all_v 12:13");
  CHECK(program(2) == ""); // an if is not a loop
  // Other collectives may run in loops.
  fixture f;
  auto d = f.view("d");
  auto s = f.view("s");
  f.h.dispatch(f.chip, {d}, 0);
  f.h.begin_while(fb::name("again"));
  f.h.collective(operation::allreduce, {d, s});
  f.h.collective(operation::barrier, {s});
  f.h.end();
  CHECK(diags(f.analyze()) == "");
}

TEST_CASE("inheritance reaches a fixed point whatever the order of the collectives") {
  // a -> b (allreduce a, b) and b -> c (allreduce b, c) -> d (broadcast c, d).
  for (int order = 0; order < 3; ++order) {
    CAPTURE(order);
    fixture f;
    auto a = f.view("a");
    auto b = f.view("b");
    auto c = f.view("c");
    auto d = f.view("d");
    f.h.dispatch(f.chip, {a}, 4);
    if (order == 0) { // the signal is the data of a LATER collective
      f.h.collective(operation::allreduce, {a, b});
      f.h.collective(operation::allreduce, {b, c});
      f.h.collective(operation::broadcast, {c, d});
    } else if (order == 1) { // ... of an EARLIER one
      f.h.collective(operation::broadcast, {c, d});
      f.h.collective(operation::allreduce, {b, c});
      f.h.collective(operation::allreduce, {a, b});
    } else {
      f.h.collective(operation::allreduce, {b, c});
      f.h.collective(operation::broadcast, {c, d});
      f.h.collective(operation::allreduce, {a, b});
    }
    const auto pl = f.analyze();
    CHECK(diags(pl) == "");
    CHECK(coverage(pl, "d") == "{4}");
    CHECK(domains(pl) == "[{4}] a,b,c,d");
  }
  // Coverage from two sources joins; a cycle of inheritance terminates.
  fixture f;
  auto a = f.view("a");
  auto b = f.view("b");
  auto c = f.view("c");
  f.h.dispatch(f.chip, {a}, 1);
  f.h.dispatch(f.chip, {b}, 2);
  f.h.collective(operation::allreduce, {a, c});
  f.h.collective(operation::allreduce, {b, c});
  f.h.collective(operation::allreduce, {c, a});
  const auto pl = f.analyze();
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "c") == "{1,2}");
  CHECK(coverage(pl, "a") == "{1,2}");
  CHECK(coverage(pl, "b") == "{2}");
  CHECK(domains(pl) == "[{1,2}] a,c; [{2}] b");
}

TEST_CASE("an uncovered collective upstream is reported once, not along the chain") {
  fixture f;
  auto a = f.view("a");                         // 4
  auto b = f.view("b");                         // 6
  auto c = f.view("c");                         // 8
  f.h.collective(operation::allreduce, {a, b}); // 10: a has nothing
  f.h.collective(operation::allreduce, {b, c}); // 11: b only inherits from a
  CHECK(diags(f.analyze()) == "uncovered-collective allreduce 10:9");
}

TEST_CASE("the lack of coverage is reported where it starts, whatever the source order") {
  SUBCASE("the downstream collective first") {
    fixture f;
    auto a = f.view("a");                         // 4
    auto b = f.view("b");                         // 6
    auto c = f.view("c");                         // 8
    f.h.collective(operation::allreduce, {b, c}); // 10: b's lack comes from a
    f.h.collective(operation::allreduce, {a, b}); // 11: a has nothing of its own
    CHECK(diags(f.analyze()) == "uncovered-collective allreduce 11:9");
  }
  SUBCASE("a barrier on a signal whose source is uncovered") {
    fixture f;
    auto a = f.view("a");                         // 4
    auto s = f.view("s");                         // 6
    f.h.collective(operation::barrier, {s});      // 8: s would inherit from a
    f.h.collective(operation::allreduce, {a, s}); // 9
    CHECK(diags(f.analyze()) == "uncovered-collective allreduce 9:9");
  }
  SUBCASE("a cycle of uncovered buffers is reported once, at its first collective") {
    fixture f;
    auto a = f.view("a");                         // 4
    auto b = f.view("b");                         // 6
    f.h.collective(operation::allreduce, {a, b}); // 8
    f.h.collective(operation::allreduce, {b, a}); // 9
    CHECK(diags(f.analyze()) == "uncovered-collective allreduce 8:9");
  }
  SUBCASE("all_to_all_v in a loop is reported even when its coverage was lost") {
    fixture f;
    auto in = f.view("in");                                      // 4
    auto t = f.view("t");                                        // 6
    auto s = f.view("s");                                        // 8
    auto sc = f.view("sc");                                      // 10
    auto rc = f.view("rc");                                      // 12
    f.h.dispatch(f.chip, {t, in, sc}, -1);                       // 14: reported, t lost
    f.h.for_range("i", 2);                                       // 15
    f.h.collective(operation::all_to_all_v, {in, t, s, sc, rc}); // 16
    f.h.end();
    CHECK(diags(f.analyze()) == "negative-device chip 14:9\n"
                                "collective-in-loop all_to_all_v 16:13");
  }
}

TEST_CASE("results of allreduce and allgather resolve to views a dispatch can use") {
  SUBCASE("allreduce resolves through its data") {
    fixture f;
    auto data = f.view("data");
    auto sig = f.view("sig");
    auto y = f.h.collective("y", operation::allreduce, {data, sig});
    auto y2 = f.h.assign("y2", y);
    f.h.dispatch(f.chip, {y}, 1);
    f.h.dispatch(f.chip, {y}, 2); // the same result resolved a second time
    f.h.dispatch(f.chip, {y2}, 3);
    const auto pl = f.analyze();
    CHECK(diags(pl) == "");
    CHECK(coverage(pl, "data") == "{1,2,3}");
    CHECK(coverage(pl, "sig") == "{1,2,3}");
  }
  SUBCASE("allgather, all_to_all and all_to_all_v resolve through their target") {
    for (auto op : {operation::allgather, operation::all_to_all, operation::all_to_all_v}) {
      CAPTURE(static_cast<int>(op));
      fixture f;
      auto in = f.view("in");
      auto target = f.view("target");
      auto sig = f.view("sig");
      f.h.dispatch(f.chip, {in}, 0);
      const bool counted = op == operation::all_to_all_v;
      // recv_counts has a buffer of its own: one shared with the signal would alias.
      const auto args = counted ? std::vector<ref::ex>{in, target, sig, 0, f.view("counts")}
                                : std::vector<ref::ex>{in, target, sig};
      auto z = f.h.collective("z", op, args);
      f.h.dispatch(f.chip, {z}, 6);
      f.h.dispatch(f.chip, {z}, 7);
      const auto pl = f.analyze();
      CHECK(diags(pl) == "");
      CHECK(coverage(pl, "target") == "{6,7}");
      CHECK(coverage(pl, "in") == "{0}");
      CHECK(domains(pl) ==
            (counted ? "[{0}] in; [{6,7}] target,sig,counts" : "[{0}] in; [{6,7}] target,sig"));
    }
  }
  SUBCASE("broadcast, reduce_scatter and barrier rebind their window in place") {
    // `w = broadcast(w, sig)` then a dispatch of w on every rank: the result is the data
    // window, as the DSL's own op builders type it; taken for no view, its dispatches
    // were dropped and w kept the devices of its loader alone.
    for (auto op : {operation::broadcast, operation::reduce_scatter}) {
      CAPTURE(static_cast<int>(op));
      fixture f;
      auto data = f.view("data");
      auto sig = f.view("sig");
      f.h.dispatch(f.chip, {data}, 0);
      auto y = f.h.collective("y", op, {data, sig});
      f.h.dispatch(f.chip, {y}, 5);
      f.h.collective(operation::allreduce, {y, sig}); // its data, again: no error
      const auto pl = f.analyze();
      CHECK(diags(pl) == "");
      CHECK(coverage(pl, "data") == "{0,5}");
      CHECK(coverage(pl, "sig") == "{0,5}");
    }
    fixture f;
    auto sig = f.view("sig");
    f.h.dispatch(f.chip, {sig}, 1);
    auto s = f.h.collective("s", operation::barrier, {sig});
    f.h.dispatch(f.chip, {s}, 3);
    const auto pl = f.analyze();
    CHECK(diags(pl) == "");
    CHECK(coverage(pl, "sig") == "{1,3}");
  }
  SUBCASE("a collective result used as the data of another collective") {
    fixture f;
    auto data = f.view("data");
    auto s1 = f.view("s1");
    auto s2 = f.view("s2");
    dispatch_all(f, {data});
    auto y = f.h.collective("y", operation::allreduce, {data, s1});
    f.h.collective(operation::allreduce, {y, s2});
    const auto pl = f.analyze();
    CHECK(diags(pl) == "");
    CHECK(domains(pl) == "[all] data,s1,s2");
  }
}

TEST_SUITE_END();
