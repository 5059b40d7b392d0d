// The compile-time IR: a test program as a literal value (fixed arrays of nodes, names as
// string_views, children as index lists), so that a program can be a `constexpr` variable
// and the pass can run on it during constant evaluation.
//
// Programs are not written by hand: builder.hpp makes them from a small language whose
// misuse does not compile. Handles are (program, index) pairs: cheap, comparable, and
// valid in constant evaluation as long as the program outlives the evaluation.
#pragma once

#include <commscope/traits.hpp>

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace commscope::compile_time {

inline constexpr std::uint32_t none = 0xffffffffu;

/// 1-based line and column of a statement (calls carry their statement's location).
struct location {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  friend constexpr bool operator==(location, location) = default;
};

struct function_node {
  function_info info{};
  std::uint32_t first = 0; ///< top-level statements: statement_lists[first, first + count)
  std::uint32_t count = 0;
};

struct statement_node {
  statement_kind kind = statement_kind::other;
  std::uint32_t target = none;        ///< the variable an assignment binds
  std::uint32_t value = none;         ///< assignment/evaluation value; a condition
  std::uint32_t loop_variable = none; ///< for loops
  std::uint32_t start = none, stop = none, step = none;
  std::uint32_t first = 0; ///< children: statement_lists[first, first + count)
  std::uint32_t count = 0;
  /// How the children of a statement of kind other run. An if's are alternatives: its
  /// then branch is the first `split` children, its else branch the rest (a reader that
  /// takes them as one block that may not run stays sound).
  control_flow control = control_flow::may_skip;
  std::uint32_t split = 0;
  compile_time::location where{};
};

struct expression_node {
  expression_kind kind = expression_kind::other;
  call_target target{};          ///< calls
  std::int64_t value = 0;        ///< integer constants
  std::uint32_t variable = none; ///< variable uses
  /// Positional arguments (or an opaque expression's operands):
  /// expression_lists[first, first + count); a call's `device=` follows them.
  std::uint32_t first = 0;
  std::uint32_t count = 0;
  std::uint32_t device = none;
  std::string_view name; ///< an allocation's name; "-" for `operand - value` (builder's minus)
  compile_time::location where{};
};

/// A variable is a name of its function: binding it again rebinds it, as Python does.
struct variable_node {
  std::string_view name;
};

/// A whole program. Programs are bucketed by capacity (a power of two, see builder.hpp)
/// rather than sized exactly, so that a table of test programs instantiates the pass
/// for a handful of types instead of once per program.
template <std::size_t N> struct basic_program {
  static constexpr std::size_t capacity = N;
  std::uint32_t function_count = 0;
  std::uint32_t variable_count = 0;
  std::array<function_node, N / 8> functions{};
  std::array<statement_node, N> statements{};
  std::array<expression_node, N> expressions{};
  std::array<std::uint32_t, N> statement_lists{};
  std::array<std::uint32_t, N> expression_lists{};
  std::array<variable_node, N> variables{};
};

/// A node of program P: the program and an index into one of its arrays. `Tag` keeps
/// the handle types of functions, statements, expressions and variables apart.
template <class P, class Tag> struct handle {
  const P* program = nullptr;
  std::uint32_t index = none;
  friend constexpr bool operator==(const handle&, const handle&) = default;
};

struct function_tag {};
struct statement_tag {};
struct expression_tag {};
struct variable_tag {};

/// The handles of the nodes listed by index (or numbered consecutively when `list` is
/// null): what functions(), body(), children(), arguments() ... return.
template <class P, class Tag> class handle_range {
public:
  using value_type = handle<P, Tag>;
  class iterator {
  public:
    using value_type = handle<P, Tag>;
    using difference_type = std::ptrdiff_t;
    constexpr iterator() = default;
    constexpr iterator(const P* p, const std::uint32_t* list, std::uint32_t at)
        : p_(p), list_(list), at_(at) {}
    constexpr value_type operator*() const { return {p_, list_ ? list_[at_] : at_}; }
    constexpr iterator& operator++() {
      ++at_;
      return *this;
    }
    constexpr iterator operator++(int) {
      auto t = *this;
      ++at_;
      return t;
    }
    friend constexpr bool operator==(const iterator& a, const iterator& b) {
      return a.at_ == b.at_;
    }

  private:
    const P* p_ = nullptr;
    const std::uint32_t* list_ = nullptr;
    std::uint32_t at_ = 0;
  };

  constexpr handle_range() = default;
  constexpr handle_range(const P* p, const std::uint32_t* list, std::uint32_t first,
                         std::uint32_t count)
      : p_(p), list_(list), first_(first), count_(count) {}
  [[nodiscard]] constexpr iterator begin() const { return {p_, list_, first_}; }
  [[nodiscard]] constexpr iterator end() const { return {p_, list_, first_ + count_}; }

private:
  const P* p_ = nullptr;
  const std::uint32_t* list_ = nullptr;
  std::uint32_t first_ = 0;
  std::uint32_t count_ = 0;
};

/// Zero or one handle (an assignment's target, a while's condition).
template <class T> struct optional_range {
  T item{};
  bool present = false;
  [[nodiscard]] constexpr const T* begin() const { return &item; }
  [[nodiscard]] constexpr const T* end() const { return &item + (present ? 1 : 0); }
};

} // namespace commscope::compile_time
