// docs/semantics.md, "Rebinding and control flow", through an IR that rebinds its
// variables and says how its statements' children run (flow_ir.hpp): branches are
// alternatives, loop bodies run zero or more times, a use reached by several bindings is
// a may-set of views.
#include "flow_ir.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using commscope::control_flow;
using commscope::operation;
using flow::block;
using traits = commscope::ir_traits<flow::program>;

std::string render(const commscope::device_set& s) {
  if (s.is_all())
    return "all";
  if (s.is_bottom())
    return "none";
  std::string out = "{";
  bool first = true;
  s.for_each([&](commscope::device_id d) {
    out += first ? "" : ",";
    first = false;
    out += std::to_string(d);
  });
  return out + "}";
}

template <class Plan> std::string coverage(const Plan& pl, std::string_view name) {
  for (const auto& fp : pl.functions)
    for (const auto& a : fp.allocations)
      if (a.name == name)
        return render(a.devices);
  return "no such allocation";
}

/// "code subject line", one diagnostic per line.
template <class Plan> std::string diags(const Plan& pl) {
  std::string out;
  for (const auto& d : pl.diagnostics) {
    out += out.empty() ? "" : "\n";
    out += std::string(commscope::code_name(d.code)) + " " + std::string(d.subject) + " " +
           std::to_string(d.where);
  }
  return out;
}

auto analyze(const flow::program& p) { return commscope::analyze(p, traits{}); }

/// Two allocations `a` and `b` with views `v` and `w`.
block two_views(flow::program& p) {
  return {p.alloc("a"), p.alloc("b"), p.window("v", "a"), p.window("w", "b")};
}

block operator+(block x, const block& y) {
  x.insert(x.end(), y.begin(), y.end());
  return x;
}

} // namespace

TEST_SUITE_BEGIN("control flow");

static_assert(commscope::provides<traits, commscope::contract::control_of> &&
              commscope::provides<traits, commscope::contract::branches> &&
              commscope::provides<traits, commscope::contract::values>);

TEST_CASE("a binding in the then branch does not reach the else branch") {
  flow::program p;
  // if flag: v = w / else: chip(v, device=0)
  auto views = two_views(p);
  p.host(views + block{p.if_({{p.copy("v", "w")}, {p.on({"v"}, 0)}}), p.on({"w"}, 1)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{0}");
  CHECK(coverage(pl, "b") == "{1}");
}

TEST_CASE("after an if, a use sees every branch's binding and the value before") {
  flow::program p;
  auto views = two_views(p);
  p.host(views + block{p.if_({{p.copy("v", "w")}, {}}), p.on({"v"}, 2)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{2}");
  CHECK(coverage(pl, "b") == "{2}");
}

TEST_CASE("a binding on every path replaces the value before") {
  flow::program p;
  auto views = two_views(p);
  p.host(views +
         block{p.on({"v"}, 0), p.if_({{p.copy("v", "w")}, {p.window("v", "b")}}), p.on({"v"}, 2)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{0}");
  CHECK(coverage(pl, "b") == "{2}");
}

TEST_CASE("an elif chain: each branch its own alternative, the missing else keeps the value") {
  flow::program p;
  auto body = two_views(p);
  body.push_back(p.alloc("c"));
  body.push_back(p.window("x", "c"));
  // if: v = w / elif: v = x / elif: chip(v, device=1) — no else
  body.push_back(
      p.if_({{p.copy("v", "w")}, {p.if_({{p.copy("v", "x")}, {p.if_({{p.on({"v"}, 1)}, {}})}})}}));
  body.push_back(p.on({"v"}, 3));
  p.host(body);
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{1,3}");
  CHECK(coverage(pl, "b") == "{3}");
  CHECK(coverage(pl, "c") == "{3}");
}

TEST_CASE("a variable first bound inside the branches merges every branch's binding") {
  flow::program p;
  p.host({p.alloc("a"), p.alloc("b"), p.if_({{p.window("v", "a")}, {p.window("v", "b")}}),
          p.on({"v"}, 4)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{4}");
  CHECK(coverage(pl, "b") == "{4}");
}

TEST_CASE("a use at the top of a loop sees the binding at the end of the previous iteration") {
  flow::program p;
  auto views = two_views(p);
  p.host(views + block{p.for_range("k", 2, {p.on({"v"}, 5), p.copy("v", "w")}), p.on({"w"}, 6)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{5}");
  CHECK(coverage(pl, "b") == "{5,6}");
}

TEST_CASE("a while body and its condition see the previous iteration, after it, both") {
  flow::program p;
  auto views = two_views(p);
  p.host(views + block{p.while_({p.on({"v"}, 1), p.copy("v", "w")}), p.on({"v"}, 7)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{1,7}");
  CHECK(coverage(pl, "b") == "{1,7}");
}

TEST_CASE("a read in a loop, then a binding in a branch: after the branch, both") {
  flow::program p;
  // for k: if flag: chip(v, device=0); v = w / chip(v, device=9)
  auto views = two_views(p);
  p.host(views + block{p.for_range(
                     "k", 2, {p.if_({{p.on({"v"}, 0), p.copy("v", "w")}, {}}), p.on({"v"}, 9)})});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{0,9}");
  CHECK(coverage(pl, "b") == "{0,9}");
}

TEST_CASE("continue: the value at the jump reaches the next iteration") {
  flow::program p;
  auto body = two_views(p);
  body.push_back(p.alloc("c"));
  body.push_back(p.window("x", "c"));
  // for k: chip(v, device=3); v = w; if flag: continue; v = x
  body.push_back(p.for_range(
      "k", 3, {p.on({"v"}, 3), p.copy("v", "w"), p.if_({{p.jump()}, {}}), p.copy("v", "x")}));
  body.push_back(p.on({"v"}, 8));
  p.host(body);
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{3,8}");
  CHECK(coverage(pl, "b") == "{3,8}"); // only through the continue
  CHECK(coverage(pl, "c") == "{3,8}");
}

TEST_CASE("a loop that only reads keeps the variable exact") {
  flow::program p;
  auto views = two_views(p);
  p.host(views + block{p.for_world("r", {p.on_var({"v"}, "r"), p.if_({{p.jump()}, {}})}),
                       p.on({"v"}, 2), p.on({"w"}, 2)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "all");
  CHECK(coverage(pl, "b") == "{2}");
}

TEST_CASE("a parallel assignment reads every value before it binds") {
  flow::program p;
  auto views = two_views(p);
  p.host(views + block{p.parallel({"v", "w"}, {"w", "v"}), p.on({"v"}, 0), p.on({"w"}, 1)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{1}");
  CHECK(coverage(pl, "b") == "{0}");
}

TEST_CASE("loop-carried values: bound before the first iteration, rebound for the next") {
  flow::program p;
  // for i, (acc,) in range(2, init_values=(v,)): chip(acc, device=1); acc = yield(w)
  auto views = two_views(p);
  p.host(views + block{p.for_carrying("i", 2, {"acc"}, {"v"},
                                      {p.on({"acc"}, 1), p.parallel({"acc"}, {"w"})}),
                       p.on({"acc"}, 2)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{1,2}");
  CHECK(coverage(pl, "b") == "{1,2}");
}

TEST_CASE("a block that runs once replaces, one that may be skipped merges") {
  flow::program p;
  auto views = two_views(p);
  p.host(views + block{p.alloc("c"), p.window("x", "c"),
                       p.compound(control_flow::block, {p.copy("v", "w")}), p.on({"v"}, 1),
                       p.compound(control_flow::may_skip, {p.copy("x", "w")}), p.on({"x"}, 2),
                       p.on({"w"}, 0)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "unconsumed-alloc a 1");
  CHECK(coverage(pl, "b") == "{0,1,2}");
  CHECK(coverage(pl, "c") == "{2}");
}

TEST_CASE("blocks between a statement that merges and a binding in it change nothing") {
  // As a materialized body nests its statements in scopes: blocks around a loop, around
  // its body and around a binding in it; then blocks around a block that may be skipped.
  flow::program p;
  auto views = two_views(p);
  auto nested = [&](int depth, block inner) {
    for (int k = 0; k < depth; ++k)
      inner = {p.compound(control_flow::block, inner)};
    return inner;
  };
  p.host(views + block{p.alloc("c"), p.window("x", "c")} +
         nested(3, {p.for_range(
                       "k", 2, nested(2, block{p.on({"v"}, 5)} + nested(4, {p.copy("v", "w")})))}) +
         block{p.on({"v"}, 7)} +
         nested(5, {p.compound(control_flow::may_skip, nested(3, {p.copy("x", "w")}))}) +
         block{p.on({"x"}, 2)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{5,7}");
  CHECK(coverage(pl, "b") == "{2,5,7}");
  CHECK(coverage(pl, "c") == "{2}");
}

TEST_CASE("after a statement that may stop part way, every value it bound may be seen") {
  // cur = v; try: cur = w; (raises); cur = v / except: ... ; chip(cur, device=1)
  flow::program p;
  auto views = two_views(p);
  p.host(views + block{p.on({"v"}, 0), p.on({"w"}, 0), p.copy("cur", "v"),
                       p.compound(control_flow::may_stop, {p.copy("cur", "w"), p.copy("cur", "v")}),
                       p.on({"cur"}, 1)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{0,1}");
  CHECK(coverage(pl, "b") == "{0,1}"); // w's, bound in the middle
  // Read as may_skip, the middle value is lost: the difference is what may_stop adds.
  flow::program q;
  auto views_q = two_views(q);
  q.host(views_q +
         block{q.on({"v"}, 0), q.on({"w"}, 0), q.copy("cur", "v"),
               q.compound(control_flow::may_skip, {q.copy("cur", "w"), q.copy("cur", "v")}),
               q.on({"cur"}, 1)});
  CHECK(coverage(analyze(q), "b") == "{0}");
}

TEST_CASE("values bound deeper inside a statement that may stop are seen after it") {
  // try: [if c: cur = w / else: pass]; for i in range(2): cur = x; cur = v; cur = v
  flow::program p;
  auto views = two_views(p);
  p.host(views + block{p.alloc("c"), p.window("x", "c"), p.on({"v"}, 0), p.on({"w"}, 0),
                       p.on({"x"}, 0), p.copy("cur", "v"),
                       p.compound(control_flow::may_stop,
                                  {p.if_({{p.copy("cur", "w")}, {}}),
                                   p.for_range("i", 2, {p.copy("cur", "x"), p.copy("cur", "v")}),
                                   p.copy("cur", "v")}),
                       p.on({"cur"}, 1)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{0,1}");
  CHECK(coverage(pl, "b") == "{0,1}");
  CHECK(coverage(pl, "c") == "{0,1}");
}

TEST_CASE("a statement whose children repeat is a loop, for the collectives too") {
  flow::program p;
  auto views = two_views(p);
  p.host(views +
         block{p.alloc("s"), p.window("sig", "s"), p.alloc("r"), p.window("rc", "r"),
               p.compound(control_flow::repeat, {p.on({"v"}, 0), p.copy("v", "w"),
                                                 p.collective("", operation::all_to_all_v,
                                                              {"v", "w", "sig", "v", "rc"})}),
               p.on({"w"}, 1)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "collective-in-loop all_to_all_v 11");
}

TEST_CASE("a collective passes coverage from each view its data may be to each its signal may be") {
  flow::program p;
  auto views = two_views(p);
  p.host(views + block{p.alloc("c"), p.window("x", "c"), p.on({"v"}, 0), p.on({"w"}, 1),
                       p.copy("sig", "x"), p.if_({{p.copy("d", "v")}, {p.copy("d", "w")}}),
                       p.collective("d", operation::allreduce, {"d", "sig"}), p.on({"d"}, 5)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{0,5}");
  CHECK(coverage(pl, "b") == "{1,5}");
  CHECK(coverage(pl, "c") == "{0,1,5}"); // the result is a's or b's view too
}

TEST_CASE("aliased windows only when both roles must be views of one allocation") {
  flow::program p;
  // may-alias: sig is a's or b's view, data a's: no error
  auto views = two_views(p);
  p.host(views + block{p.window("v2", "a"), p.on({"v"}, 0), p.on({"w"}, 0),
                       p.if_({{p.copy("sig", "v2")}, {p.copy("sig", "w")}}),
                       p.collective("", operation::allreduce, {"v", "sig"}), p.copy("t", "v2"),
                       p.if_({{p.copy("t", "v")}, {}}),
                       p.collective("", operation::allreduce, {"v", "t"})});
  const auto pl = analyze(p);
  // The second: t is v2 or v, both views of a: must-alias.
  CHECK(diags(pl) == "collective-aliased-windows allreduce 15");
}

TEST_CASE("a window whose pointer may name two allocations is an error, one a view") {
  flow::program p;
  p.host({p.alloc("a"), p.alloc("b"), p.if_({{p.copy("p", "a")}, {p.copy("p", "b")}}),
          p.window("v", "p"), p.on({"v"}, 0), p.window("w", "b"), p.on({"w"}, 0),
          p.if_({{p.copy("q", "a")}, {}}), p.window("x", "q"), p.on({"x"}, 1)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "malformed-op a 6");
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].object == "b");
  CHECK(pl.diagnostics[0].message() ==
        "the pointer of this window may name allocation 'a' or 'b': a view has one window buffer");
}

TEST_CASE("an allocation a rejected window may view gets no dead-alloc on top") {
  // The window is taken as a view of one of the two: the other has no view of its own,
  // and its lack of one is the window's error already.
  flow::program p;
  p.host({p.alloc("a"), p.alloc("b"), p.if_({{p.copy("p", "a")}, {p.copy("p", "b")}}),
          p.window("v", "p"), p.on({"v"}, 0)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "malformed-op a 6");
}

TEST_CASE("a device variable that several bindings reach: the union of their devices") {
  flow::program p;
  auto views = two_views(p);
  p.host(views + block{p.if_({{p.assign("d", p.integer(0))}, {p.assign("d", p.integer(3))}}),
                       p.on_var({"v"}, "d"),
                       p.for_world("r", {p.if_({{p.copy("e", "r")}, {p.assign("e", p.integer(1))}}),
                                         p.on_var({"w"}, "e")})});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{0,3}");
  CHECK(coverage(pl, "b") == "all");
}

TEST_CASE("a device variable that may hold an unknown value is unsupported") {
  flow::program p;
  auto views = two_views(p);
  // `e` bound in one branch only: a parameter's value otherwise, unknown to the IR
  p.host(views + block{p.if_({{p.assign("e", p.integer(0))}, {}}), p.on_var({"w"}, "e"),
                       p.if_({{p.assign("f", p.integer(0))}, {p.assign("f", p.integer(-1))}}),
                       p.on_var({"v"}, "f")});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "unsupported-device chip 7\nnegative-device chip 11");
}

TEST_CASE("deep nesting and long chains of branches resolve without recursion") {
  flow::program p;
  block body = two_views(p);
  // 20,000 nested ifs, each rebinding v in its then branch, then a loop reading it.
  const flow::stmt* inner = p.copy("v", "w");
  for (int i = 0; i < 20000; ++i)
    inner = p.if_({{inner, p.copy("v", i % 2 ? "w" : "v")}, {}});
  body.push_back(inner);
  // 20,000 ifs in a row, each may rebind u: a chain of merges.
  body.push_back(p.copy("u", "v"));
  for (int i = 0; i < 20000; ++i)
    body.push_back(p.if_({{p.copy("u", i % 2 ? "w" : "u")}, {}}));
  body.push_back(p.while_({p.on({"u"}, 0), p.copy("u", "v")}));
  body.push_back(p.on({"v"}, 1));
  p.host(body);
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{0,1}");
  CHECK(coverage(pl, "b") == "{0,1}");
}

TEST_CASE("evidence names the view each contribution came through") {
  flow::program p;
  auto views = two_views(p);
  p.host(views + block{p.if_({{p.copy("u", "v")}, {p.copy("u", "w")}}), p.on({"u"}, 3)});
  const auto pl = commscope::analyze(p, traits{}, commscope::with_evidence);
  REQUIRE(pl.ok());
  const auto& fp = pl.functions[0];
  for (std::uint32_t a = 0; a < 2; ++a) {
    const auto ev = fp.evidence_of(a);
    REQUIRE(ev.size() == 1);
    CHECK(ev[0].passed_view == a); // v is view 0 (of a), w view 1 (of b)
    CHECK(ev[0].where == 8);
  }
}

namespace {
/// Loop bounds whose start and step may be absent at run time (0 and 1).
struct optional_bounds_traits : traits {
  static commscope::loop_bounds<std::optional<expression>, expression, std::optional<expression>>
  loop_bounds(statement s) {
    const auto absent = [](expression e, std::int64_t v) {
      return e->kind == commscope::expression_kind::integer && e->value == v
                 ? std::nullopt
                 : std::optional<expression>(e);
    };
    return {absent(s->bounds.start, 0), s->bounds.stop, absent(s->bounds.step, 1)};
  }
};
/// An adapter whose arguments and device_of assume a call, as a real one may.
struct calls_only_traits : traits {
  static const std::vector<expression>& arguments(expression e) {
    if (e->kind != commscope::expression_kind::call)
      throw std::logic_error("arguments of a non-call");
    return e->args;
  }
  static std::optional<expression> device_of(expression e) {
    if (e->kind != commscope::expression_kind::call)
      throw std::logic_error("device_of a non-call");
    return traits::device_of(e);
  }
};
} // namespace

TEST_CASE("loop bounds with an optional start and step: absent is 0 and 1") {
  static_assert(commscope::provides<optional_bounds_traits, commscope::contract::loop_bounds>);
  flow::program p;
  auto views = two_views(p);
  p.host(views +
         block{p.for_world("r", {p.on_var({"v"}, "r")}),
               p.for_("i", p.integer(2), p.integer(5), p.integer(1), {p.on_var({"w"}, "i")})});
  const auto pl = commscope::analyze(p, optional_bounds_traits{});
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "all");
  CHECK(coverage(pl, "b") == "{2,3,4}");
}

TEST_CASE("the derived operands ask arguments and device_of only of calls") {
  flow::program p;
  auto views = two_views(p);
  p.host(views + block{p.assign("n", p.integer(3)), p.copy("u", "v"), p.assign("o", p.other()),
                       p.on_var({"u"}, "n"), p.on({"w"}, 1)});
  const auto pl = commscope::analyze(p, calls_only_traits{});
  CHECK(diags(pl) == "");
  CHECK(coverage(pl, "a") == "{3}");
}

namespace {
struct signal_traits : traits {
  static std::vector<std::string_view> names_in_use(const flow::program&) { return {}; }
};
} // namespace

TEST_CASE("what a compound statement binds is a value the pass does not follow") {
  flow::program p;
  auto views = two_views(p);
  auto* loop = const_cast<flow::stmt*>(
      p.compound(control_flow::repeat, {p.on_var({"v"}, "d")})); // for d in items: ...
  loop->targets = {p.var("d")};
  p.host(views + block{p.assign("d", p.integer(0)), loop, p.on({"w"}, 1)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "unsupported-device chip 5");
}

TEST_CASE("signal synthesis: a statement whose children repeat is a loop") {
  flow::program p;
  auto views = two_views(p);
  p.host(views +
         block{p.on({"v"}, 0),
               p.compound(control_flow::repeat, {p.collective("v", operation::allreduce, {"v"})}),
               p.compound(control_flow::block, {p.collective("w", operation::allreduce, {"w"})})});
  const auto pl = commscope::plan_signals(p, signal_traits{});
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].code == commscope::error_code::collective_in_loop);
  CHECK(pl.diagnostics[0].where == 6);
}

TEST_SUITE_END();
