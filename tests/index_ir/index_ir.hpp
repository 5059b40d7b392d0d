// A third test IR, data-oriented: every node lives in a flat array of one module and every
// handle is a 32-bit index (an enum class, so that the handle types stay apart). A
// variable is a name: binding it again rebinds the same variable, as Python does (no
// renaming): a view's type is recorded on its binding, the statement. An `if` lists the
// statements of all its branches as its children and says where each branch begins, any
// other statement with children whether they run once or may not run at all; a parallel
// assignment (`a, b = b, a`) lists its targets and values. The adapter is a
// stateful traits object holding the module; the rewrite is in place, without a
// rewriter, and builds each window buffer in one step.
#pragma once

#include <commscope/commscope.hpp>
#include <commscope/compile_time/ir.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace index_ir {

enum class fn : std::uint32_t {};
enum class st : std::uint32_t {};
enum class ex : std::uint32_t {};
enum class var : std::uint32_t {};
enum class wb : std::uint32_t {};
inline constexpr std::uint32_t none = 0xffffffffu;

struct location {
  std::uint32_t line = 0, column = 0;
  friend bool operator==(location, location) = default;
};

struct function_node {
  commscope::function_info info;
  std::uint32_t first = 0, count = 0; ///< statements: lists[first, first + count)
};
struct statement_node {
  commscope::statement_kind kind{};
  std::uint32_t target = none, value = none; ///< a for loop's variable is its target
  std::uint32_t start = none, stop = none, step = none;
  std::uint32_t first = 0, count = 0; ///< children: lists[first, first + count)
  std::uint32_t scope = none;         ///< a scope statement's entry in scopes
  location where;
  /// An if (kind other): its branches, in order, are `branches` consecutive runs of its
  /// children; lists[branch_first + k] is where run k begins among them, and one more
  /// entry ends the last run. A missing else is an empty run.
  std::uint32_t branch_first = 0, branches = 0;
  /// How the children of any other statement with children run (a scope's: once).
  commscope::control_flow control = commscope::control_flow::may_skip;
  /// A parallel assignment has target none; its targets are lists[first, first + count)
  /// (variables) and its values the next `count` entries (expressions).
};
struct expression_node {
  commscope::expression_kind kind{};
  std::int64_t value = 0;
  std::uint32_t variable = none;
  commscope::call_target target{};
  std::uint32_t first = 0, count = 0; ///< arguments: lists[first, first + count)
  std::uint32_t device = none;
  std::string_view name;
  location where;
};
struct window_buffer_node {
  st allocation{};
  var base{};
  ex size{};
  std::string_view name;
};
struct scope_node {
  std::string name;
  std::vector<std::int64_t> devices;
  std::vector<wb> slots;
};

struct module {
  std::vector<function_node> functions;
  std::vector<statement_node> statements;
  std::vector<expression_node> expressions;
  std::vector<std::uint32_t> lists;
  std::vector<std::string> variables;
  std::vector<std::uint32_t> view_buffer; ///< per statement: the window buffer of the
                                          ///< view it binds, or none
  std::vector<window_buffer_node> buffers;
  std::vector<scope_node> scopes;
};

constexpr std::uint32_t at(auto handle) { return static_cast<std::uint32_t>(handle); }

/// The adapter: the analysis core, the scope readers and the rewrite hooks. `Numbered`:
/// whether it numbers its variables (variable_index); without, the analysis tells them
/// apart by hashing the handles, which the benchmarks measure against.
template <bool Numbered> struct basic_traits {
  using program = module;
  using function = fn;
  using statement = st;
  using expression = ex;
  using variable = var;
  using location = index_ir::location;
  using window_buffer = wb;

  module* m = nullptr;

  template <class H> auto list(std::uint32_t first, std::uint32_t count) const {
    return std::span(m->lists).subspan(first, count) |
           std::views::transform([](std::uint32_t i) { return H{i}; });
  }
  template <class H> static auto optional(std::uint32_t i) {
    return std::views::single(H{i}) | std::views::take(i == none ? 0 : 1);
  }
  const statement_node& node(st s) const { return m->statements[at(s)]; }
  const expression_node& node(ex e) const { return m->expressions[at(e)]; }

  auto functions(const module& p) const {
    return std::views::iota(0u, static_cast<std::uint32_t>(p.functions.size())) |
           std::views::transform([](std::uint32_t i) { return fn{i}; });
  }
  commscope::function_info describe(fn f) const { return m->functions[at(f)].info; }
  auto body(fn f) const { return list<st>(m->functions[at(f)].first, m->functions[at(f)].count); }

  commscope::statement_kind statement_kind_of(st s) const { return node(s).kind; }
  location location_of(st s) const { return node(s).where; }
  location location_of(ex e) const { return node(e).where; }
  auto children(st s) const { return list<st>(node(s).first, parallel(s) ? 0 : node(s).count); }
  commscope::control_flow control_of(st s) const {
    if (node(s).branches != 0)
      return commscope::control_flow::alternatives;
    return node(s).kind == commscope::statement_kind::scope ? commscope::control_flow::block
                                                            : node(s).control;
  }
  auto branches(st s) const {
    return std::views::iota(0u, node(s).branches) | std::views::transform([this, s](auto k) {
             const auto* at = &m->lists[node(s).branch_first + k];
             return list<st>(node(s).first + at[0], at[1] - at[0]);
           });
  }
  bool parallel(st s) const {
    return node(s).kind == commscope::statement_kind::assignment && node(s).target == none;
  }
  /// One variable per target: a plain assignment's one, a parallel assignment's list.
  auto targets(st s) const {
    const auto& n = node(s);
    const bool one = n.kind == commscope::statement_kind::assignment && n.target != none;
    return std::views::iota(0u, one           ? 1u
                                : parallel(s) ? n.count
                                              : 0u) |
           std::views::transform([this, s, one](std::uint32_t k) {
             return var{one ? node(s).target : m->lists[node(s).first + k]};
           });
  }
  /// One value per target of a parallel assignment (traits.hpp: empty for any other;
  /// a plain assignment's value is value()).
  auto values(st s) const {
    return std::views::iota(0u, parallel(s) ? node(s).count : 0u) |
           std::views::transform([this, s](std::uint32_t k) {
             return ex{m->lists[node(s).first + node(s).count + k]};
           });
  }
  ex value(st s) const { return ex{node(s).value}; }
  auto expressions(st s) const { return optional<ex>(node(s).value); }
  var loop_variable(st s) const { return var{node(s).target}; }
  commscope::loop_bounds<ex> loop_bounds(st s) const {
    return {ex{node(s).start}, ex{node(s).stop}, ex{node(s).step}};
  }

  commscope::expression_kind expression_kind_of(ex e) const { return node(e).kind; }
  std::int64_t integer_value(ex e) const { return node(e).value; }
  var variable_of(ex e) const { return var{node(e).variable}; }
  commscope::call_target call_target_of(ex e) const { return node(e).target; }
  auto arguments(ex e) const { return list<ex>(node(e).first, node(e).count); }
  std::optional<ex> device_of(ex e) const {
    return node(e).device == none ? std::nullopt : std::optional<ex>(ex{node(e).device});
  }
  std::string_view allocation_name(ex e) const { return node(e).name; }

  std::size_t variable_index(var v) const requires Numbered { return at(v); }
  std::size_t variable_bound(const module& p) const requires Numbered { return p.variables.size(); }
  std::string_view variable_name(var v) const { return m->variables[at(v)]; }

  // ---- the scope readers: index 0 is a window buffer like any other
  std::string_view scope_name(st s) const { return m->scopes[node(s).scope].name; }
  std::span<const std::int64_t> scope_devices(st s) const {
    return m->scopes[node(s).scope].devices;
  }
  std::span<const wb> scope_slots(st s) const { return m->scopes[node(s).scope].slots; }
  /// A variable may hold several views: the binding (statement) has the type.
  std::optional<wb> view_window_buffer(st s, var) const {
    const auto w = at(s) < m->view_buffer.size() ? m->view_buffer[at(s)] : none;
    return w == none ? std::nullopt : std::optional<wb>(wb{w});
  }
  std::string_view window_buffer_name(wb w) const { return m->buffers[at(w)].name; }
  var window_buffer_base(wb w) const { return m->buffers[at(w)].base; }
  ex window_buffer_size(wb w) const { return m->buffers[at(w)].size; }

  // ---- the rewrite, in place: no rewriter
  wb make_window_buffer(const commscope::window_buffer_spec<basic_traits>& s) const {
    m->buffers.push_back({s.statement, s.base, s.size, s.name});
    return wb{static_cast<std::uint32_t>(m->buffers.size() - 1)};
  }
  void retype_view(const commscope::view_spec<basic_traits>& v) const {
    m->view_buffer.resize(m->statements.size(), none);
    m->view_buffer[at(v.statement)] = at(v.window_buffer);
  }
  void wrap_body(fn f, std::span<const commscope::scope_spec<basic_traits>> scopes) const {
    auto [first, count] = std::pair(m->functions[at(f)].first, m->functions[at(f)].count);
    const location where = count ? node(st{m->lists[first]}).where : location{};
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) { // innermost first
      m->scopes.push_back({std::string(it->name),
                           {it->devices.begin(), it->devices.end()},
                           {it->slots.begin(), it->slots.end()}});
      statement_node scope;
      scope.kind = commscope::statement_kind::scope;
      std::tie(scope.first, scope.count) = std::pair(first, count);
      scope.scope = static_cast<std::uint32_t>(m->scopes.size() - 1);
      scope.where = where;
      m->statements.push_back(scope);
      first = static_cast<std::uint32_t>(m->lists.size());
      count = 1;
      m->lists.push_back(static_cast<std::uint32_t>(m->statements.size() - 1));
    }
    m->functions[at(f)].first = first;
    m->functions[at(f)].count = count;
  }
};

using traits = basic_traits<true>;
/// The same IR as an adapter that does not number its variables.
using hashed_traits = basic_traits<false>;

/// Lays a compile-time test program out as an index module, node for node, except that
/// variables are identified by name: a second `let` of a name rebinds it.
template <std::size_t N>
module from_compile_time(const commscope::compile_time::basic_program<N>& p) {
  module m;
  std::map<std::string_view, std::uint32_t> by_name;
  std::vector<std::uint32_t> var_of(p.variable_count, none);
  for (std::uint32_t v = 0; v < p.variable_count; ++v) {
    auto [it, fresh] =
        by_name.try_emplace(p.variables[v].name, static_cast<std::uint32_t>(m.variables.size()));
    if (fresh)
      m.variables.emplace_back(p.variables[v].name);
    var_of[v] = it->second;
  }
  const auto variable = [&](std::uint32_t v) { return v == none ? none : var_of[v]; };
  // The compile-time program keeps statement and expression lists apart; here they share
  // one array, statements' first.
  const auto expression_base = static_cast<std::uint32_t>(p.statement_lists.size());
  m.lists.assign(p.statement_lists.begin(), p.statement_lists.end());
  m.lists.insert(m.lists.end(), p.expression_lists.begin(), p.expression_lists.end());
  for (std::uint32_t f = 0; f < p.function_count; ++f)
    m.functions.push_back({p.functions[f].info, p.functions[f].first, p.functions[f].count});
  for (const auto& s : p.statements) {
    const auto target = s.kind == commscope::statement_kind::for_loop ? s.loop_variable : s.target;
    m.statements.push_back({s.kind,
                            variable(target),
                            s.value,
                            s.start,
                            s.stop,
                            s.step,
                            s.first,
                            s.count,
                            none,
                            {s.where.line, s.where.column}});
    auto& n = m.statements.back();
    n.control = s.control;
    if (s.control == commscope::control_flow::alternatives) { // then: the first split
      n.branch_first = static_cast<std::uint32_t>(m.lists.size());
      n.branches = 2;
      m.lists.insert(m.lists.end(), {0u, s.split, s.count});
    }
  }
  for (const auto& e : p.expressions)
    m.expressions.push_back({e.kind,
                             e.value,
                             variable(e.variable),
                             e.target,
                             e.first + expression_base,
                             e.count,
                             e.device,
                             e.name,
                             {e.where.line, e.where.column}});
  return m;
}

} // namespace index_ir
