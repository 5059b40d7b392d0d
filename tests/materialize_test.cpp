// docs/semantics.md, steps 7, 8, 10 and "Output invariants", on the reference IR
// (immutable shared nodes, rebuilt on rewrite).
#include "pass_support.hpp"

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

using namespace pass_test;
using fb = ref::function_builder;
using ref::expression;
using ref::statement;

// The former name of the rewrite's result compiles for one release (CHANGELOG.md).
static_assert(std::is_same_v<commscope::materialized, commscope::rewrite_result>);
// So does the former spelling of an analyzed function's state.
static_assert(function_plan_t::state::analysed == function_plan_t::state::analyzed);

namespace {

/// Every variable an expression of `f` refers to, and every variable a statement binds,
/// in walk order (iterative).
struct uses {
  std::vector<const ref::variable*> read;
  std::vector<const ref::variable*> bound;
};
uses uses_of(const ref::function& f) {
  uses u;
  std::vector<const statement*> stmts;
  std::vector<const expression*> exprs;
  for (const auto& s : f.body)
    stmts.push_back(s.get());
  while (!stmts.empty()) {
    const statement* s = stmts.back();
    stmts.pop_back();
    for (const auto& t : s->targets())
      u.bound.push_back(t.get());
    for (const auto& e : {s->value(), s->start(), s->stop(), s->step()})
      if (e)
        exprs.push_back(e.get());
    for (const auto& e : s->values())
      exprs.push_back(e.get());
    for (const auto& c : s->body())
      stmts.push_back(c.get());
    for (const auto& c : s->orelse())
      stmts.push_back(c.get());
  }
  while (!exprs.empty()) {
    const expression* e = exprs.back();
    exprs.pop_back();
    if (e->var())
      u.read.push_back(e->var().get());
    if (e->base())
      exprs.push_back(e->base().get());
    for (const auto& a : e->args())
      exprs.push_back(a.get());
    for (const auto& k : e->keywords())
      exprs.push_back(k.value.get());
  }
  return u;
}

/// The chain of scopes wrapping a function's body, outermost first.
std::vector<const statement*> scope_chain(const ref::function& f) {
  std::vector<const statement*> out;
  ref::node_span<ref::statement_ptr> body = f.body;
  while (body.size() == 1 && body[0]->what == statement::kind::scope) {
    out.push_back(body[0].get());
    body = body[0]->body();
  }
  return out;
}

/// A scope's device list.
std::vector<std::int64_t> devices_of(const statement* s) {
  return {s->devices().begin(), s->devices().end()};
}

/// The new variable bound under the name `name` in `f`.
const ref::variable* bound_named(const ref::function& f, const std::string& name) {
  for (const auto* v : uses_of(f).bound)
    if (v->name == name)
      return v;
  return nullptr;
}

const ref::function& function_of(const program_ptr& p, const std::string& name) {
  for (const auto& f : p->functions)
    if (f->sig->name == name)
      return *f;
  FAIL("no function " << name);
  return *p->functions.front();
}

} // namespace

TEST_SUITE_BEGIN("materialize");

TEST_CASE("one window buffer per allocation, shared by all of its views, with its fields") {
  fixture f;
  auto size = fb::mul(256, 4);
  auto buf = f.h.alloc("buf", size);
  auto v1 = f.h.window("v1", buf);
  auto v2 = f.h.window("v2", buf);
  auto other = f.h.alloc("other", 8, "renamed");
  auto ov = f.h.window("ov", other);
  f.h.dispatch(f.chip, {v1, v2, ov}, 0);
  program_ptr p = f.finish();
  const program_ptr before = p;
  CHECK(commscope::run(p).empty());
  REQUIRE(p != before);
  const auto& host = function_of(p, "host");
  const auto* n1 = bound_named(host, "v1");
  const auto* n2 = bound_named(host, "v2");
  const auto* no = bound_named(host, "ov");
  REQUIRE(n1);
  REQUIRE(n2);
  REQUIRE(no);
  CHECK(n1 != v1.get()); // fresh variables...
  CHECK(n1->name == "v1"); // ...with the same names
  REQUIRE(n1->var_type);
  REQUIRE(n1->var_type->window);
  const ref::window_buffer* w = n1->var_type->window.get();
  CHECK(n2->var_type->window.get() == w); // pointer identity across views
  const ref::window_buffer* wo = no->var_type->window.get();
  REQUIRE(wo);
  CHECK(wo != w);
  // Fields.
  CHECK(w->base.get() == buf.get());
  CHECK(w->size.get() == size.get().get());
  CHECK(w->load_from_host == false);
  CHECK(w->store_to_host == false);
  CHECK(w->name == "buf");
  CHECK(wo->name == "renamed");
  CHECK(wo->base.get() == other.get());
  // The distributed tensor type keeps its shape and dtype.
  CHECK(n1->var_type->shape == v1->var_type->shape);
  CHECK(n1->var_type->dtype == v1->var_type->dtype);
  CHECK(v1->var_type->window == nullptr); // the old node is untouched
  // The allocation variable is not a view: it is shared, not retyped.
  CHECK(bound_named(host, "buf") == buf.get());
  // The scope holds exactly these objects, in allocation order.
  const auto chain = scope_chain(host);
  REQUIRE(chain.size() == 1);
  REQUIRE(chain[0]->slots().size() == 2);
  CHECK(chain[0]->slots()[0].get() == w);
  CHECK(chain[0]->slots()[1].get() == wo);
}

TEST_CASE("every use of an old view is substituted") {
  fixture f;
  auto buf = f.h.alloc("buf", 64);
  auto v = f.h.window("v", buf);
  auto sig = f.view("sig");
  auto c = f.h.assign("c", v);                                  // a copy
  auto r = f.h.for_world("r");
  f.h.dispatch(f.chip, {v, fb::add(v, 1)}, r);                  // args, nested
  f.h.end();
  f.h.collective(operation::allreduce, {v, sig});               // collective
  auto y = f.h.collective("y", operation::allreduce, {c, sig});
  auto i = f.h.for_range("i", 0, fb::mul(v, 2), 1);             // a loop bound
  f.h.evaluate(fb::list({v, fb::list({sig})}));
  f.h.end();
  f.h.begin_while(fb::binary("<", v, 3));                       // a condition
  f.h.end();
  f.h.return_value({v, y});                                     // returns
  (void)i;
  program_ptr p = f.finish();
  const program_ptr before = p;
  const auto old_uses = uses_of(function_of(before, "host"));
  const auto count_old = std::count(old_uses.read.begin(), old_uses.read.end(), v.get());
  CHECK(count_old == 8);
  REQUIRE(commscope::run(p).empty());
  const auto& host = function_of(p, "host");
  const auto* nv = bound_named(host, "v");
  const auto* nsig = bound_named(host, "sig_v");
  REQUIRE(nv);
  REQUIRE(nsig);
  const auto now = uses_of(host);
  // No old view is read or bound anywhere; the new one is read exactly where the old was.
  for (const auto* old : {v.get(), sig.get()}) {
    CHECK(std::count(now.read.begin(), now.read.end(), old) == 0);
    CHECK(std::count(now.bound.begin(), now.bound.end(), old) == 0);
  }
  CHECK(std::count(now.read.begin(), now.read.end(), nv) == count_old);
  CHECK(std::count(now.read.begin(), now.read.end(), nsig) ==
        std::count(old_uses.read.begin(), old_uses.read.end(), sig.get()));
  // Non-views keep their identity.
  CHECK(bound_named(host, "c") == c.get());
  CHECK(bound_named(host, "y") == y.get());
  CHECK(std::count(now.read.begin(), now.read.end(), c.get()) == 1);
}

TEST_CASE("the scope chain: comm_d0 outermost, devices sorted, empty means all") {
  fixture f;
  auto a = f.view("a");
  auto b = f.view("b");
  auto c = f.view("c");
  auto d = f.view("d");
  f.h.dispatch(f.chip, {a}, 5);
  f.h.dispatch(f.chip, {a}, 2);
  auto r = f.h.for_range("r", 9, 0, -3); // 9, 6, 3
  f.h.dispatch(f.chip, {a}, r);
  f.h.end();
  auto w = f.h.for_world("w");
  f.h.dispatch(f.chip, {b, d}, w);
  f.h.end();
  f.h.dispatch(f.chip, {c}, 0);
  program_ptr p = f.finish();
  const auto first_statement = function_of(p, "host").body.front();
  REQUIRE(commscope::run(p).empty());
  const auto& host = function_of(p, "host");
  const auto chain = scope_chain(host);
  REQUIRE(chain.size() == 3);
  CHECK(chain[0]->scope_name() == "comm_d0");
  CHECK(chain[1]->scope_name() == "comm_d1");
  CHECK(chain[2]->scope_name() == "comm_d2");
  CHECK(devices_of(chain[0]) == std::vector<std::int64_t>{2, 3, 5, 6, 9});
  CHECK_FALSE(chain[0]->all_devices());
  CHECK(chain[1]->devices().empty());
  CHECK(chain[1]->all_devices());
  CHECK(devices_of(chain[2]) == std::vector<std::int64_t>{0});
  auto names = [](const statement* s) {
    std::string out;
    for (const auto& w : s->slots())
      out += cat(out.empty() ? "" : ",", w->name);
    return out;
  };
  CHECK(names(chain[0]) == "a");
  CHECK(names(chain[1]) == "b,d");
  CHECK(names(chain[2]) == "c");
  // The innermost scope holds the original statements; the first allocation is shared.
  REQUIRE(!chain[2]->body().empty());
  CHECK(chain[2]->body().front() == first_statement);
  CHECK(chain[0]->where == first_statement->where);
}

TEST_CASE("chip orchestrators and their parameter types are untouched") {
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip");
  auto kernel = pb.other_function("kernel", commscope::level::chip, false, false);
  auto& h = pb.host_orchestrator("host");
  auto v = h.window("v", h.alloc("buf", 8));
  h.dispatch(chip, {v}, 0);
  h.evaluate(h.call(kernel, {1})); // a view passed to it would escape
  program_ptr p = pb.finish();
  const program_ptr before = p;
  REQUIRE(commscope::run(p).empty());
  REQUIRE(p->functions.size() == 3);
  CHECK(p->functions[0] == before->functions[0]);
  CHECK(p->functions[1] == before->functions[1]);
  CHECK(p->functions[2] != before->functions[2]);
  for (int i = 0; i < 2; ++i) {
    const auto& fn = *p->functions[static_cast<std::size_t>(i)];
    REQUIRE(fn.params.size() == 1);
    REQUIRE(fn.params[0].var->var_type);
    CHECK(fn.params[0].var->var_type->window == nullptr);
  }
  // The call still names the very same callee signature.
  const auto& host = *p->functions[2];
  const auto chain = scope_chain(host);
  REQUIRE(chain.size() == 1);
  const auto& dispatch = chain[0]->body()[2];
  CHECK(dispatch->value()->callee() == chip);
}

TEST_CASE("idempotence: a second run changes nothing, the same program object") {
  fixture f;
  auto a = f.view("a");
  auto b = f.view("b");
  f.h.dispatch(f.chip, {a}, 1);
  auto r = f.h.for_world("r");
  f.h.dispatch(f.chip, {b}, r);
  f.h.end();
  program_ptr p = f.finish();
  REQUIRE(commscope::run(p).empty());
  const program_ptr once = p;
  const auto again = commscope::analyze(p);
  CHECK(again.ok());
  REQUIRE(again.functions.size() == 1);
  CHECK(again.functions[0].status == function_plan_t::state::already_materialized);
  CHECK(domains(again) == "[{1}] a; [all] b");
  CHECK(commscope::materialize(p, again) == commscope::rewrite_result::unchanged);
  CHECK(p == once);
  CHECK(commscope::run(p).empty());
  CHECK(p == once);
}

TEST_CASE("a function without allocations is the very same object") {
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip");
  auto& empty = pb.host_orchestrator("empty");
  empty.dispatch(chip, {1}, 0);
  auto& full = pb.host_orchestrator("full");
  full.evaluate(full.call(chip, {})); // a call without device=: not a dispatch
  auto v = full.window("v", full.alloc("buf", 8));
  full.dispatch(chip, {v}, 0);
  auto& other = pb.host_orchestrator("other");
  other.return_value({0});
  program_ptr p = pb.finish();
  const program_ptr before = p;
  const auto pl = commscope::analyze(p);
  REQUIRE(pl.ok());
  CHECK(function_named(pl, "empty").status == function_plan_t::state::no_allocations);
  CHECK(function_named(pl, "full").status == function_plan_t::state::analyzed);
  REQUIRE(commscope::materialize(p, pl) == commscope::rewrite_result::rewritten);
  CHECK(p != before);
  REQUIRE(p->functions.size() == 4);
  CHECK(p->functions[0] == before->functions[0]); // chip
  CHECK(p->functions[1] == before->functions[1]); // empty
  CHECK(p->functions[2] != before->functions[2]); // full
  CHECK(p->functions[3] == before->functions[3]); // other
  CHECK(p->functions[2]->sig == before->functions[2]->sig);
}

TEST_CASE("a program without allocations is the very same object") {
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip");
  auto& h = pb.host_orchestrator("host");
  h.dispatch(chip, {1}, 0);
  program_ptr p = pb.finish();
  const program_ptr before = p;
  CHECK(commscope::run(p).empty());
  CHECK(p == before);
}

TEST_CASE("all or nothing: any error leaves the whole program as it was") {
  SUBCASE("the error is in the only function") {
    fixture f;
    auto a = f.view("a");
    auto b = f.view("b");
    f.h.dispatch(f.chip, {a}, 0);
    f.h.dispatch(f.chip, {b}, -1);
    program_ptr p = f.finish();
    const program_ptr before = p;
    const auto pl = commscope::analyze(p);
    REQUIRE_FALSE(pl.ok());
    CHECK(commscope::materialize(p, pl) == commscope::rewrite_result::rejected);
    CHECK(p == before);
    const auto d = commscope::run(p);
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == error_code::negative_device);
    CHECK(p == before);
  }
  SUBCASE("the error is in another function than a valid one") {
    program_builder pb;
    auto chip = pb.chip_orchestrator("chip");
    auto& good = pb.host_orchestrator("good");
    auto v = good.window("v", good.alloc("buf", 8));
    good.dispatch(chip, {v}, 0);
    auto& bad = pb.host_orchestrator("bad");
    bad.alloc("dead", 8);
    program_ptr p = pb.finish();
    const program_ptr before = p;
    const auto good_function = p->functions[1];
    const auto d = commscope::run(p);
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == error_code::dead_alloc);
    CHECK(p == before);
    CHECK(p->functions[1] == good_function);
    CHECK(scope_chain(*p->functions[1]).empty());
    CHECK(v->var_type->window == nullptr);
  }
}

TEST_CASE("two host orchestrators are materialized independently") {
  program_builder pb;
  auto chip = pb.chip_orchestrator("chip");
  auto& h1 = pb.host_orchestrator("one");
  auto a = h1.window("a_v", h1.alloc("a", 8));
  h1.dispatch(chip, {a}, 3);
  auto& h2 = pb.host_orchestrator("two");
  auto b = h2.window("b_v", h2.alloc("a", 8)); // the same name in another function
  h2.dispatch(chip, {b}, 3);
  program_ptr p = pb.finish();
  REQUIRE(commscope::run(p).empty());
  const auto c1 = scope_chain(function_of(p, "one"));
  const auto c2 = scope_chain(function_of(p, "two"));
  REQUIRE(c1.size() == 1);
  REQUIRE(c2.size() == 1);
  CHECK(c1[0]->scope_name() == "comm_d0");
  CHECK(c2[0]->scope_name() == "comm_d0");
  CHECK(c1[0]->slots()[0] != c2[0]->slots()[0]);
  CHECK(p->variable_bound > 0);
  // Fresh view variables have ids below the program's bound.
  CHECK(bound_named(function_of(p, "two"), "b_v")->id < p->variable_bound);
}

TEST_SUITE_END();
