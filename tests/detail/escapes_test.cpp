// "Every use of a view is followed or refused", through an IR that gives no flow_of
// (flow_ir.hpp): the contract's defaults must be the sound ones. A call of an operation
// the pass does not know, or of a function that is not a chip orchestrator, may do
// anything with its operands: a view or a window pointer among them is view-escapes.
#include "flow_ir.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using commscope::operation;
using flow::block;
using traits = commscope::ir_traits<flow::program>;

static_assert(!commscope::provides<traits, commscope::contract::flow_of>);

/// "code subject object line", one diagnostic per line.
template <class Plan> std::string diags(const Plan& pl) {
  std::string out;
  for (const auto& d : pl.diagnostics) {
    out += out.empty() ? "" : "\n";
    out += std::string(commscope::code_name(d.code)) + " " + std::string(d.subject) + " " +
           std::string(d.object) + " " + std::to_string(d.where);
  }
  return out;
}

auto analyze(const flow::program& p) { return commscope::analyze(p, traits{}); }

/// `f(args...)` as a statement, f a call of `target`.
const flow::stmt* call(flow::program& p, commscope::call_target target,
                       std::vector<std::string_view> args, std::string_view name) {
  std::vector<const flow::expr*> a;
  for (auto x : args)
    a.push_back(p.use(x));
  auto* e = const_cast<flow::expr*>(p.op(operation::none, std::move(a), name));
  e->target = target;
  flow::stmt s;
  s.kind = commscope::statement_kind::evaluation;
  s.value = e;
  s.line = ++p.lines;
  return &p.statements.emplace_back(s);
}

const commscope::function_info helper{"helper", commscope::level::host, true, false};

} // namespace

TEST_SUITE_BEGIN("escapes");

TEST_CASE("a view passed to an unknown operation escapes, once, and its allocation is not "
          "reported again") {
  flow::program p;
  p.host({p.alloc("a"), p.window("v", "a"),
          call(p, commscope::call_target::of(operation::none), {"v"}, "x.store")});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "view-escapes a ? 3"); // no unconsumed-alloc: one cause
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].why == commscope::reason::view_into_operation);
  REQUIRE(pl.diagnostics[0].notes.size() == 1);
  CHECK(pl.diagnostics[0].notes[0].where == 2); // the view
  CHECK(pl.diagnostics[0].message().find("dispatch the view directly") != std::string::npos);
}

TEST_CASE("a view passed to a host function escapes into the call, named by the callee") {
  flow::program p;
  p.host({p.alloc("a"), p.window("v", "a"), p.on({"v"}, 0),
          call(p, commscope::call_target::of(helper), {"v"}, "helper")});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "view-escapes a helper 4");
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].message() ==
        "a view of allocation 'a' is passed to 'helper', a function the pass does not follow: "
        "dispatch the view directly, or inline 'helper' first");
}

TEST_CASE("a copy of a view, and one a branch may bind, escape alike") {
  flow::program p;
  p.host({p.alloc("a"), p.alloc("b"), p.window("v", "a"), p.window("w", "b"), p.copy("c", "v"),
          p.if_({{p.copy("c", "w")}, {}}), p.on({"v", "w"}, 1),
          call(p, commscope::call_target::of(helper), {"c"}, "helper")});
  const auto pl = analyze(p);
  // c may be v or w: one diagnostic, naming the first allocation; both are spared.
  CHECK(diags(pl) == "view-escapes a helper 9");
}

TEST_CASE("a window of a pointer a branch may bind to a view escapes, and stays a view of the "
          "allocation it may name") {
  flow::program p;
  p.host({p.alloc("a"), p.alloc("b"), p.window("v", "b"), p.on({"v"}, 0), p.copy("q", "a"),
          p.if_({{p.copy("q", "v")}, {}}), p.window("w", "q"), p.on({"w"}, 1)});
  const auto pl = analyze(p);
  // w may use b's memory on device 1, which b's devices lack: one diagnostic, at w.
  CHECK(diags(pl) == "view-escapes b window 8");
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].why == commscope::reason::view_into_operation);
  REQUIRE(pl.diagnostics[0].notes.size() == 1);
  CHECK(pl.diagnostics[0].notes[0].where == 3);
  const auto& fp = pl.functions[0];
  REQUIRE(fp.views.size() == 2);
  CHECK(fp.views[1].allocation == 0);
}

TEST_CASE("a window pointer passed on escapes, and its allocation is no dead-alloc") {
  flow::program p;
  p.host({p.alloc("a"), p.copy("q", "a"),
          call(p, commscope::call_target::of(operation::none), {"q"}, "x.keep")});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "view-escapes a ? 3");
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].why == commscope::reason::pointer_into_operation);
}

TEST_CASE("a window pointer passed to a dispatch escapes at the dispatch, through copies and "
          "branches, and its allocation gets no other diagnostic") {
  flow::program p;
  // a: its view goes to device 0, its pointer to device 1, where a chip could window it.
  // b: a copy of its pointer that a branch may bind is dispatched too. c: a view only.
  p.host({p.alloc("a"), p.alloc("b"), p.alloc("c"), p.window("v", "a"), p.on({"v"}, 0),
          p.on({"a"}, 1), p.assign("q", p.integer(0)), p.if_({{p.copy("q", "b")}, {}}),
          p.window("w", "c"), p.on({"w", "q"}, 2), p.on({"w"}, 3), p.window("u", "b"),
          p.on({"u"}, 4)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "view-escapes a chip 6\nview-escapes b chip 11");
  REQUIRE(pl.diagnostics.size() == 2);
  CHECK(pl.diagnostics[0].why == commscope::reason::pointer_into_dispatch);
  REQUIRE(pl.diagnostics[0].notes.size() == 1);
  CHECK(pl.diagnostics[0].notes[0].where == 1);
}

TEST_CASE("a dispatched pointer of an allocation without views is dead-alloc, always "
          "reported, and another pointer of the same dispatch is still found") {
  flow::program p;
  p.host({p.alloc("a"), p.alloc("b"), p.window("v", "b"), p.on({"v"}, 0), p.on({"a"}, 1),
          p.on({"a", "b"}, 2)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "dead-alloc a  1\nview-escapes b chip 6");
}

TEST_CASE("a pointer passed to a dispatch in a loop is found once per dispatch, and a view "
          "that a loop rebinds is no pointer") {
  flow::program p;
  p.host(
      {p.alloc("a"), p.window("v", "a"), p.copy("u", "v"),
       p.for_range("r", 4, {p.on_var({"u"}, "r"), p.window("u", "a"), p.on_var({"u", "a"}, "r")})});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "view-escapes a chip 6");
}

TEST_CASE("what holds no view or pointer passes anything anywhere") {
  flow::program p;
  p.host({p.alloc("a"), p.window("v", "a"), p.on({"v"}, 2), p.assign("n", p.integer(3)),
          call(p, commscope::call_target::of(operation::none), {"n"}, "x.print"),
          call(p, commscope::call_target::of(helper), {"n", "m"}, "helper")});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
}

TEST_CASE("the result of an escaping call is no view, and an escape before the view's "
          "binding does not count") {
  flow::program p;
  p.host({p.alloc("a"), call(p, commscope::call_target::of(helper), {"v"}, "helper"),
          p.window("v", "a"), p.on({"v"}, 2)});
  const auto pl = analyze(p);
  CHECK(diags(pl) == "");
}

namespace {
/// The flow IR with an adapter that knows which functions are outside the program: every
/// call of a function is of a library's (expression_flow::external).
struct library_traits : traits {
  static commscope::expression_flow flow_of(expression e) {
    if (e->target.what == commscope::call_target::kind::function)
      return {commscope::operand_flow::escapes, e->name, true, 0, true};
    return {commscope::operand_flow::escapes, e->name, false};
  }
};
static_assert(commscope::provides<library_traits, commscope::contract::flow_of>);
} // namespace

TEST_CASE("a view or a pointer passed to an external function escapes with no advice to "
          "inline it") {
  flow::program p;
  p.host({p.alloc("a"), p.window("v", "a"), p.on({"v"}, 0),
          call(p, commscope::call_target::of(helper), {"v"}, "np.asarray"), p.alloc("b"),
          p.copy("q", "b"), call(p, commscope::call_target::of(helper), {"q"}, "pl.fill")});
  const auto pl = commscope::analyze(p, library_traits{});
  CHECK(diags(pl) == "view-escapes a np.asarray 4\nview-escapes b pl.fill 7");
  REQUIRE(pl.diagnostics.size() == 2);
  CHECK(pl.diagnostics[0].why == commscope::reason::view_into_external_call);
  CHECK(pl.diagnostics[0].message() ==
        "a view of allocation 'a' is passed to 'np.asarray', a library function the pass does "
        "not follow: dispatch the view itself, and call 'np.asarray' on it in the chip function");
  CHECK(pl.diagnostics[0].help().find("in the chip function") != std::string_view::npos);
  CHECK(pl.diagnostics[1].why == commscope::reason::pointer_into_external_call);
  CHECK(pl.diagnostics[1].message().find("take a window of it here") != std::string::npos);
  // Without the flag the same calls are helpers to inline.
  const auto plain = analyze(p);
  REQUIRE(plain.diagnostics.size() == 2);
  CHECK(plain.diagnostics[0].why == commscope::reason::view_into_call);
  CHECK(plain.diagnostics[1].why == commscope::reason::pointer_into_call);
}

TEST_SUITE_END();
