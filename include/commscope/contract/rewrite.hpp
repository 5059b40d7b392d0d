// Layer 3, the rewrite hooks: what `materialize` and `run` need on top of the core. The
// hooks are called only once the whole program is known to be valid, so an in-place IR
// is never left half-changed; a hook must not fail. For each rewritten function:
// make_window_buffer per allocation and retype_view per view, then wrap_body.
#pragma once

#include <commscope/contract/core.hpp>
#include <commscope/contract/readers.hpp>

#include <concepts>
#include <span>
#include <utility>

namespace commscope {

namespace detail {
/// The rewriter of an adapter without one: the hooks take none.
template <class T> struct no_rewriter {};
template <class T> using rewriter_member = typename T::rewriter;
} // namespace detail

namespace contract {

/// Optional, for an IR rebuilt on rewrite: `using rewriter` (per-program rewrite state),
/// `rewriter begin_rewrite(program&)` and `void commit(rewriter&, program&)`, which
/// publishes the result. The hooks then take the rewriter first (`[rewriter&,]` below);
/// without it they take none.
struct rewriter {
  template <class T>
  static constexpr bool given = requires(const T& t, typename T::program& p,
                                         typename T::rewriter& rw) {
    { t.begin_rewrite(p) } -> std::same_as<typename T::rewriter>;
    t.commit(rw, p);
  };
  /// A `using rewriter` comes with its two members.
  template <class T> static constexpr bool holds = given<T> || !requires { typename T::rewriter; };
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>,
                  "commscope: `using rewriter` needs `rewriter begin_rewrite(program&)` and "
                  "`void commit(rewriter&, program&)`");
  }
  /// What the hooks take first: the rewriter, or nothing (void).
  template <class T>
  using declared = typename detail::member_or<given<T>, detail::rewriter_member, T, void>::type;
  /// What the library holds during a rewrite.
  template <class T>
  using type = typename detail::member_or<given<T>, detail::rewriter_member, T,
                                          detail::no_rewriter<T>>::type;
  template <class T>
  static constexpr type<T> begin([[maybe_unused]] const T& t,
                                 [[maybe_unused]] typename T::program& p) {
    if constexpr (given<T>)
      return t.begin_rewrite(p);
    else
      return {};
  }
  template <class T>
  static constexpr void commit([[maybe_unused]] const T& t, [[maybe_unused]] type<T>& rw,
                               [[maybe_unused]] typename T::program& p) {
    if constexpr (given<T>)
      t.commit(rw, p);
  }
};

/// The rewrite makes window buffers: it needs the handle (readers.hpp, window_buffer).
struct window_buffer_to_make : window_buffer {
  template <class T> static constexpr void diagnose() {
    static_assert(detail::always_false<T>,
                  "commscope: the rewrite needs `using window_buffer = ...;` (a copyable, "
                  "default-constructible, equality-comparable handle)");
  }
};

/// `window_buffer make_window_buffer([rewriter&,] const window_buffer_spec<Traits>&)`: one
/// per allocation; the spec holds the allocation's statement, location, base variable,
/// size and name, so the object can be built in one step.
struct make_window_buffer : hook<make_window_buffer, rewriter> {
  template <class T, class... R>
  using call_with = decltype(std::declval<const T&>().make_window_buffer(
      std::declval<R&>()..., std::declval<const window_buffer_spec<T>&>()));
  template <class Result, class T>
  static constexpr bool returns = std::convertible_to<Result, typename T::window_buffer>;
  template <class T> static constexpr void diagnose() {
    if constexpr (rewriter::given<T>)
      static_assert(detail::always_false<T>,
                    "commscope: the rewrite needs `window_buffer make_window_buffer(rewriter&, "
                    "const window_buffer_spec<Traits>&)`");
    else
      static_assert(detail::always_false<T>,
                    "commscope: the rewrite needs `window_buffer "
                    "make_window_buffer(const window_buffer_spec<Traits>&)`");
  }
};

/// `void retype_view([rewriter&,] const view_spec<Traits>&)`: point the view's type at
/// spec.window_buffer (in place: record the window buffer on the view's op). The spec
/// also names the view's assignment: an IR that rebinds variables types the binding, not
/// the variable.
struct retype_view : hook<retype_view, rewriter> {
  template <class T, class... R>
  using call_with = decltype(std::declval<const T&>().retype_view(
      std::declval<R&>()..., std::declval<const view_spec<T>&>()));
  template <class Result, class T> static constexpr bool returns = true;
  template <class T> static constexpr void diagnose() {
    if constexpr (rewriter::given<T>)
      static_assert(detail::always_false<T>, "commscope: the rewrite needs `void retype_view("
                                             "rewriter&, const view_spec<Traits>&)`");
    else
      static_assert(detail::always_false<T>,
                    "commscope: the rewrite needs `void retype_view(const view_spec<Traits>&)`");
  }
};

/// `void wrap_body([rewriter&,] function, std::span<const scope_spec<Traits>>)`: wrap
/// the body in the scopes, outermost first; an IR rebuilt on rewrite also substitutes the
/// retyped views here.
struct wrap_body : hook<wrap_body, rewriter> {
  template <class T, class... R>
  using call_with =
      decltype(std::declval<const T&>().wrap_body(std::declval<R&>()...,
                                                  std::declval<typename T::function>(),
                                                  std::declval<std::span<const scope_spec<T>>>()));
  template <class Result, class T> static constexpr bool returns = true;
  template <class T> static constexpr void diagnose() {
    if constexpr (rewriter::given<T>)
      static_assert(detail::always_false<T>,
                    "commscope: the rewrite needs `void wrap_body(rewriter&, function, "
                    "std::span<const scope_spec<Traits>>)`");
    else
      static_assert(detail::always_false<T>, "commscope: the rewrite needs `void wrap_body("
                                             "function, std::span<const scope_spec<Traits>>)`");
  }
};

/// The rewrite hooks, in the order of their diagnosis.
using rewrite_hooks =
    records<window_buffer_to_make, rewriter, make_window_buffer, retype_view, wrap_body>;

} // namespace contract

template <class T> using rewriter_t = contract::rewriter::type<T>;

} // namespace commscope
