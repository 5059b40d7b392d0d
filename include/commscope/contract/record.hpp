// What a record of the contract is, and how a list of records is checked and diagnosed.
//
// Every member an adapter may provide has one record: a struct named after the member
// (as MLIR's ODS keeps an interface method's description, signature and default in one
// record) that holds
//   - its documentation, the comment above it;
//   - `given<Traits>`: the adapter provides the member, well-typed;
//   - `holds<Traits>`: the contract's rule on it is met (for a required member, given; for
//     an optional one, absent or well-typed, and whatever pair or condition it has);
//   - `diagnose<Traits>()`, instantiated only where holds fails: one static_assert whose
//     message says how to fix it (a member that exists with the wrong type is told so);
//   - for an optional member, its default: a static function the facade (adapter.hpp)
//     calls.
// Each layer file ends with its list of records, in the order the diagnosis walks them.
// What an entry point needs (entry_points.hpp) is a concatenation of such lists: its
// concept and its diagnosis are derived from the list, never written member by member.
#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
#include <optional>
#include <ranges>
#include <type_traits>
#include <utility>

namespace commscope {

namespace detail {
template <class...> inline constexpr bool always_false = false;
template <class R, class T>
concept range_of =
    std::ranges::input_range<R> && std::convertible_to<std::ranges::range_reference_t<R>, T>;
template <class R, class T>
concept range_of_ranges_of =
    std::ranges::input_range<R> && range_of<std::ranges::range_reference_t<R>, T>;
template <class T>
concept hashable = requires(const T& k) {
  { std::hash<T>{}(k) } -> std::convertible_to<std::size_t>;
  { k == k } -> std::convertible_to<bool>;
};
template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};

/// Record M's call is well-formed for T and returns what M accepts.
template <class M, class T>
concept well_typed_call = requires {
  typename M::template call<T>;
}
&&M::template returns<typename M::template call<T>, T>;

/// The call of hook M: with the rewriter R first when the adapter declares one, else
/// without (R is void). No type where that call is ill-formed.
template <class M, class T, class R> struct hook_call {};
template <class M, class T>
requires requires { typename M::template call_with<T>; }
struct hook_call<M, T, void> {
  using type = typename M::template call_with<T>;
};
template <class M, class T, class R>
requires requires { typename M::template call_with<T, R>; }
struct hook_call<M, T, R> {
  using type = typename M::template call_with<T, R>;
};

/// Member<T> when Given, else Otherwise (without naming Member<T>).
template <bool Given, template <class> class Member, class T, class Otherwise> struct member_or {
  using type = Otherwise;
};
template <template <class> class Member, class T, class Otherwise>
struct member_or<true, Member, T, Otherwise> {
  using type = Member<T>;
};

template <class R, class T> struct holds_for : std::bool_constant<R::template holds<T>> {};
template <class R, class T> struct given_by : std::bool_constant<R::template given<T>> {};
} // namespace detail

namespace contract {

/// The record of a member function says `call<T>`, the type of the call where it is
/// well-formed, and `returns<Result, T>`, whether that is what the contract asks.
template <class Self> struct member_function {
  template <class T> static constexpr bool callable = requires { typename Self::template call<T>; };
  template <class T> static constexpr bool given = detail::well_typed_call<Self, T>;
  template <class T> static constexpr bool holds = given<T>;
  /// The rule of an optional member: absent, or well-typed (never ignored for its type).
  template <class T> static constexpr bool absent_or_given = !callable<T> || given<T>;
};

/// The record of a rewrite hook says `call_with<T, R...>`, the call with the arguments R
/// first: the hook takes the rewriter that the record Rewriter declares, or none.
template <class Self, class Rewriter> struct hook : member_function<Self> {
  template <class T>
  using call = typename detail::hook_call<Self, T, typename Rewriter::template declared<T>>::type;
};

/// An ordered list of records.
template <class... Records> struct records {};

template <class... Lists> struct join_records;
template <class... A> struct join_records<records<A...>> { using type = records<A...>; };
template <class... A, class... B, class... Rest>
struct join_records<records<A...>, records<B...>, Rest...>
    : join_records<records<A..., B...>, Rest...> {};
/// The lists one after the other.
template <class... Lists> using join = typename join_records<Lists...>::type;

/// Every record of the list holds for T. Checked in order and no further than the first
/// that fails, so that no requirement is checked on an adapter that lacks what it names.
template <class T, class List> inline constexpr bool all_hold = false;
template <class T, class... R>
inline constexpr bool all_hold<T, records<R...>> = std::conjunction_v<detail::holds_for<R, T>...>;

/// T gives some member of the list.
template <class T, class List> inline constexpr bool any_given = false;
template <class T, class... R>
inline constexpr bool any_given<T, records<R...>> = std::disjunction_v<detail::given_by<R, T>...>;

/// The diagnosis of the first record of the list that does not hold for T: its message is
/// the one error.
template <class T, class R, class... Rest> constexpr void diagnose_first(records<R, Rest...>) {
  if constexpr (!R::template holds<T>)
    R::template diagnose<T>();
  else if constexpr (sizeof...(Rest) > 0)
    diagnose_first<T>(records<Rest...>{});
}

} // namespace contract

/// Traits gives the member that Record describes (`provides<T, contract::values>`).
template <class T, class Record>
concept provides = Record::template given<T>;

} // namespace commscope
