// The recognized operations as a compile-time table: names, positional arity, and for the
// host collectives which arguments must be views and which inherit from which
// (docs/semantics.md, step 4, "Collectives", and "Resolution of a variable to a view").
#pragma once

#include <commscope/traits.hpp>

#include <array>
#include <cstdint>
#include <string_view>

namespace commscope::detail {

inline constexpr std::uint8_t none_arg = 0xff;

struct operation_row {
  std::string_view name;
  std::uint8_t min_arity;
  std::uint8_t max_arity;
  bool collective;
  /// Positions that must resolve to a view (data, target, signal, recv_counts).
  std::array<std::uint8_t, 3> must_be_views;
  /// Coverage flows from `source` to each of `inheritors` (signal <- data, ...).
  std::uint8_t source;
  std::array<std::uint8_t, 2> inheritors;
  /// The argument the result of the operation resolves through, if any.
  std::uint8_t result_through;
  /// What each positional argument of a collective is, as messages name it.
  std::array<std::string_view, 5> roles;
};

// Indexed by commscope::operation.
inline constexpr std::array<operation_row, 11> operation_table = [] {
  constexpr std::uint8_t N = none_arg;
  return std::array<operation_row, 11>{{
      {"<unknown>", 0, 255, false, {N, N, N}, N, {N, N}, N, {}},
      {"alloc_window_buffer", 1, 1, false, {N, N, N}, N, {N, N}, N, {}},
      {"window", 2, 3, false, {N, N, N}, N, {N, N}, N, {}},
      {"world_size", 0, 0, false, {N, N, N}, N, {N, N}, N, {}},
      {"allreduce", 2, 2, true, {0, 1, N}, 0, {1, N}, 0, {"data", "signal"}},
      {"broadcast", 2, 2, true, {0, 1, N}, 0, {1, N}, 0, {"data", "signal"}},
      {"reduce_scatter", 2, 2, true, {0, 1, N}, 0, {1, N}, 0, {"data", "signal"}},
      {"barrier", 1, 1, true, {0, N, N}, N, {N, N}, 0, {"signal"}},
      {"allgather", 3, 3, true, {1, 2, N}, 1, {2, N}, 1, {"input", "target", "signal"}},
      {"all_to_all", 3, 3, true, {1, 2, N}, 1, {2, N}, 1, {"input", "target", "signal"}},
      {"all_to_all_v",
       5,
       5,
       true,
       {1, 2, 4},
       1,
       {2, 4},
       1,
       {"input", "target", "signal", "send_counts", "recv_counts"}},
  }};
}();

[[nodiscard]] constexpr const operation_row& row(operation op) {
  return operation_table[static_cast<std::size_t>(op)];
}

/// The role of argument `position` of the collective named `name` ("argument" when the
/// name or position is unknown): messages keep only the name of the operation.
[[nodiscard]] constexpr std::string_view role_name(std::string_view name, std::int64_t position) {
  for (const auto& r : operation_table)
    if (r.name == name && position >= 0 && position < 5 &&
        !r.roles[static_cast<std::size_t>(position)].empty())
      return r.roles[static_cast<std::size_t>(position)];
  return "argument";
}

static_assert(row(operation::all_to_all_v).name == "all_to_all_v",
              "operation_table must follow the order of commscope::operation");
static_assert(row(operation::barrier).source == none_arg,
              "a barrier's signal inherits nothing: it needs coverage of its own");

} // namespace commscope::detail
