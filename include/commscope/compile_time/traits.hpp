// The compile-time IR's adapter: the analysis core only (traits.hpp, layer 1), with the
// control-flow pair (an if's branches are alternatives). It differs from a run-time
// adapter in one choice: a dense variable numbering (hashing is not available in
// constant evaluation). The IR is never materialized, so it has neither scope readers
// nor rewrite hooks.
#pragma once

#include <commscope/compile_time/ir.hpp>
#include <commscope/traits.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <string_view>
#include <utility>

template <std::size_t N> struct commscope::ir_traits<commscope::compile_time::basic_program<N>> {
  using program = compile_time::basic_program<N>;
  using function = compile_time::handle<program, compile_time::function_tag>;
  using statement = compile_time::handle<program, compile_time::statement_tag>;
  using expression = compile_time::handle<program, compile_time::expression_tag>;
  using variable = compile_time::handle<program, compile_time::variable_tag>;
  using location = compile_time::location;

  template <class Tag> using range = compile_time::handle_range<program, Tag>;

  // ---- program and functions
  static constexpr range<compile_time::function_tag> functions(const program& p) {
    return {&p, nullptr, 0, p.function_count};
  }
  static constexpr function_info describe(function f) { return node(f).info; }
  static constexpr range<compile_time::statement_tag> body(function f) {
    return {f.program, f.program->statement_lists.data(), node(f).first, node(f).count};
  }

  // ---- statements
  static constexpr statement_kind statement_kind_of(statement s) { return node(s).kind; }
  static constexpr location location_of(statement s) { return node(s).where; }
  static constexpr range<compile_time::statement_tag> children(statement s) {
    return {s.program, s.program->statement_lists.data(), node(s).first, node(s).count};
  }
  static constexpr control_flow control_of(statement s) { return node(s).control; }
  /// An if's then and else branches.
  static constexpr std::array<range<compile_time::statement_tag>, 2> branches(statement s) {
    const auto& n = node(s);
    const std::uint32_t* lists = s.program->statement_lists.data();
    return {
        range<compile_time::statement_tag>{s.program, lists, n.first, n.split},
        range<compile_time::statement_tag>{s.program, lists, n.first + n.split, n.count - n.split}};
  }
  static constexpr compile_time::optional_range<variable> targets(statement s) {
    return {{s.program, node(s).target}, node(s).target != compile_time::none};
  }
  static constexpr expression value(statement s) { return {s.program, node(s).value}; }
  static constexpr compile_time::optional_range<expression> expressions(statement s) {
    const bool has = node(s).kind != statement_kind::assignment &&
                     node(s).kind != statement_kind::evaluation &&
                     node(s).value != compile_time::none;
    return {{s.program, node(s).value}, has};
  }
  static constexpr variable loop_variable(statement s) {
    return {s.program, node(s).loop_variable};
  }
  static constexpr commscope::loop_bounds<expression> loop_bounds(statement s) {
    const auto& n = node(s);
    return {{s.program, n.start}, {s.program, n.stop}, {s.program, n.step}};
  }

  // ---- expressions
  static constexpr expression_kind expression_kind_of(expression e) { return node(e).kind; }
  static constexpr location location_of(expression e) { return node(e).where; }
  static constexpr std::int64_t integer_value(expression e) { return node(e).value; }
  static constexpr variable variable_of(expression e) { return {e.program, node(e).variable}; }
  static constexpr call_target call_target_of(expression e) { return node(e).target; }
  static constexpr range<compile_time::expression_tag> arguments(expression e) {
    return {e.program, e.program->expression_lists.data(), node(e).first, node(e).count};
  }
  static constexpr std::optional<expression> device_of(expression e) {
    if (node(e).device == compile_time::none)
      return std::nullopt;
    return expression{e.program, node(e).device};
  }
  static constexpr std::string_view allocation_name(expression e) { return node(e).name; }
  /// The operands, then `device=` (stored right after them).
  static constexpr range<compile_time::expression_tag> subexpressions(expression e) {
    const auto& n = node(e);
    return {e.program, e.program->expression_lists.data(), n.first,
            n.count + (n.device != compile_time::none ? 1u : 0u)};
  }

  // ---- variables: dense numbering, required in constant evaluation
  static constexpr std::size_t variable_index(variable v) { return v.index; }
  static constexpr std::size_t variable_bound(const program& p) { return p.variable_count; }
  /// Not part of the contract: lets expectations name views (expect.hpp).
  static constexpr std::string_view variable_name(variable v) {
    return v.program->variables[v.index].name;
  }

  // ---- signal synthesis: its analysis runs in the compiler too (no rewrite hook)
  /// Its functions' names, then its variables'.
  static constexpr auto names_in_use(const program& p) {
    const program* q = &p;
    return std::views::iota(std::uint32_t{0}, p.function_count + p.variable_count) |
           std::views::transform([q](std::uint32_t i) -> std::string_view {
             return i < q->function_count ? q->functions[i].info.name
                                          : q->variables[i - q->function_count].name;
           });
  }

private:
  static constexpr const auto& node(function f) { return f.program->functions[f.index]; }
  static constexpr const auto& node(statement s) { return s.program->statements[s.index]; }
  static constexpr const auto& node(expression e) { return e.program->expressions[e.index]; }
};

namespace commscope::compile_time {

/// The compile-time traits with symbolic device sets (contract/core.hpp,
/// symbolic_device_sets): a loop over part of the world gives a progression rather than
/// `partial-world-range`. The plain traits keep the error, as an adapter without the
/// capability does.
template <std::size_t N> struct symbolic_traits : commscope::ir_traits<basic_program<N>> {
  using expression = typename commscope::ir_traits<basic_program<N>>::expression;
  static constexpr bool symbolic_device_sets = true;
  static constexpr std::optional<std::pair<expression, std::int64_t>> minus_constant(expression e) {
    const auto& n = e.program->expressions[e.index];
    if (n.kind != expression_kind::other || n.name != "-" || n.count != 1)
      return std::nullopt;
    return std::pair{expression{e.program, e.program->expression_lists[n.first]}, n.value};
  }
};

} // namespace commscope::compile_time
