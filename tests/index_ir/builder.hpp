// Writes index-IR modules (index_ir.hpp) statement by statement, as a front end that emits
// the index IR directly would: children are built first, then their parent takes them
// as one contiguous run of the module's lists. Variables are names (a second binding of a
// name rebinds it); names of functions and allocations are kept by the builder's module
// owner, `program`, since the index IR only views them.
#pragma once

#include "index_ir.hpp"

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace index_ir {

/// A module and the text its string_views point at.
struct program {
  module m;
  std::deque<std::string> text;
  [[nodiscard]] traits adapter() { return traits{&m}; }
};

class builder {
public:
  using stmts = std::vector<st>;
  using info = commscope::function_info;

  explicit builder(program& p) : p_(p) {}

  var variable(std::string_view name) {
    auto [it, fresh] =
        vars_.try_emplace(std::string(name), static_cast<std::uint32_t>(p_.m.variables.size()));
    if (fresh)
      p_.m.variables.emplace_back(name);
    return var{it->second};
  }

  // ---- expressions
  ex integer(std::int64_t v, location at = {}) {
    expression_node n;
    n.kind = commscope::expression_kind::integer;
    n.value = v;
    n.where = at;
    return add(n);
  }
  ex use(std::string_view name, location at = {}) {
    expression_node n;
    n.kind = commscope::expression_kind::variable;
    n.variable = index_ir::at(variable(name));
    n.where = at;
    return add(n);
  }
  /// An expression the pass does not read (a shape list, a tuple).
  ex opaque(location at = {}) {
    expression_node n;
    n.kind = commscope::expression_kind::other;
    n.where = at;
    return add(n);
  }
  ex call(commscope::call_target target, std::span<const ex> args,
          std::optional<ex> device = std::nullopt, location at = {}) {
    expression_node n;
    n.kind = commscope::expression_kind::call;
    n.target = target;
    if (target.what != commscope::call_target::kind::operation)
      n.target.callee.name = keep(target.callee.name);
    std::tie(n.first, n.count) = run(args);
    n.device = device ? index_ir::at(*device) : none;
    n.where = at;
    return add(n);
  }
  ex call(commscope::operation op, std::initializer_list<ex> args, location at = {}) {
    return call(commscope::call_target::of(op), std::span(args.begin(), args.size()), std::nullopt,
                at);
  }
  /// `name = alloc_window_buffer(size)`'s call, named after its target.
  ex allocation(std::string_view name, ex size, location at = {}) {
    const ex e = call(commscope::operation::alloc_window_buffer, {size}, at);
    p_.m.expressions[index_ir::at(e)].name = keep(name);
    return e;
  }

  // ---- statements
  st assign(std::string_view target, ex value, location at = {}) {
    statement_node n;
    n.kind = commscope::statement_kind::assignment;
    n.target = index_ir::at(variable(target));
    n.value = index_ir::at(value);
    n.where = at;
    return add(n);
  }
  /// `t0, t1, ... = v0, v1, ...`: every value read before any target is bound.
  st assign_parallel(std::span<const std::string_view> targets, std::span<const ex> values,
                     location at = {}) {
    statement_node n;
    n.kind = commscope::statement_kind::assignment;
    n.value = index_ir::at(opaque(at)); // the tuple, for a reader that asks value()
    n.first = static_cast<std::uint32_t>(p_.m.lists.size());
    n.count = static_cast<std::uint32_t>(targets.size());
    for (auto t : targets)
      p_.m.lists.push_back(index_ir::at(variable(t)));
    for (auto v : values)
      p_.m.lists.push_back(index_ir::at(v));
    n.where = at;
    return add(n);
  }
  st evaluate(ex value, location at = {}) {
    statement_node n;
    n.kind = commscope::statement_kind::evaluation;
    n.value = index_ir::at(value);
    n.where = at;
    return add(n);
  }
  st for_loop(std::string_view variable_name, ex start, ex stop, ex step, const stmts& body,
              location at = {}) {
    statement_node n;
    n.kind = commscope::statement_kind::for_loop;
    n.target = index_ir::at(variable(variable_name));
    std::tie(n.start, n.stop, n.step) =
        std::tuple(index_ir::at(start), index_ir::at(stop), index_ir::at(step));
    std::tie(n.first, n.count) = run(body);
    n.where = at;
    return add(n);
  }
  st while_loop(ex condition, const stmts& body, location at = {}) {
    statement_node n;
    n.kind = commscope::statement_kind::while_loop;
    n.value = index_ir::at(condition);
    std::tie(n.first, n.count) = run(body);
    n.where = at;
    return add(n);
  }
  /// if/elif/else as one statement of alternatives; without an else, pass an empty last
  /// branch.
  st if_else(ex condition, const std::vector<stmts>& branches, location at = {}) {
    statement_node n;
    n.kind = commscope::statement_kind::other;
    n.value = index_ir::at(condition);
    stmts all;
    for (const auto& b : branches)
      all.insert(all.end(), b.begin(), b.end());
    std::tie(n.first, n.count) = run(all);
    n.branch_first = static_cast<std::uint32_t>(p_.m.lists.size());
    n.branches = static_cast<std::uint32_t>(branches.size());
    std::uint32_t offset = 0;
    for (const auto& b : branches) {
      p_.m.lists.push_back(offset);
      offset += static_cast<std::uint32_t>(b.size());
    }
    p_.m.lists.push_back(offset);
    n.where = at;
    return add(n);
  }
  /// A statement whose children run `how` (once: a `with`; or may be skipped).
  st block(const stmts& body, location at = {},
           commscope::control_flow how = commscope::control_flow::block) {
    statement_node n;
    n.kind = commscope::statement_kind::other;
    n.control = how;
    std::tie(n.first, n.count) = run(body);
    n.where = at;
    return add(n);
  }
  /// return value.
  st returns(ex value, location at = {}) {
    statement_node n;
    n.kind = commscope::statement_kind::return_;
    n.value = index_ir::at(value);
    n.where = at;
    return add(n);
  }
  /// break or continue.
  st jump(location at = {}) {
    statement_node n;
    n.kind = commscope::statement_kind::jump;
    n.where = at;
    return add(n);
  }

  // ---- functions, in program order
  void function(const info& i, const stmts& body) {
    info named = i;
    named.name = keep(i.name);
    const auto [first, count] = run(body);
    p_.m.functions.push_back({named, first, count});
  }

private:
  template <class H> std::pair<std::uint32_t, std::uint32_t> run(std::span<const H> items) {
    const auto first = static_cast<std::uint32_t>(p_.m.lists.size());
    for (auto h : items)
      p_.m.lists.push_back(index_ir::at(h));
    return {first, static_cast<std::uint32_t>(items.size())};
  }
  std::pair<std::uint32_t, std::uint32_t> run(const stmts& items) {
    return run(std::span<const st>(items));
  }
  ex add(const expression_node& n) {
    p_.m.expressions.push_back(n);
    return ex{static_cast<std::uint32_t>(p_.m.expressions.size() - 1)};
  }
  st add(const statement_node& n) {
    p_.m.statements.push_back(n);
    return st{static_cast<std::uint32_t>(p_.m.statements.size() - 1)};
  }
  std::string_view keep(std::string_view s) { return p_.text.emplace_back(s); }

  program& p_;
  std::map<std::string, std::uint32_t, std::less<>> vars_;
};

} // namespace index_ir
