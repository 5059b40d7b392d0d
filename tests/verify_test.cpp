// docs/semantics.md, "Verifier": the pass's output verifies clean; hand-made programs
// break each property once, and the finding names its detail, subject and location.
#include "pass_support.hpp"

#include <commscope/frontend/frontend.hpp>

#include <memory>
#include <string>
#include <vector>

using namespace pass_test;
using commscope::reason;
using ref::source_location;
using ref::statement;
using ref::statement_ptr;
using ref::window_buffer_ptr;

namespace {

std::string reason_name(reason d) {
  switch (d) {
  case reason::empty_scope:
    return "empty_scope";
  case reason::null_slot:
    return "null_slot";
  case reason::slot_in_two_scopes:
    return "slot_in_two_scopes";
  case reason::unsorted_devices:
    return "unsorted_devices";
  case reason::view_outside_scope:
    return "view_outside_scope";
  case reason::alloc_not_slot:
    return "alloc_not_slot";
  case reason::view_of_other_buffer:
    return "view_of_other_buffer";
  case reason::noncanonical_devices:
    return "noncanonical_devices";
  case reason::missing_devices:
    return "missing_devices";
  case reason::uncovered_devices:
    return "uncovered_devices";
  default:
    return "other";
  }
}

/// "reason subject line:column" per finding; every finding has code `verify`.
template <class Findings> std::string findings(const Findings& out) {
  std::string s;
  for (const auto& d : out) {
    CHECK(d.code == error_code::verify);
    if (!s.empty())
      s += '\n';
    s += cat(reason_name(d.why), " ", d.subject, " ", d.where.line, ":", d.where.column);
  }
  return s;
}

/// Where the hand-made nodes of these tests live (for the whole run).
ref::node_factory& nodes() {
  static ref::node_factory w;
  return w;
}

window_buffer_ptr buffer(const std::string& name) {
  auto* w = nodes().make_node(ref::window_buffer{});
  w->name = nodes().string(name);
  return w;
}

statement_ptr scope(const std::string& name, std::vector<std::int64_t> devices,
                    std::vector<window_buffer_ptr> slots, std::vector<statement_ptr> body,
                    source_location where) {
  ref::statement_spec s;
  s.what = statement::kind::scope;
  s.scope_name = nodes().string(name);
  s.all_devices = devices.empty();
  s.devices = devices;
  s.slots = slots;
  s.body = body;
  s.where = where;
  return nodes().make(s);
}

/// `name = value` whose type points at `w`.
statement_ptr typed_assignment(const std::string& name, const window_buffer_ptr& w,
                               std::uint32_t id, ref::expression_ptr value, source_location where) {
  auto* t = nodes().make_node(ref::type{});
  t->window = w;
  const ref::variable_ptr v = nodes().make_variable(id, nodes().string(name), t);
  ref::statement_spec s;
  s.what = statement::kind::assign;
  s.targets = {&v, 1};
  s.value = value;
  s.where = where;
  return nodes().make(s);
}

/// `name = <something>` whose type points at `w`.
statement_ptr view(const std::string& name, const window_buffer_ptr& w, source_location where) {
  ref::expression_spec value;
  value.what = ref::expression::kind::integer;
  return typed_assignment(name, w, 0, nodes().make(value), where);
}

/// `v = pld.alloc_window_buffer(64)`; `id` must be unique in the program (the verifier
/// matches allocations to slots by variable).
statement_ptr allocation(const ref::variable_ptr& v, source_location where) {
  ref::expression_spec size;
  size.what = ref::expression::kind::integer;
  size.value = 64;
  const ref::expression_ptr args[] = {nodes().make(size)};
  ref::expression_spec call;
  call.what = ref::expression::kind::operation;
  call.op = operation::alloc_window_buffer;
  call.text = nodes().string("pld.alloc_window_buffer");
  call.name = v->name;
  call.args = args;
  call.where = where;
  ref::statement_spec s;
  s.what = statement::kind::assign;
  s.targets = {&v, 1};
  s.value = nodes().make(call);
  s.where = where;
  return nodes().make(s);
}

/// `name = pld.window(pointer, 0, 0)` whose type points at `w`.
statement_ptr window_view(const std::string& name, const ref::variable_ptr& pointer,
                          const window_buffer_ptr& w, std::uint32_t id, source_location where) {
  ref::expression_spec use;
  use.what = ref::expression::kind::name;
  use.var = pointer;
  use.text = pointer->name;
  ref::expression_spec zero;
  zero.what = ref::expression::kind::integer;
  const ref::expression_ptr args[] = {nodes().make(use), nodes().make(zero), nodes().make(zero)};
  ref::expression_spec call;
  call.what = ref::expression::kind::operation;
  call.op = operation::window;
  call.text = nodes().string("pld.window");
  call.args = args;
  call.where = where;
  return typed_assignment(name, w, id, nodes().make(call), where);
}

ref::variable_ptr variable(const std::string& name, std::uint32_t id) {
  return nodes().make_variable(id, nodes().string(name));
}

/// A copy of `f` with another body.
ref::function_ptr with_body(const ref::function& f, const std::vector<statement_ptr>& body) {
  auto* copy = nodes().make_node(f);
  copy->body = nodes().list(body);
  return copy;
}

/// A program with a chip orchestrator and one host orchestrator whose body is `body`.
program_ptr program_with(std::vector<statement_ptr> body) {
  program_builder pb;
  pb.chip_orchestrator("chip");
  pb.host_orchestrator("host");
  auto p = std::const_pointer_cast<ref::program>(pb.finish());
  p->functions.back() = with_body(*p->functions.back(), body);
  p->arenas.push_back(nodes().arena());
  return p;
}

/// The scope called `name` in the last function of `p`, found through nested scopes.
statement& scope_named(const program_ptr& p, std::string_view name) {
  std::vector<statement_ptr> work(p->functions.back()->body.begin(),
                                  p->functions.back()->body.end());
  while (!work.empty()) {
    const statement_ptr s = work.back();
    work.pop_back();
    if (s->what != statement::kind::scope)
      continue;
    if (s->scope_name().view() == name)
      return const_cast<statement&>(*s); // edited by hand, as a user would
    for (const auto& c : s->body())
      work.push_back(c);
  }
  FAIL("no scope " << name);
  throw;
}

/// Edits the devices of scope `name`: ids (none and no progressions: all) and
/// progressions as (start, step, stop offset) triples.
void set_devices(const program_ptr& p, std::string_view name, std::vector<std::int64_t> ids,
                 std::vector<std::int64_t> progressions = {}) {
  statement& s = scope_named(p, name);
  const auto slots = s.slots();
  const std::vector<window_buffer_ptr> kept(slots.begin(), slots.end());
  s.set_scope(s.scope_name(), nodes().list(ids), ids.empty() && progressions.empty(),
              nodes().list(kept), nodes().list(progressions));
}

/// The reference IR of `body`, the host orchestrator's body (its first line is 13) in the
/// text form, after a chip orchestrator `chip`.
program_ptr parsed(const std::string& body) {
  const std::string text = R"(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x):
        return x

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
)" + body;
  auto m = commscope::frontend::parse_module(text, {});
  REQUIRE_MESSAGE(!m.error, (m.error ? m.error->message : std::string()));
  REQUIRE(m.programs.size() == 1);
  return m.programs[0].program;
}

} // namespace

TEST_SUITE_BEGIN("verify");

TEST_CASE("the pass's output verifies clean") {
  fixture f;
  auto a = f.view("a");
  auto b = f.view("b");
  auto cbuf = f.h.alloc("c", 64);
  auto s = f.view("s");
  f.h.dispatch(f.chip, {a}, 1);
  auto r = f.h.for_world("r");
  f.h.dispatch(f.chip, {b}, r);
  f.h.begin_if(ref::function_builder::name("x"));
  auto copy = f.h.window("late", f.h.assign("p", cbuf)); // a view not at top level
  f.h.dispatch(f.chip, {copy}, r);
  f.h.end();
  f.h.end();
  f.h.collective(operation::allreduce, {a, s});
  program_ptr p = f.finish();
  CHECK(findings(commscope::verify(p)) == ""); // nothing materialized: nothing wrong
  REQUIRE(commscope::run(p).empty());
  CHECK(findings(commscope::verify(p)) == "");
  // The pass run again: still clean.
  REQUIRE(commscope::run(p).empty());
  CHECK(findings(commscope::verify(p)) == "");
}

TEST_CASE("a scope without slots") {
  const auto p = program_with({scope("comm_d0", {}, {}, {}, {4, 9})});
  const auto out = commscope::verify(p);
  CHECK(findings(out) == "empty_scope comm_d0 4:9");
  CHECK(out[0].message() == "scope 'comm_d0' has no slots");
}

TEST_CASE("a null slot, reported once per scope") {
  auto w = buffer("w");
  const auto p =
      program_with({scope("comm_d0", {}, {w, nullptr, nullptr}, {view("v", w, {5, 13})}, {4, 9})});
  const auto out = commscope::verify(p);
  CHECK(findings(out) == "null_slot comm_d0 4:9");
  CHECK(out[0].message() == "scope 'comm_d0' has a null slot");
}

TEST_CASE("a window buffer in two scopes, reported at the later scope") {
  auto w = buffer("shared");
  auto inner = scope("comm_d1", {1}, {w}, {view("v", w, {6, 17})}, {5, 13});
  const auto p = program_with({scope("comm_d0", {0}, {w}, {inner}, {4, 9})});
  const auto out = commscope::verify(p);
  CHECK(findings(out) == "slot_in_two_scopes shared 5:13");
  CHECK(out[0].message() == "window buffer 'shared' is a slot of more than one scope");
}

TEST_CASE("a window buffer in scopes of two functions") {
  auto w = buffer("w");
  auto p = std::const_pointer_cast<ref::program>(
      program_with({scope("comm_d0", {}, {w}, {view("v", w, {4, 13})}, {4, 9})}));
  p->functions.push_back(with_body(*p->functions.back(),
                                   {scope("comm_d0", {}, {w}, {view("u", w, {9, 13})}, {9, 9})}));
  CHECK(findings(commscope::verify(program_ptr(p))) == "slot_in_two_scopes w 9:9");
}

TEST_CASE("device lists must be ascending, unique and non-negative") {
  for (const auto& devices :
       std::vector<std::vector<std::int64_t>>{{3, 1}, {1, 1}, {-1}, {0, 2, 2, 5}}) {
    CAPTURE(devices.size());
    auto w = buffer("w");
    const auto p = program_with({scope("comm_d0", devices, {w}, {view("v", w, {5, 13})}, {4, 9})});
    const auto out = commscope::verify(p);
    CHECK(findings(out) == "unsorted_devices comm_d0 4:9");
    CHECK(out[0].message() ==
          "scope 'comm_d0' has a device list that is not ascending, unique and non-negative");
  }
  auto w = buffer("w");
  const auto ok = program_with({scope("comm_d0", {0, 1, 7}, {w}, {view("v", w, {5, 13})}, {4, 9})});
  CHECK(findings(commscope::verify(ok)) == "");
}

TEST_CASE("a view whose window buffer is in no enclosing scope") {
  SUBCASE("before the scope") {
    auto w = buffer("w");
    const auto p = program_with({view("early", w, {4, 9}), scope("comm_d0", {}, {w}, {}, {5, 9})});
    const auto out = commscope::verify(p);
    CHECK(findings(out) == "view_outside_scope w 4:9");
    CHECK(out[0].message() == "a view of window buffer 'w' is outside every scope that holds it");
  }
  SUBCASE("in a sibling scope") {
    auto w1 = buffer("w1");
    auto w2 = buffer("w2");
    const auto p = program_with({scope("comm_d0", {}, {w1}, {view("a", w1, {5, 13})}, {4, 9}),
                                 scope("comm_d1", {1}, {w2}, {view("b", w1, {7, 13})}, {6, 9})});
    CHECK(findings(commscope::verify(p)) == "view_outside_scope w1 7:13");
  }
  SUBCASE("its buffer is in no scope at all") {
    auto w = buffer("lost");
    auto other = buffer("other");
    const auto p = program_with({scope(
        "comm_d0", {}, {other}, {view("v", other, {5, 13}), view("x", w, {6, 13})}, {4, 9})});
    CHECK(findings(commscope::verify(p)) == "view_outside_scope lost 6:13");
  }
}

TEST_CASE("a partly materialized body: an allocation no enclosing scope holds") {
  auto a = variable("a", 1);
  auto late = variable("late", 2);
  auto* w = nodes().make_node(ref::window_buffer{});
  w->name = nodes().string("a");
  w->base = a;
  const auto p =
      program_with({scope("comm_d0", {}, {window_buffer_ptr(w)}, {allocation(a, {5, 13})}, {4, 9}),
                    allocation(late, {6, 9})});
  const auto out = commscope::verify(p);
  CHECK(findings(out) == "alloc_not_slot late 6:9");
  CHECK(out[0].message() == "allocation 'late' is no slot of a scope that encloses it");
  // The analysis reports it too, instead of reading the function back silently.
  const auto pl = commscope::analyze(p);
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].code == error_code::malformed_op);
  CHECK(pl.diagnostics[0].why == reason::alloc_outside_scope);
  CHECK(pl.diagnostics[0].subject == "late");
}

TEST_CASE("an allocation is held only by a slot of a scope that encloses it") {
  auto a = variable("a", 3);
  auto b = variable("b", 4);
  const auto slot_of = [](const ref::variable_ptr& base) {
    auto* w = nodes().make_node(ref::window_buffer{});
    w->name = nodes().string(std::string(base->name.view()));
    w->base = base;
    return window_buffer_ptr(w);
  };
  SUBCASE("a slot of a scope that ends before it") {
    const auto p =
        program_with({scope("comm_d0", {}, {slot_of(a)}, {}, {4, 9}),
                      scope("comm_d1", {}, {slot_of(b)}, {}, {5, 9}), allocation(a, {6, 9})});
    CHECK(findings(commscope::verify(p)) == "alloc_not_slot a 6:9");
  }
  SUBCASE("a slot of the scope around it, and of a later one") {
    const auto p =
        program_with({scope("comm_d0", {}, {slot_of(a)}, {allocation(a, {5, 13})}, {4, 9}),
                      scope("comm_d1", {}, {slot_of(a)}, {}, {6, 9})});
    CHECK(findings(commscope::verify(p)).empty());
  }
}

TEST_CASE("a slot whose window buffer has no base variable holds no allocation") {
  // A hand-built window buffer without a base (the reference IR's null variable): the
  // verifier and the analysis must not take it for any variable, nor read through it.
  auto a = variable("a", 7);
  const auto p =
      program_with({scope("comm_d0", {}, {buffer("a")}, {allocation(a, {5, 13})}, {4, 9})});
  CHECK(findings(commscope::verify(p)) == "alloc_not_slot a 5:13");
  // The analysis reads the function back: the slot's allocation has no base either, so
  // `a` is an allocation no scope lists.
  const auto pl = commscope::analyze(p);
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].code == error_code::malformed_op);
  CHECK(pl.diagnostics[0].why == reason::alloc_outside_scope);
  CHECK(pl.diagnostics[0].subject == "a");
}

TEST_CASE("a view typed with the window buffer of another allocation than its window reads") {
  auto a = variable("a", 11);
  auto b = variable("b", 12);
  const auto slot_of = [](const ref::variable_ptr& base) {
    auto* w = nodes().make_node(ref::window_buffer{});
    w->name = nodes().string(std::string(base->name.view()));
    w->base = base;
    return window_buffer_ptr(w);
  };
  const auto wa = slot_of(a), wb = slot_of(b);
  const auto body = [&](const window_buffer_ptr& typed) {
    return program_with({scope(
        "comm_d0", {}, {wa, wb},
        {allocation(a, {5, 13}), allocation(b, {6, 13}), window_view("v", a, typed, 13, {7, 13})},
        {4, 9})});
  };
  CHECK(findings(commscope::verify(body(wa))).empty());
  const auto out = commscope::verify(body(wb));
  CHECK(findings(out) == "view_of_other_buffer b 7:13");
  CHECK(out[0].message() == "a view typed with window buffer 'b' reads another allocation");
  // Without a scope the analysis does not run: the walk alone judges the view.
  const auto unscoped = program_with(
      {allocation(a, {5, 13}), allocation(b, {6, 13}), window_view("v", a, wb, 13, {7, 13})});
  CHECK(findings(commscope::verify(unscoped)) == "view_outside_scope b 7:13\n"
                                                 "view_of_other_buffer b 7:13");
}

TEST_CASE("several findings come out in walk order") {
  auto w = buffer("w");
  auto inner = scope("comm_d1", {2, 1}, {}, {view("late", buffer("stray"), {7, 17})}, {6, 13});
  const auto p =
      program_with({view("early", w, {4, 9}), scope("comm_d0", {}, {w, nullptr}, {inner}, {5, 9})});
  CHECK(findings(commscope::verify(p)) == "view_outside_scope w 4:9\n"
                                          "null_slot comm_d0 5:9\n"
                                          "empty_scope comm_d1 6:13\n"
                                          "unsorted_devices comm_d1 6:13\n"
                                          "view_outside_scope stray 7:17");
}

TEST_CASE("a scope that lacks a constant device the program dispatches to") {
  fixture f;
  auto a = f.view("a"); // lines 4-5
  f.h.dispatch(f.chip, {a}, 0);
  f.h.dispatch(f.chip, {a}, 2);
  f.h.dispatch(f.chip, {a}, 5);
  program_ptr p = f.finish();
  REQUIRE(commscope::run(p).empty());
  CHECK(findings(commscope::verify(p)) == "");
  set_devices(p, "comm_d0", {0, 5});
  auto out = commscope::verify(p);
  CHECK(findings(out) == "missing_devices a 4:9");
  CHECK(out[0].object == "comm_d0");
  CHECK(out[0].message() == "scope 'comm_d0' lacks devices the program uses for allocation 'a': 2");
  set_devices(p, "comm_d0", {1});
  out = commscope::verify(p);
  CHECK(out[0].message() ==
        "scope 'comm_d0' lacks devices the program uses for allocation 'a': 0 and 2 more");
}

TEST_CASE("a dispatch added to a materialized body after the pass") {
  const auto p = parsed(R"(        with pld.comm_domain("comm_d0", devices=[0, 1], slots=[buf]):
            buf = pld.alloc_window_buffer(64)
            v = pld.window(buf, [8], dtype=pl.FP32) # window_buffer=buf
            self.chip(v, device=0)
            self.chip(v, device=1)
            self.chip(v, device=2)
)");
  const auto out = commscope::verify(p);
  CHECK(findings(out) == "missing_devices buf 14:13");
  CHECK(out[0].message() ==
        "scope 'comm_d0' lacks devices the program uses for allocation 'buf': 2");
}

TEST_CASE("a scope that lacks part of a loop's range") {
  SUBCASE("a constant range") {
    fixture f;
    auto a = f.view("a");
    auto r = f.h.for_range("r", 4);
    f.h.dispatch(f.chip, {a}, r);
    f.h.end();
    program_ptr p = f.finish();
    REQUIRE(commscope::run(p).empty());
    CHECK(findings(commscope::verify(p)) == "");
    set_devices(p, "comm_d0", {0, 1, 2});
    auto out = commscope::verify(p);
    CHECK(findings(out) == "missing_devices a 4:9");
    CHECK(out[0].device == 3);
    CHECK(out[0].more == 0);
  }
  SUBCASE("the whole world") {
    fixture f;
    auto a = f.view("a");
    auto r = f.h.for_world("r");
    f.h.dispatch(f.chip, {a}, r);
    f.h.end();
    program_ptr p = f.finish();
    REQUIRE(commscope::run(p).empty());
    CHECK(findings(commscope::verify(p)) == "");
    set_devices(p, "comm_d0", {0, 1, 2, 3});
    const auto out = commscope::verify(p);
    CHECK(findings(out) == "uncovered_devices a 4:9");
    CHECK(out[0].message() ==
          "scope 'comm_d0' does not cover the devices the program uses for allocation 'a'");
  }
}

TEST_CASE("all covers every device and a wider scope is no finding") {
  fixture f;
  auto a = f.view("a");
  auto b = f.view("b");
  f.h.dispatch(f.chip, {a}, 1);
  f.h.dispatch(f.chip, {a}, 3);
  auto r = f.h.for_world("r");
  f.h.dispatch(f.chip, {b}, r);
  f.h.end();
  program_ptr p = f.finish();
  REQUIRE(commscope::run(p).empty());
  CHECK(findings(commscope::verify(p)) == "");
  set_devices(p, "comm_d0", {}); // `a` in an `all` scope
  CHECK(findings(commscope::verify(p)) == "");
  set_devices(p, "comm_d0", {0, 1, 2, 3, 9});
  CHECK(findings(commscope::verify(p)) == "");
  set_devices(p, "comm_d0", {0}, {1, 2, 0}); // {0} and range(1, ws, 2)
  CHECK(findings(commscope::verify(p)) == "");
}

TEST_CASE("a symbolic scope that lacks part of a progression") {
  fixture f;
  auto a = f.view("a"); // lines 4-5
  f.h.dispatch(f.chip, {a}, 0);
  auto r = f.h.for_range("r", 1, f.h.world_size(), 2);
  f.h.dispatch(f.chip, {a}, r);
  f.h.end();
  program_ptr p = f.finish();
  REQUIRE(commscope::run(p).empty());
  CHECK(findings(commscope::verify(p)) == "");
  set_devices(p, "comm_d0", {0}, {1, 2, 0}); // as the pass wrote it
  CHECK(findings(commscope::verify(p)) == "");
  set_devices(p, "comm_d0", {0});
  CHECK(findings(commscope::verify(p)) == "uncovered_devices a 4:9");
  set_devices(p, "comm_d0", {0}, {1, 4, 0}); // every other device of the loop
  CHECK(findings(commscope::verify(p)) == "uncovered_devices a 4:9");
  set_devices(p, "comm_d0", {0}, {1, 2, 1}); // the loop's last device in odd worlds
  CHECK(findings(commscope::verify(p)) == "uncovered_devices a 4:9");
  set_devices(p, "comm_d0", {}, {1, 2, 0}); // device 0
  CHECK(findings(commscope::verify(p)) == "uncovered_devices a 4:9");
}

TEST_CASE("symbolic scopes are judged in the worlds that can run the function") {
  // b's dispatch to device 3 always runs: W is 4, and range(0, ws - 1) holds device 2 in
  // every such world; range(0, ws - 2) not in a world of 4.
  fixture f;
  auto a = f.view("a"); // lines 4-5
  auto b = f.view("b");
  f.h.dispatch(f.chip, {a}, 2);
  f.h.dispatch(f.chip, {b}, 3);
  program_ptr p = f.finish();
  REQUIRE(commscope::run(p).empty());
  CHECK(findings(commscope::verify(p)) == "");
  set_devices(p, "comm_d0", {}, {0, 1, 1});
  CHECK(findings(commscope::verify(p)) == "");
  set_devices(p, "comm_d0", {}, {0, 1, 2});
  CHECK(findings(commscope::verify(p)) == "uncovered_devices a 4:9");
}

TEST_CASE("a signal whose scope lacks the devices its allreduce passes on from the data") {
  fixture f;
  auto a = f.view("a"); // lines 4-5
  auto s = f.view("s"); // lines 6-7
  f.h.dispatch(f.chip, {a}, 0);
  f.h.dispatch(f.chip, {a}, 1);
  f.h.dispatch(f.chip, {s}, 3);
  f.h.collective(operation::allreduce, {a, s});
  program_ptr p = f.finish();
  REQUIRE(commscope::run(p).empty());
  CHECK(findings(commscope::verify(p)) == "");
  set_devices(p, "comm_d1", {3}); // s's scope, [0, 1, 3] as the pass wrote it
  const auto out = commscope::verify(p);
  CHECK(findings(out) == "missing_devices s 6:9");
  CHECK(out[0].message() ==
        "scope 'comm_d1' lacks devices the program uses for allocation 's': 0 and 1 more");
}

TEST_CASE("where the analysis reports an error, the verifier adds no finding of its own") {
  // `n` is no device the analysis can infer: `bad` lost evidence, `good` did not.
  const auto p = parsed(R"(        with pld.comm_domain("comm_d0", devices=[0], slots=[bad, good]):
            bad = pld.alloc_window_buffer(64)
            v = pld.window(bad, [8], dtype=pl.FP32) # window_buffer=bad
            self.chip(v, device=n)
            self.chip(v, device=5)
            good = pld.alloc_window_buffer(64)
            w = pld.window(good, [8], dtype=pl.FP32) # window_buffer=good
            self.chip(w, device=6)
)");
  CHECK(findings(commscope::verify(p)) == "missing_devices good 18:13");
}

TEST_CASE("the pass's output verifies clean: loops, progressions, collectives, synthesis") {
  program_ptr p = parsed(R"(        a = pld.alloc_window_buffer(64)
        v = pld.window(a, [8], dtype=pl.FP32)
        s = pld.alloc_window_buffer(64)
        w = pld.window(s, [8], dtype=pl.INT32)
        b = pld.alloc_window_buffer(64)
        x = pld.window(b, [8], dtype=pl.FP32)
        c = pld.alloc_window_buffer(64)
        y = pld.window(c, [8], dtype=pl.FP32)
        self.chip(v, device=4)
        for r in pl.range(1, pld.world_size() - 2, 3):
            self.chip(x, device=r)
        for k in pl.range(2, 40, 7):
            self.chip(y, device=k)
        pld.tensor.allreduce(v, w)
        pld.tensor.allreduce(x)
        if n > 0:
            self.chip(y, device=100)
)");
  const traits t;
  REQUIRE(commscope::run(p, t, commscope::with_signal_synthesis).empty());
  CHECK(findings(commscope::verify(p)) == "");
  REQUIRE(commscope::run(p, t, commscope::with_signal_synthesis).empty());
  CHECK(findings(commscope::verify(p)) == "");
}

TEST_SUITE_END();
