// An IR shaped like the host compiler's own: functions in a map sorted by name, calls
// that keep `device=` and `name=` in one map of keywords with variant values, nodes held
// by shared_ptr. Its adapter gives neither subexpressions nor expressions (the library
// derives them from arguments and device_of), builds each window buffer in one step with
// an owning reference to its allocation, and its plans do not depend on where a function
// sits in the map. An `if` holds its branches (then, each elif, else; a missing else is
// an empty one), of which one runs.
#include <commscope/commscope.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace kw {

struct expr;
using expr_ptr = std::shared_ptr<const expr>;
using keyword = std::variant<std::int64_t, std::string, expr_ptr>;

struct expr {
  commscope::expression_kind kind = commscope::expression_kind::other;
  std::int64_t value = 0;
  std::string variable;
  commscope::call_target target{};
  std::vector<expr_ptr> args;
  std::map<std::string, keyword> keywords;
  int line = 0;
};

struct stmt : std::enable_shared_from_this<stmt> {
  commscope::statement_kind kind = commscope::statement_kind::evaluation;
  std::vector<std::string> targets;
  expr_ptr value;
  std::string loop_variable;
  expr_ptr stop; ///< for loop_variable in range(stop)
  std::vector<std::shared_ptr<stmt>> body;
  /// An if (kind other): its alternatives; its body is empty.
  std::vector<std::vector<std::shared_ptr<stmt>>> branches;
  int line = 0;
};

/// Built in one step from the allocation's own statement, which it keeps alive.
struct window_buffer {
  std::shared_ptr<const stmt> allocation;
  std::string name;
};

struct function {
  commscope::function_info info;
  std::vector<std::shared_ptr<stmt>> body;
  std::vector<std::string> scopes; ///< the names wrap_body was given, outermost first
};

struct program {
  std::map<std::string, function> functions; ///< by name, not in source order
  std::vector<std::unique_ptr<window_buffer>> buffers;
  std::map<std::string, const window_buffer*> views;
};

struct traits {
  using program = kw::program;
  using function = kw::function*;
  using statement = const stmt*;
  using expression = const expr*;
  using variable = std::string; ///< hashable: no variable_key
  using location = int;
  using window_buffer = const kw::window_buffer*;

  static std::vector<function> functions(const program& p) {
    std::vector<function> r;
    for (auto& [name, f] : const_cast<kw::program&>(p).functions)
      r.push_back(&f);
    return r;
  }
  static commscope::function_info describe(function f) { return f->info; }
  static std::vector<statement> body(function f) { return list(f->body); }
  static commscope::statement_kind statement_kind_of(statement s) { return s->kind; }
  static location location_of(statement s) { return s->line; }
  static location location_of(expression e) { return e->line; }
  /// An if's children are all of its branches' statements (for a reader that takes them
  /// as one block); control_of says that they are alternatives.
  static std::vector<statement> children(statement s) {
    std::vector<statement> r = list(s->body);
    for (const auto& b : s->branches)
      for (const auto& c : b)
        r.push_back(c.get());
    return r;
  }
  static commscope::control_flow control_of(statement s) {
    if (!s->branches.empty())
      return commscope::control_flow::alternatives;
    return s->kind == commscope::statement_kind::scope ? commscope::control_flow::block
                                                       : commscope::control_flow::may_skip;
  }
  static std::vector<std::vector<statement>> branches(statement s) {
    std::vector<std::vector<statement>> r;
    for (const auto& b : s->branches)
      r.push_back(list(b));
    return r;
  }
  static const std::vector<std::string>& targets(statement s) { return s->targets; }
  static expression value(statement s) { return s->value.get(); }
  static variable loop_variable(statement s) { return s->loop_variable; }
  /// Loops are `for v in range(stop)`: the implicit bounds are integers.
  static commscope::loop_bounds<std::int64_t, expression, std::int64_t> loop_bounds(statement s) {
    return {0, s->stop.get(), 1};
  }
  static commscope::expression_kind expression_kind_of(expression e) { return e->kind; }
  static std::int64_t integer_value(expression e) { return e->value; }
  static variable variable_of(expression e) { return e->variable; }
  static commscope::call_target call_target_of(expression e) { return e->target; }
  static std::vector<expression> arguments(expression e) {
    std::vector<expression> r;
    for (const auto& a : e->args)
      r.push_back(a.get());
    return r;
  }
  static std::optional<expression> device_of(expression e) {
    const auto it = e->keywords.find("device");
    const auto* d = it == e->keywords.end() ? nullptr : std::get_if<expr_ptr>(&it->second);
    return d ? std::optional<expression>(d->get()) : std::nullopt;
  }
  static std::string_view allocation_name(expression e) {
    const auto it = e->keywords.find("name");
    const auto* n = it == e->keywords.end() ? nullptr : std::get_if<std::string>(&it->second);
    return n ? std::string_view(*n) : std::string_view();
  }

  // ---- the rewrite, in place, through the program
  using rewriter = program*;
  static rewriter begin_rewrite(program& p) { return &p; }
  static window_buffer make_window_buffer(rewriter& p,
                                          const commscope::window_buffer_spec<traits>& s) {
    auto owner = const_cast<stmt*>(s.statement)->shared_from_this();
    p->buffers.push_back(std::make_unique<kw::window_buffer>(
        kw::window_buffer{std::move(owner), std::string(s.name)}));
    return p->buffers.back().get();
  }
  static void retype_view(rewriter& p, const commscope::view_spec<traits>& v) {
    p->views[v.variable] = v.window_buffer;
  }
  static void wrap_body(rewriter&, function f, std::span<const commscope::scope_spec<traits>> s) {
    for (const auto& scope : s)
      f->scopes.emplace_back(scope.name);
  }
  static void commit(rewriter&, program&) {}

private:
  static std::vector<statement> list(const std::vector<std::shared_ptr<stmt>>& v) {
    std::vector<statement> r;
    for (const auto& s : v)
      r.push_back(s.get());
    return r;
  }
};

// ---- a small builder
inline expr_ptr integer(std::int64_t v) {
  auto e = std::make_shared<expr>();
  e->kind = commscope::expression_kind::integer;
  e->value = v;
  return e;
}
inline expr_ptr use(std::string v) {
  auto e = std::make_shared<expr>();
  e->kind = commscope::expression_kind::variable;
  e->variable = std::move(v);
  return e;
}
inline expr_ptr call(commscope::call_target t, std::vector<expr_ptr> args,
                     std::map<std::string, keyword> keywords = {}, int line = 0) {
  auto e = std::make_shared<expr>();
  e->kind = commscope::expression_kind::call;
  e->target = t;
  e->args = std::move(args);
  e->keywords = std::move(keywords);
  e->line = line;
  return e;
}
inline std::shared_ptr<stmt> assign(std::string target, expr_ptr value, int line) {
  auto s = std::make_shared<stmt>();
  s->kind = commscope::statement_kind::assignment;
  s->targets = {std::move(target)};
  s->value = std::move(value);
  s->line = line;
  return s;
}
inline std::shared_ptr<stmt> evaluate(expr_ptr value, int line) {
  auto s = std::make_shared<stmt>();
  s->value = std::move(value);
  s->line = line;
  return s;
}

/// if/elif/else as one statement of alternatives (without an else: an empty last one).
inline std::shared_ptr<stmt> if_else(std::vector<std::vector<std::shared_ptr<stmt>>> branches,
                                     int line = 0) {
  auto s = std::make_shared<stmt>();
  s->kind = commscope::statement_kind::other;
  s->branches = std::move(branches);
  s->line = line;
  return s;
}
/// `for variable in range(stop)`, or `while`: a loop over `body`.
inline std::shared_ptr<stmt> loop(commscope::statement_kind kind, std::string variable,
                                  expr_ptr stop, std::vector<std::shared_ptr<stmt>> body,
                                  int line = 0) {
  auto s = std::make_shared<stmt>();
  s->kind = kind;
  s->loop_variable = std::move(variable);
  s->stop = std::move(stop);
  s->body = std::move(body);
  s->line = line;
  return s;
}
/// break or continue.
inline std::shared_ptr<stmt> jump(int line = 0) {
  auto s = std::make_shared<stmt>();
  s->kind = commscope::statement_kind::jump;
  s->line = line;
  return s;
}

/// A host orchestrator that allocates `buffer`, takes its view `view` and dispatches it on
/// `device`.
inline function host(const std::string& buffer, const std::string& view, std::int64_t device,
                     int line, const commscope::function_info& chip) {
  using commscope::call_target;
  using commscope::operation;
  function f;
  auto alloc =
      call(call_target::of(operation::alloc_window_buffer), {integer(64)}, {{"name", buffer}});
  f.body.push_back(assign(buffer, alloc, line + 1));
  f.body.push_back(assign(view,
                          call(call_target::of(operation::window), {use(buffer), integer(64)},
                               {{"dtype", std::string("fp32")}}),
                          line + 2));
  f.body.push_back(
      evaluate(call(call_target::of(chip), {use(view)},
                    {{"device", integer(device)}, {"core_num", std::int64_t{2}}}, line + 3),
               line + 3));
  f.info = {"", commscope::level::host, true, false};
  return f;
}

} // namespace kw

namespace {

/// Two hosts whose map order ("a_late" < "z_early") is the reverse of their source order.
kw::program make_program(bool valid) {
  const commscope::function_info chip{"chip", commscope::level::chip, true, false};
  kw::program p;
  p.functions["chip"].info = chip;
  p.functions["z_early"] = kw::host("first", "first_v", 3, 10, chip);
  p.functions["a_late"] = kw::host("second", "second_v", valid ? 5 : -5, 20, chip);
  for (auto& [name, f] : p.functions)
    if (name != "chip")
      f.info.name = name;
  return p;
}

/// Appends `for r in range(stop)` (line 14) dispatching chip(first_v, device=r) (line 15).
void add_dispatch_loop(kw::function& f, kw::expr_ptr stop) {
  auto loop = std::make_shared<kw::stmt>();
  loop->kind = commscope::statement_kind::for_loop;
  loop->loop_variable = std::string(1, 'r'); // not = "r": GCC 105329, a false -Wrestrict
  loop->stop = std::move(stop);
  loop->line = 14;
  const commscope::function_info chip{"chip", commscope::level::chip, true, false};
  loop->body.push_back(kw::evaluate(kw::call(commscope::call_target::of(chip), {kw::use("first_v")},
                                             {{"device", kw::use("r")}}, 15),
                                    15));
  f.body.push_back(loop);
}

} // namespace

static_assert(commscope::materializable_ir<kw::traits>);
static_assert(!commscope::provides<kw::traits, commscope::contract::subexpressions>);
static_assert(!commscope::provides<kw::traits, commscope::contract::expressions>);
static_assert(!commscope::provides<kw::traits, commscope::contract::variable_key> &&
              !commscope::provides<kw::traits, commscope::contract::variable_index>);

TEST_CASE("keywords in a map of variants: device= and name= found without an iterator") {
  kw::program p = make_program(true);
  const auto pl = commscope::analyze(p, kw::traits{});
  REQUIRE(pl.ok());
  REQUIRE(pl.functions.size() == 2);
  // The plan follows functions(): the map's order, not the source's.
  CHECK(pl.functions[0].name == "a_late");
  CHECK(pl.functions[1].name == "z_early");
  for (const auto& f : pl.functions) {
    REQUIRE(f.allocations.size() == 1);
    REQUIRE(f.domains.size() == 1);
    std::vector<commscope::device_id> ids;
    f.domains[0].devices.for_each([&](auto d) { ids.push_back(d); });
    CHECK(ids == std::vector<commscope::device_id>{f.name == "a_late" ? 5 : 3});
    CHECK(f.allocations[0].name == (f.name == "a_late" ? "second" : "first"));
  }
}

TEST_CASE("each function numbers its own scopes, whatever the order of functions") {
  kw::program p = make_program(true);
  REQUIRE(commscope::run(p, kw::traits{}).empty());
  CHECK(p.functions["a_late"].scopes == std::vector<std::string>{"comm_d0"});
  CHECK(p.functions["z_early"].scopes == std::vector<std::string>{"comm_d0"});
  // Window buffers built in one step, owning their allocation statement.
  REQUIRE(p.buffers.size() == 2);
  for (const auto& b : p.buffers) {
    REQUIRE(b->allocation);
    CHECK(b->allocation->kind == commscope::statement_kind::assignment);
    CHECK(b->allocation->targets[0] == b->name);
  }
  CHECK(p.views.at("first_v")->name == "first");
  CHECK(p.views.at("second_v")->name == "second");
}

TEST_CASE("a loop whose implicit bounds are integers: range(4) gives {0, 1, 2, 3}") {
  kw::program p = make_program(true);
  auto& f = p.functions["z_early"];
  add_dispatch_loop(f, kw::integer(4));
  const auto pl = commscope::analyze(p, kw::traits{});
  REQUIRE(pl.ok());
  const auto& fp = pl.functions[1];
  REQUIRE(fp.name == "z_early");
  REQUIRE(fp.domains.size() == 1);
  std::vector<commscope::device_id> ids;
  fp.domains[0].devices.for_each([&](auto d) { ids.push_back(d); });
  CHECK(ids == std::vector<commscope::device_id>{0, 1, 2, 3}); // and 3 from line 13
}

TEST_CASE("without symbolic_device_sets, range(world_size()) is all and nothing symbolic") {
  // Its loops are `range(stop)`: a loop over part of the world cannot be written, and the
  // adapter does not take symbolic sets (partial-world-range for the others: index_ir).
  static_assert(!commscope::contract::symbolic_device_sets::of<kw::traits>());
  kw::program p = make_program(true);
  auto& f = p.functions["z_early"];
  add_dispatch_loop(
      f, kw::call(commscope::call_target::of(commscope::operation::world_size), {}, {}, 14));
  const auto pl = commscope::analyze(p, kw::traits{});
  REQUIRE(pl.ok());
  const auto& fp = pl.functions[1];
  REQUIRE(fp.name == "z_early");
  bool any_all = false;
  for (const auto& d : fp.domains) {
    CHECK(!d.devices.has_progressions());
    any_all = any_all || d.devices.is_all();
  }
  CHECK(any_all);
}

TEST_CASE("diagnostics are reported in the order of functions()") {
  kw::program p = make_program(false);
  const auto pl = commscope::analyze(p, kw::traits{});
  REQUIRE(pl.diagnostics.size() == 1);
  CHECK(pl.diagnostics[0].code == commscope::error_code::negative_device);
  CHECK(pl.diagnostics[0].where == 23);
  CHECK(commscope::materialize(p, pl, kw::traits{}) == commscope::rewrite_result::rejected);
  CHECK(p.buffers.empty());
}

// ---- control flow (docs/semantics.md, "Rebinding and control flow")
namespace {

using stmt_list = std::vector<std::shared_ptr<kw::stmt>>;
const commscope::function_info chip_info{"chip", commscope::level::chip, true, false};

std::shared_ptr<kw::stmt> dispatch(const std::string& view, kw::expr_ptr device) {
  return kw::evaluate(
      kw::call(commscope::call_target::of(chip_info), {kw::use(view)}, {{"device", device}}), 0);
}
std::shared_ptr<kw::stmt> copy(const std::string& to, const std::string& from) {
  return kw::assign(to, kw::use(from), 0);
}

/// One host orchestrator: allocations b1, b2, b3 with views v, w, u, then `rest`; the
/// devices of each allocation after analysis, "b1={0} b2=all ...", then the codes.
std::string analyzed(stmt_list rest) {
  using commscope::call_target;
  using commscope::operation;
  kw::program p;
  p.functions["chip"].info = chip_info;
  auto& f = p.functions["host"];
  f.info = {"host", commscope::level::host, true, false};
  for (auto [buffer, view] : {std::pair("b1", "v"), std::pair("b2", "w"), std::pair("b3", "u")}) {
    f.body.push_back(kw::assign(buffer,
                                kw::call(call_target::of(operation::alloc_window_buffer),
                                         {kw::integer(64)}, {{"name", std::string(buffer)}}),
                                0));
    f.body.push_back(kw::assign(
        view, kw::call(call_target::of(operation::window), {kw::use(buffer), kw::integer(64)}), 0));
  }
  f.body.insert(f.body.end(), rest.begin(), rest.end());
  const auto pl = commscope::analyze(p, kw::traits{});
  std::string s;
  for (const auto& a : pl.functions.at(0).allocations) {
    s += std::string(a.name) + "=";
    if (a.devices.is_all()) {
      s += "all ";
      continue;
    }
    std::string ids;
    a.devices.for_each([&](auto d) { ids += (ids.empty() ? "" : ",") + std::to_string(d); });
    s += "{" + ids + "} ";
  }
  for (const auto& d : pl.diagnostics)
    s += std::string(commscope::code_name(d.code)) + " ";
  return s;
}

} // namespace

static_assert(commscope::provides<kw::traits, commscope::contract::control_of> &&
              commscope::provides<kw::traits, commscope::contract::branches>);

TEST_CASE("control flow: `if flag: v = w / else: chip(v)` is no unconsumed-alloc") {
  CHECK(analyzed({kw::if_else({{copy("v", "w")}, {dispatch("v", kw::integer(0))}}),
                  dispatch("w", kw::integer(1)), dispatch("u", kw::integer(2))}) ==
        "b1={0} b2={1} b3={2} ");
}

TEST_CASE("control flow: after `if flag: v = w`, a dispatch of v covers both") {
  CHECK(analyzed({kw::if_else({{copy("v", "w")}, {}}), dispatch("v", kw::integer(2)),
                  dispatch("u", kw::integer(0))}) == "b1={2} b2={2} b3={0} ");
  // An elif that binds too, and an else that leaves v as it was.
  CHECK(analyzed({kw::if_else({{copy("v", "w")}, {copy("v", "u")}, {}}),
                  dispatch("v", kw::integer(1))}) == "b1={1} b2={1} b3={1} ");
  // Bound on every path: the old view no longer reaches.
  CHECK(analyzed({dispatch("v", kw::integer(0)), kw::if_else({{copy("v", "w")}, {copy("v", "u")}}),
                  dispatch("v", kw::integer(1))}) == "b1={0} b2={1} b3={1} ");
}

TEST_CASE("control flow: a loop that rebinds a view at its end: the dispatch at its top "
          "covers both") {
  using commscope::statement_kind;
  CHECK(analyzed({kw::loop(statement_kind::for_loop, "r", kw::integer(4),
                           {dispatch("v", kw::use("r")), copy("v", "w")}),
                  dispatch("u", kw::integer(0))}) == "b1={0,1,2,3} b2={0,1,2,3} b3={0} ");
  CHECK(analyzed({kw::loop(statement_kind::while_loop, "", nullptr,
                           {dispatch("v", kw::integer(3)), copy("v", "w")}),
                  dispatch("u", kw::integer(0))}) == "b1={3} b2={3} b3={0} ");
}

TEST_CASE("control flow: a break carries the view bound before it out of the loop") {
  using commscope::statement_kind;
  // for r in range(3): v = w; if c: break; v = u / chip(v, device=5)
  CHECK(analyzed({kw::loop(statement_kind::for_loop, "r", kw::integer(3),
                           {copy("v", "w"), kw::if_else({{kw::jump()}, {}}), copy("v", "u")}),
                  dispatch("v", kw::integer(5))}) == "b1={5} b2={5} b3={5} ");
}
