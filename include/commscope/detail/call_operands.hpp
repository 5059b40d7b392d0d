// The default of the contract's `subexpressions`: a call's operands where the adapter
// does not list them, its arguments then its device=, as a range without a copy.
#pragma once

#include <cstddef>
#include <iterator>
#include <optional>
#include <ranges>
#include <type_traits>
#include <utility>

namespace commscope::detail {

/// A call's operands where the adapter does not list them: its arguments, then device=.
/// Arguments is what the adapter's `arguments` returns: a range by value, kept here, or a
/// reference to one.
template <class Arguments, class Expression> class call_operands {
  static constexpr bool by_reference = std::is_lvalue_reference_v<Arguments>;
  using range = std::conditional_t<by_reference, std::remove_reference_t<Arguments>,
                                   std::remove_cvref_t<Arguments>>;
  using held = std::conditional_t<by_reference, range*, std::optional<range>>;
  using inner = std::ranges::iterator_t<range>;

public:
  /// No operands (an expression that is no call).
  constexpr call_operands() = default;
  constexpr call_operands(Arguments&& args, std::optional<Expression> device) : device_(device) {
    if constexpr (by_reference)
      args_ = &args;
    else
      args_.emplace(std::move(args));
  }
  class iterator {
  public:
    using value_type = Expression;
    using difference_type = std::ptrdiff_t;
    constexpr iterator() = default;
    constexpr iterator(inner at, inner end, const std::optional<Expression>* device)
        : at_(at), end_(end), device_(device) {}
    [[nodiscard]] constexpr Expression operator*() const {
      return at_ != end_ ? Expression(*at_) : **device_;
    }
    constexpr iterator& operator++() {
      if (at_ != end_)
        ++at_;
      else
        device_ = nullptr;
      return *this;
    }
    constexpr void operator++(int) { ++*this; }
    [[nodiscard]] friend constexpr bool operator==(const iterator& i, std::default_sentinel_t) {
      return i.at_ == i.end_ && (i.device_ == nullptr || !i.device_->has_value());
    }

  private:
    inner at_{}, end_{};
    const std::optional<Expression>* device_ = nullptr;
  };
  [[nodiscard]] constexpr iterator begin() const {
    if (!args_)
      return {};
    return {std::ranges::begin(*args_), std::ranges::end(*args_), &device_};
  }
  [[nodiscard]] constexpr std::default_sentinel_t end() const { return {}; }

private:
  mutable held args_{};
  std::optional<Expression> device_;
};

} // namespace commscope::detail
