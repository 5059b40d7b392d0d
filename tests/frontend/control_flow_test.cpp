// The front end and the library agree under control flow (docs/semantics.md, "Rebinding
// and control flow"): the parser binds a name again as one variable of its function (its
// name_id), tells the analysis how each compound statement runs, and the analysis
// resolves every use to the bindings that may reach it. The printed program of the pass
// parses back to the same plan.
#include "parse_support.hpp"
#include "pass_support.hpp"

#include <commscope/commscope.hpp>
#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/print.hpp>
#include <commscope/reference/traits.hpp>

#include <doctest/doctest.h>

#include <iterator>
#include <string>
#include <string_view>
#include <vector>

using parse_test::host_program;
using parse_test::parse_ok;
using pass_test::diags;
using pass_test::domains;
using pass_test::traits;
namespace ref = commscope::reference;
namespace fe = commscope::frontend;
using ref::statement;

namespace {

const ref::function& host_of(const ref::program_ptr& p) { return *p->functions.at(1); }

std::size_t count(auto&& range) {
  return static_cast<std::size_t>(std::distance(range.begin(), range.end()));
}

/// The names of a statement's values (traits::values), comma-separated.
std::string value_names(const statement& s) {
  std::string out;
  for (const ref::expression* e : traits::values(&s)) {
    if (!out.empty())
      out += ",";
    out += e->var() ? std::string(e->var()->name.view()) : fe::print_expression(*e);
  }
  return out;
}

/// "views: name->buffer ..." and the domains of the one host orchestrator, or the
/// diagnostics: what a test compares between two programs.
std::string summary(const pass_test::plan_t& pl) {
  if (!pl.ok())
    return diags(pl);
  std::string out = domains(pl) + " |";
  for (const auto& v : pl.functions.at(0).views)
    out += " " + std::string(v.variable->name.view()) + "->" +
           std::string(pl.functions[0].allocations.at(v.allocation).name);
  return out;
}

/// The plan of a host body, materialized, printed and parsed back: the second plan must
/// be the first (read back from the scopes), the printed program must verify and be a
/// fixed point of the pass. Returns the first plan's summary.
std::string round_trip(const std::string& body, std::string* printed_out = nullptr) {
  auto p = parse_ok(host_program(body));
  const auto pl = commscope::analyze(p);
  const std::string first = summary(pl);
  if (!pl.ok())
    return first;
  auto q = p;
  CHECK(commscope::materialize(q, pl) == commscope::rewrite_result::rewritten);
  const std::string printed = fe::print(q);
  auto back = parse_ok(printed);
  CHECK(summary(commscope::analyze(back)) == first);
  CHECK(commscope::verify(back).empty());
  auto again = back;
  commscope::materialize(again, commscope::analyze(again));
  CHECK(fe::print(again) == printed);
  if (printed_out)
    *printed_out = printed;
  return first;
}

/// a and b with a view v of a: what the tests below rebind.
constexpr std::string_view two_buffers = "        a = pld.alloc_window_buffer(64)\n"
                                         "        b = pld.alloc_window_buffer(64)\n"
                                         "        v = pld.window(a, [16], dtype=pl.FP32)\n";

std::string with_two_buffers(std::string_view rest) {
  return std::string(two_buffers) + std::string(rest);
}

} // namespace

TEST_CASE("a name is one variable of its function: each binding its own node, one name_id") {
  auto p = parse_ok(host_program("        x = 1\n"
                                 "        y = x\n"
                                 "        if y:\n"
                                 "            x = 2\n"
                                 "        else:\n"
                                 "            x = 3\n"
                                 "        for i in pl.range(4):\n"
                                 "            x += 1\n"
                                 "        z = x\n"));
  const auto& f = host_of(p);
  const auto x1 = f.body[0]->targets()[0];
  const auto x2 = f.body[2]->body()[0]->targets()[0];
  const auto x3 = f.body[2]->orelse()[0]->targets()[0];
  const auto x4 = f.body[3]->body()[0]->targets()[0]; // x += 1 rebinds x opaquely
  const auto y = f.body[1]->targets()[0];
  CHECK(x1 != x2);
  CHECK(x2 != x3);
  CHECK(x1->name_id == x2->name_id);
  CHECK(x1->name_id == x3->name_id);
  CHECK(x1->name_id == x4->name_id);
  CHECK(traits::variable_index(x1.get()) == traits::variable_index(x3.get()));
  CHECK(traits::variable_index(x1.get()) != traits::variable_index(y.get()));
  CHECK(traits::variable_index(f.body[4]->value()->var().get()) ==
        traits::variable_index(x1.get()));
  CHECK(x1->name_id < p->variable_bound);

  // A parameter is the first binding of its name; another function's names are its own.
  auto q = parse_ok("@pl.program\nclass P:\n"
                    "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
                    "    def one(self, n):\n        n = n + 1\n"
                    "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
                    "    def two(self):\n        n = 0\n");
  const auto& one = *q->functions[0];
  const auto& two = *q->functions[1];
  CHECK(one.body[0]->targets()[0]->name_id == one.params[0].var->name_id);
  CHECK(two.body[0]->targets()[0]->name_id != one.params[0].var->name_id);
}

TEST_CASE("control_of and branches: if/elif/else alternatives, with, loops over items, try") {
  auto p = parse_ok(host_program("        if a:\n"
                                 "            pass\n"
                                 "        elif b:\n"
                                 "            x = 1\n"
                                 "            x = 2\n"
                                 "        if c:\n"
                                 "            pass\n"
                                 "        with pl.at(level=pl.Level.HOST):\n"
                                 "            pass\n"
                                 "        for t in items:\n"
                                 "            break\n"
                                 "        for i in pl.range(4):\n"
                                 "            continue\n"
                                 "        else:\n"
                                 "            pass\n"
                                 "        try:\n"
                                 "            pass\n"
                                 "        except KeyError as e:\n"
                                 "            pass\n"
                                 "        finally:\n"
                                 "            pass\n"
                                 "        async with lock:\n"
                                 "            pass\n"
                                 "        with open(path) as f:\n"
                                 "            pass\n"));
  const auto& f = host_of(p);
  using commscope::control_flow;
  using commscope::statement_kind;
  const statement& chain = *f.body[0];
  CHECK(traits::control_of(&chain) == control_flow::alternatives);
  auto arms = traits::branches(&chain);
  CHECK(count(arms[0]) == 1);
  REQUIRE(count(arms[1]) == 1); // the elif, alone in the else branch
  const statement& elif = **arms[1].begin();
  CHECK(traits::control_of(&elif) == control_flow::alternatives);
  CHECK(count(traits::branches(&elif)[0]) == 2);
  CHECK(count(traits::branches(&elif)[1]) == 0); // no else: an empty alternative
  CHECK(count(traits::branches(f.body[1].get())[1]) == 0);
  CHECK(traits::control_of(f.body[2].get()) == control_flow::block);  // the DSL's own with
  CHECK(traits::control_of(f.body[3].get()) == control_flow::repeat); // for over items
  CHECK(traits::statement_kind_of(f.body[3]->body()[0].get()) == statement_kind::jump);
  CHECK(traits::statement_kind_of(f.body[4].get()) == statement_kind::for_loop);
  CHECK(traits::statement_kind_of(f.body[4]->body()[0].get()) == statement_kind::jump);
  // An exception may stop these part way while what follows runs (a handler, or a
  // manager that swallows it); a loop's else too, read as a try's may be.
  CHECK(traits::control_of(f.body[5].get()) == control_flow::may_stop);  // a loop's else
  CHECK(traits::control_of(f.body[6].get()) == control_flow::may_stop);  // try
  CHECK(traits::control_of(f.body[7].get()) == control_flow::may_stop);  // except
  CHECK(traits::control_of(f.body[8].get()) == control_flow::may_stop);  // finally
  CHECK(traits::control_of(f.body[9].get()) == control_flow::may_stop);  // async with
  CHECK(traits::control_of(f.body[10].get()) == control_flow::may_stop); // any other with
  CHECK(traits::statement_kind_of(f.body[7].get()) == statement_kind::other);
  CHECK(count(traits::targets(f.body[7].get())) == 1); // `as e` rebinds e
}

TEST_CASE("values: parallel assignments, a loop's init_values and its closing yield") {
  const std::string body = "        a, b = b0, a0\n"
                           "        c, d = f()\n"
                           "        e, g = *h, 1\n"
                           "        k, m = [a, b]\n"
                           "        for i, (acc, t) in pl.range(0, 4, init_values=(a, b)):\n"
                           "            nxt = pl.add(acc, 1)\n"
                           "            pl.yield_(nxt, t)  # carried\n"
                           "        for j, (acc,) in pl.range(4, init_values=(a,)):\n"
                           "            pl.yield_(acc)\n"
                           "            pass\n"
                           "        for j, (acc,) in pl.range(4, init_values=(a, b)):\n"
                           "            pl.yield_(acc, b)\n";
  auto p = parse_ok(host_program(body));
  const auto& f = host_of(p);
  CHECK(value_names(*f.body[0]) == "b0,a0");
  CHECK(value_names(*f.body[1]).empty());
  CHECK(value_names(*f.body[2]).empty()); // starred: not one value per target
  CHECK(value_names(*f.body[3]) == "a,b");
  const statement& loop = *f.body[4];
  CHECK(value_names(loop) == "a,b");
  REQUIRE(count(traits::targets(&loop)) == 2);
  const statement& yield = *loop.body()[1];
  CHECK(traits::statement_kind_of(&yield) == commscope::statement_kind::assignment);
  REQUIRE(yield.targets().size() == 2);
  CHECK(yield.targets()[0]->name_id == loop.targets()[0]->name_id);
  CHECK(yield.targets()[1]->name_id == loop.targets()[1]->name_id);
  CHECK(value_names(yield) == "nxt,t");
  // Only a closing yield of as many values as the loop carries is an assignment.
  CHECK(f.body[5]->body()[0]->what == statement::kind::evaluate);
  // init_values of the wrong length: the whole value, which each carried name may hold.
  CHECK(value_names(*f.body[6]) == "(a, b)");
  CHECK(f.body[6]->body()[0]->what == statement::kind::evaluate);
  // Printed as written.
  CHECK(fe::print(p).find("            pl.yield_(nxt, t)  # carried\n") != std::string::npos);
}

TEST_CASE("may-sets: rebinding in if/elif/else, straight-line inside a branch exact") {
  SUBCASE("after if/elif without else, a use sees every branch's view and the old one") {
    CHECK(round_trip(with_two_buffers("        c = pld.alloc_window_buffer(64)\n"
                                      "        if x:\n"
                                      "            v = pld.window(b, [16], dtype=pl.FP32)\n"
                                      "        elif y:\n"
                                      "            v = pld.window(c, [16], dtype=pl.FP32)\n"
                                      "        self.chip(v, device=0)\n")) ==
          "[{0}] a,b,c | v->a v->b v->c");
  }
  SUBCASE("a binding in the then branch does not reach the else branch") {
    std::string printed;
    CHECK(round_trip(with_two_buffers("        if x:\n"
                                      "            v = pld.window(b, [16], dtype=pl.FP32)\n"
                                      "            self.chip(v, device=1)\n"
                                      "        else:\n"
                                      "            self.chip(v, device=2)\n"),
                     &printed) == "[{2}] a; [{1}] b | v->a v->b");
    // Each binding of v retyped on its own, and printed with its own window buffer.
    CHECK(printed.find(" v = pld.window(a, [16], dtype=pl.FP32) # window_buffer=a\n") !=
          std::string::npos);
    CHECK(printed.find(" v = pld.window(b, [16], dtype=pl.FP32) # window_buffer=b\n") !=
          std::string::npos);
  }
  SUBCASE("a binding on every path replaces the view before the if") {
    CHECK(round_trip(with_two_buffers("        c = pld.alloc_window_buffer(64)\n"
                                      "        self.chip(v, device=5)\n"
                                      "        if x:\n"
                                      "            v = pld.window(b, [16], dtype=pl.FP32)\n"
                                      "        else:\n"
                                      "            v = pld.window(c, [16], dtype=pl.FP32)\n"
                                      "        self.chip(v, device=0)\n")) ==
          "[{5}] a; [{0}] b,c | v->a v->b v->c");
  }
  SUBCASE("a copy of either of two views") {
    CHECK(round_trip(with_two_buffers("        u = pld.window(b, [16], dtype=pl.FP32)\n"
                                      "        if x:\n"
                                      "            y = v\n"
                                      "        else:\n"
                                      "            y = u\n"
                                      "        self.chip(y, device=4)\n")) ==
          "[{4}] a,b | v->a u->b");
  }
}

TEST_CASE("may-sets: loops run zero or more times") {
  SUBCASE("a view rebound in a for loop, dispatched at the loop top") {
    CHECK(round_trip(with_two_buffers("        for k in pl.range(2):\n"
                                      "            self.chip(v, device=k)\n"
                                      "            v = pld.window(b, [16], dtype=pl.FP32)\n"
                                      "        self.chip(v, device=7)\n")) ==
          "[{0,1,7}] a,b | v->a v->b");
  }
  SUBCASE("a while loop, and a binding before a break reaches the exit") {
    CHECK(round_trip(with_two_buffers("        c = pld.alloc_window_buffer(64)\n"
                                      "        while n > 0:\n"
                                      "            if n == 3:\n"
                                      "                v = pld.window(c, [16], dtype=pl.FP32)\n"
                                      "                break\n"
                                      "            v = pld.window(b, [16], dtype=pl.FP32)\n"
                                      "        self.chip(v, device=2)\n")) ==
          "[{2}] a,b,c | v->a v->c v->b");
  }
  SUBCASE("inside one iteration, straight-line code is exact") {
    CHECK(round_trip(with_two_buffers("        self.chip(v, device=0)\n"
                                      "        for k in pl.range(3):\n"
                                      "            v = pld.window(b, [16], dtype=pl.FP32)\n"
                                      "            self.chip(v, device=k)\n")) ==
          "[{0}] a; [{0,1,2}] b | v->a v->b");
  }
}

TEST_CASE("may-sets: collectives in a branch, with and without their signal") {
  SUBCASE("data = allreduce(data, sig) in a branch keeps data a view of its buffer") {
    CHECK(round_trip("        buf = pld.alloc_window_buffer(64)\n"
                     "        sig = pld.alloc_window_buffer(4)\n"
                     "        data = pld.window(buf, [16], dtype=pl.FP32)\n"
                     "        s = pld.window(sig, [1], dtype=pl.INT32)\n"
                     "        if x:\n"
                     "            data = pld.tensor.allreduce(data, s)\n"
                     "        self.chip(data, device=3)\n") == "[{3}] buf,sig | data->buf s->sig");
  }
  SUBCASE("the data may view either of two buffers: the signal inherits from both") {
    CHECK(round_trip(with_two_buffers("        sig = pld.alloc_window_buffer(4)\n"
                                      "        s = pld.window(sig, [1], dtype=pl.INT32)\n"
                                      "        self.chip(v, device=1)\n"
                                      "        if x:\n"
                                      "            v = pld.window(b, [16], dtype=pl.FP32)\n"
                                      "            self.chip(v, device=2)\n"
                                      "        pld.tensor.allreduce(v, s)\n")) ==
          "[{1}] a; [{2}] b; [{1,2}] sig | v->a s->sig v->b");
  }
  SUBCASE("a signal synthesized inside a branch") {
    auto p = parse_ok(host_program("        buf = pld.alloc_window_buffer(64)\n"
                                   "        data = pld.window(buf, [16], dtype=pl.FP32)\n"
                                   "        for r in pl.range(pld.world_size()):\n"
                                   "            self.chip(data, device=r)\n"
                                   "        if x:\n"
                                   "            data = pld.tensor.allreduce(data)\n"
                                   "        self.chip(data, device=0)\n"));
    CHECK(commscope::synthesize_signals(p).empty());
    const auto pl = commscope::analyze(p);
    CHECK(diags(pl).empty());
    CHECK(domains(pl) == "[all] buf,__allreduce_signal_buf_0");
  }
}

TEST_CASE("statements that rebind a name to what the pass does not follow") {
  // x += e, a[i], x = ..., a nested def: assignments of an opaque value, printed as
  // written; the targets of a block bound as its body begins, each time.
  auto p = parse_ok(host_program("        i = 0\n"
                                 "        i += 1  # counted\n"
                                 "        a[0], j = 1, 2\n"
                                 "        def helper():\n"
                                 "            return 0\n"
                                 "        for r in ranks:\n"
                                 "            pass\n"
                                 "        with open(f) as g:\n"
                                 "            pass\n"));
  const auto& f = host_of(p);
  using commscope::statement_kind;
  for (std::size_t k = 1; k < 4; ++k) {
    CAPTURE(k);
    CHECK(traits::statement_kind_of(f.body[k].get()) == statement_kind::assignment);
    CHECK(traits::expression_kind_of(traits::value(f.body[k].get())) ==
          commscope::expression_kind::other);
  }
  CHECK(f.body[1]->targets()[0]->name_id == f.body[0]->targets()[0]->name_id);
  CHECK(f.body[2]->targets().size() == 1); // j; a[0] binds no name
  CHECK(f.body[3]->targets()[0]->name == "helper");
  for (std::size_t k = 4; k < 6; ++k) {
    const statement& block = *f.body[k];
    const ref::statement* first = *traits::children(&block).begin();
    CHECK(count(traits::children(&block)) == 2);
    CHECK(traits::statement_kind_of(first) == statement_kind::assignment);
    CHECK(first->targets()[0] == block.targets()[0]);
    CHECK(block.body().size() == 1); // the body as written
  }
  const std::string printed = fe::print(p);
  CHECK(printed.find("        i += 1  # counted\n        a[0], j = 1, 2\n        def helper():\n"
                     "            return 0\n        for r in ranks:\n            pass\n") !=
        std::string::npos);

  // A counter bumped in a loop, a loop over items: no constant device.
  const auto rejected = [](std::string_view body) {
    return diags(commscope::analyze(
        parse_ok(host_program(std::string("        buf = pld.alloc_window_buffer(64)\n"
                                          "        v = pld.window(buf, [16], dtype=pl.FP32)\n") +
                              std::string(body)))));
  };
  CHECK(rejected("        i = 0\n"
                 "        while i < n:\n"
                 "            self.chip(v, device=i)\n"
                 "            i += 1\n") == "unsupported-device chip 13:13");
  CHECK(rejected("        r = 0\n"
                 "        for r in ranks:\n"
                 "            self.chip(v, device=r)\n") == "unsupported-device chip 13:13");
  CHECK(rejected("        with open(f) as v:\n"
                 "            self.chip(v, device=0)\n") == "unconsumed-alloc buf 9:9");
}

TEST_CASE("the verifier keeps two allocations bound to one name apart") {
  // The second allocation of `buf` is no slot: the first one's slot does not hold it.
  auto p =
      parse_ok(host_program("        with pld.comm_domain(\"comm_d0\", devices=[0], slots=[buf]):\n"
                            "            if x:\n"
                            "                buf = pld.alloc_window_buffer(8)\n"
                            "            else:\n"
                            "                buf = pld.alloc_window_buffer(16)\n"
                            "            v = pld.window(buf, [2], dtype=pl.FP32)\n"));
  const auto found = commscope::verify(p);
  REQUIRE(found.size() == 1);
  CHECK(found[0].why == commscope::reason::alloc_not_slot);
  CHECK(found[0].where == ref::source_location{13, 17});
  // Each a slot of its own scope: nothing to report.
  auto q = parse_ok(
      host_program("        with pld.comm_domain(\"comm_d0\", devices=[0], slots=[b8]):\n"
                   "            with pld.comm_domain(\"comm_d1\", devices=[1], slots=[b16]):\n"
                   "                if x:\n"
                   "                    buf = pld.alloc_window_buffer(8, name=\"b8\")\n"
                   "                else:\n"
                   "                    buf = pld.alloc_window_buffer(16, name=\"b16\")\n"));
  CHECK(commscope::verify(q).empty());
}
