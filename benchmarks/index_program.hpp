// A reference-IR program laid out as a module of the index IR (tests/index_ir/index_ir.hpp:
// flat arrays, 32-bit handles, a stateful traits object), node for node, so that the
// benchmarks run the pass on the same synthetic program in both IRs.
//
// Nodes are numbered in pre-order, each list of children or arguments contiguous, as a
// front end that emits the index IR directly would lay them out. Variables keep their
// reference-IR ids. Two things have no place in the index IR and are left out: keyword
// arguments other than device= (the synthetic programs have one, a window's dtype, an
// unbound name the pass never reads) and a statement's second target or expression (the
// synthetic programs have none; laying one out throws).
#pragma once

#include "../tests/index_ir/index_ir.hpp"

#include <commscope/reference/ir.hpp>
#include <commscope/reference/traits.hpp>

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::bench {

/// An index-IR module and the text its string_views point at (the index IR keeps names
/// of functions and allocations as views into storage it does not own).
struct index_program {
  index_ir::module module;
  std::deque<std::string> text;
};

class index_layout {
  using T = ir_traits<reference::program_ptr>;
  static constexpr std::uint32_t none = index_ir::none;

public:
  /// `headroom`: spare capacity left in the statement and list arrays, for the scope
  /// statements an in-place rewrite appends (without it, appending to a copy whose
  /// capacity equals its size reallocates the whole array).
  static index_program of(const reference::program_ptr& p, std::size_t headroom) {
    index_layout l;
    auto& m = l.out_.module;
    m.variables.resize(T::variable_bound(p));
    for (auto f : T::functions(p)) {
      function_info info = T::describe(f);
      info.name = l.intern(info.name);
      l.function_names_.push_back(info.name);
      m.functions.push_back({info, 0, 0});
    }
    std::uint32_t k = 0;
    for (auto f : T::functions(p)) {
      const auto [first, count] = l.list(T::body(f), [&](auto s) { return l.statement(s); });
      m.functions[k].first = first;
      m.functions[k++].count = count;
    }
    // Exact sizes (growth slack would count as IR), then the rewrite's room.
    m.statements.shrink_to_fit();
    m.expressions.shrink_to_fit();
    m.lists.shrink_to_fit();
    m.statements.reserve(m.statements.size() + headroom);
    m.lists.reserve(m.lists.size() + headroom);
    return std::move(l.out_);
  }

private:
  /// Reserves a contiguous run of `lists` for the range's elements, then lays each out
  /// (which may append nested lists after the run). Recursive: the synthetic programs
  /// nest a few levels deep.
  template <class Range, class Lay>
  std::pair<std::uint32_t, std::uint32_t> list(Range&& r, Lay&& lay) {
    auto& lists = out_.module.lists;
    const auto first = static_cast<std::uint32_t>(lists.size());
    const auto count = static_cast<std::uint32_t>(r.size());
    lists.resize(first + count);
    std::uint32_t k = first;
    for (auto x : r) {
      const std::uint32_t i = lay(x); // before indexing: lay may reallocate lists
      lists[k++] = i;
    }
    return {first, count};
  }

  std::uint32_t variable(T::variable v) {
    const auto id = static_cast<std::uint32_t>(T::variable_index(v));
    if (auto& name = out_.module.variables[id]; name.empty())
      name = v->name;
    return id;
  }

  std::uint32_t statement(T::statement s) {
    auto& m = out_.module;
    const auto i = static_cast<std::uint32_t>(m.statements.size());
    m.statements.emplace_back();
    index_ir::statement_node n;
    n.kind = T::statement_kind_of(s);
    n.where = {T::location_of(s).line, T::location_of(s).column};
    switch (n.kind) {
    case statement_kind::assignment:
      if (T::targets(s).size() != 1)
        throw std::invalid_argument("the index IR binds one variable per assignment");
      n.target = variable(*T::targets(s).begin());
      n.value = expression(T::value(s));
      break;
    case statement_kind::evaluation:
      n.value = expression(T::value(s));
      break;
    case statement_kind::for_loop: {
      n.target = variable(T::loop_variable(s));
      const auto b = T::loop_bounds(s);
      n.start = expression(b.start);
      n.stop = expression(b.stop);
      n.step = expression(b.step);
      break;
    }
    default: {
      const auto values = T::expressions(s);
      if (values.size() > 1)
        throw std::invalid_argument("the index IR holds one expression per statement");
      if (values.size() == 1)
        n.value = expression(*values.begin());
      break;
    }
    }
    std::tie(n.first, n.count) = list(T::children(s), [&](auto c) { return statement(c); });
    m.statements[i] = n;
    return i;
  }

  std::uint32_t expression(T::expression e) {
    auto& m = out_.module;
    const auto i = static_cast<std::uint32_t>(m.expressions.size());
    m.expressions.emplace_back();
    index_ir::expression_node n;
    n.kind = T::expression_kind_of(e);
    n.where = {T::location_of(e).line, T::location_of(e).column};
    const auto lay = [&](auto x) { return expression(x); };
    switch (n.kind) {
    case expression_kind::integer:
      n.value = T::integer_value(e);
      break;
    case expression_kind::variable:
      n.variable = variable(T::variable_of(e));
      break;
    case expression_kind::call: {
      n.target = T::call_target_of(e);
      if (n.target.what != call_target::kind::operation)
        n.target.callee.name = function_name(n.target.callee.name);
      else if (n.target.op == operation::alloc_window_buffer)
        n.name = intern(T::allocation_name(e));
      std::tie(n.first, n.count) = list(T::arguments(e), lay);
      if (const auto d = T::device_of(e))
        n.device = expression(*d);
      break;
    }
    case expression_kind::other: // its operands, as arguments: what the pass visits
      std::tie(n.first, n.count) = list(T::subexpressions(e), lay);
      break;
    }
    m.expressions[i] = n;
    return i;
  }

  std::string_view intern(std::string_view s) { return out_.text.emplace_back(s); }
  /// A callee's name: one of the program's functions (few), or a new one.
  std::string_view function_name(std::string_view s) {
    for (const auto f : function_names_)
      if (f == s)
        return f;
    return function_names_.emplace_back(intern(s));
  }

  index_program out_;
  std::vector<std::string_view> function_names_;
};

} // namespace commscope::bench
