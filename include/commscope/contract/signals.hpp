// Layer 4, signal synthesis (`plan_signals`, `synthesize_signals`,
// `run(p, traits, with_signal_synthesis)`; pass.md, "The companion pass"): its analysis
// needs the core and names_in_use; its rewrite one hook more, called only when the whole
// program is valid. `statement_kind::return_` is optional: without it an allreduce that
// is a returned value counts as nested in an expression.
#pragma once

#include <commscope/contract/core.hpp>

#include <concepts>
#include <cstdint>
#include <string_view>
#include <utility>

namespace commscope {

namespace detail {
template <class T> using signal_rewriter_member = typename T::signal_rewriter;
template <class T> struct no_signal_rewriter {};
} // namespace detail

namespace contract {

/// `R names_in_use(const program&)`, a range of std::string_view: every name the program
/// uses (variables, parameters, functions, globals); fresh names are chosen outside it.
struct names_in_use : member_function<names_in_use> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().names_in_use(std::declval<const typename T::program&>()));
  template <class R, class T> static constexpr bool returns = detail::range_of<R, std::string_view>;
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>,
                  "commscope: signal synthesis needs `R names_in_use(const program&)` "
                  "returning a range of std::string_view");
  }
};

/// Optional: `std::int64_t core_num_of(expression)`: an allreduce's core_num=, 1 when
/// absent, <= 0 when it is no positive integer constant. Default: always 1.
struct core_num_of : member_function<core_num_of> {
  template <class T>
  using call =
      decltype(std::declval<const T&>().core_num_of(std::declval<typename T::expression>()));
  template <class R, class T> static constexpr bool returns = std::convertible_to<R, std::int64_t>;
  template <class T> static constexpr bool holds = absent_or_given<T>;
  template <class T> static constexpr void diagnose() {
    static_assert(returns<call<T>, T>,
                  "commscope: `core_num_of(expression)` must return std::int64_t");
  }
  template <class T>
  static constexpr std::int64_t of([[maybe_unused]] const T& t,
                                   [[maybe_unused]] typename T::expression e) {
    if constexpr (given<T>)
      return static_cast<std::int64_t>(t.core_num_of(e));
    else
      return 1;
  }
};

/// Optional, for an IR rebuilt on rewrite: `using signal_rewriter`,
/// `signal_rewriter begin_signals(program&)` and
/// `void commit_signals(signal_rewriter&, program&)`. insert_signal then takes it first
/// (`[signal_rewriter&,]` below); without it, none.
struct signal_rewriter {
  template <class T>
  static constexpr bool given = requires(const T& t, typename T::program& p,
                                         typename T::signal_rewriter& rw) {
    { t.begin_signals(p) } -> std::same_as<typename T::signal_rewriter>;
    t.commit_signals(rw, p);
  };
  /// A `using signal_rewriter` comes with its two members.
  template <class T> static constexpr bool holds = given<T> || !requires {
    typename T::signal_rewriter;
  };
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>,
                  "commscope: `using signal_rewriter` needs `signal_rewriter "
                  "begin_signals(program&)` and `void commit_signals(signal_rewriter&, program&)`");
  }
  template <class T>
  using declared =
      typename detail::member_or<given<T>, detail::signal_rewriter_member, T, void>::type;
  template <class T>
  using type = typename detail::member_or<given<T>, detail::signal_rewriter_member, T,
                                          detail::no_signal_rewriter<T>>::type;
  template <class T>
  static constexpr type<T> begin([[maybe_unused]] const T& t,
                                 [[maybe_unused]] typename T::program& p) {
    if constexpr (given<T>)
      return t.begin_signals(p);
    else
      return {};
  }
  template <class T>
  static constexpr void commit([[maybe_unused]] const T& t, [[maybe_unused]] type<T>& rw,
                               [[maybe_unused]] typename T::program& p) {
    if constexpr (given<T>)
      t.commit_signals(rw, p);
  }
};

/// `void insert_signal([signal_rewriter&,] const signal_spec<Traits>&)`: bind,
/// immediately before spec.statement, the three names of the spec to world_size(), an
/// allocation of `world_size * cores * 4` bytes and an INT32 window [world_size, cores]
/// of it; then make the signal window the second positional argument of spec.call.
struct insert_signal : hook<insert_signal, signal_rewriter> {
  template <class T, class... R>
  using call_with = decltype(std::declval<const T&>().insert_signal(
      std::declval<R&>()..., std::declval<const signal_spec<T>&>()));
  template <class Result, class T> static constexpr bool returns = true;
  template <class T> static constexpr void diagnose() {
    if constexpr (signal_rewriter::given<T>)
      static_assert(detail::always_false<T>,
                    "commscope: signal synthesis needs `void insert_signal(signal_rewriter&, "
                    "const signal_spec<Traits>&)`");
    else
      static_assert(detail::always_false<T>, "commscope: signal synthesis needs `void "
                                             "insert_signal(const signal_spec<Traits>&)`");
  }
};

/// What signal synthesis' analysis needs on top of the core.
using signal_analysis = records<names_in_use, core_num_of>;
/// What its rewrite needs more.
using signal_rewrite = records<signal_rewriter, insert_signal>;

} // namespace contract

template <class T> using signal_rewriter_t = contract::signal_rewriter::type<T>;

} // namespace commscope
