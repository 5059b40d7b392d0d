// How a member of the contract is declared. One line per member (with its documentation
// above it) gives its layer, its name, its parameters, what it returns and, for an
// optional member, its default; everything else is derived from that line:
//   - `given<T>`: adapter T has the member, well-typed;
//   - `holds<T>`: the contract's rule on it is met (required: given; optional: absent or
//     given, never silently taken for absent when it is there with the wrong type);
//   - `diagnose<T>()`: one static_assert whose message is spelled from the declaration
//     (`add ...` when missing, `... must return ...` when wrongly typed);
//   - `invoke(t, args...)`: the call, or the default of an optional member;
//   - `facade_call<T, Facade>`: the facade's member function of the same name
//     (adapter.hpp), which the algorithms call;
//   - `archetype_member<H, F>`: the member of the archetype (archetype.hpp), for a
//     required one.
// A layer file lists its records in the order of their diagnosis; what an entry point
// needs is a concatenation of such lists (entry_points.hpp).
#pragma once

#include <commscope/contract/vocabulary.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ranges>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

namespace commscope {

namespace detail {
template <class...> inline constexpr bool always_false = false;
template <class T>
concept hashable = requires(const T& k) {
  { std::hash<T>{}(k) } -> std::convertible_to<std::size_t>;
  { k == k } -> std::convertible_to<bool>;
};
template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T, class E>
concept bound_field = std::convertible_to<T, std::int64_t> || std::convertible_to<T, E>;
/// A start or step may also be absent at run time (std::optional<expression>: 0 and 1).
template <class T, class E>
concept optional_bound_field =
    bound_field<T, E> || std::same_as<std::remove_cvref_t<T>, std::optional<E>>;

/// The window-buffer handle of an adapter that has none (an analysis-only adapter): the
/// plan still has a field for it.
struct absent_window_buffer {
  friend constexpr bool operator==(absent_window_buffer, absent_window_buffer) = default;
};
/// The rewriter of an adapter without one: the hooks take none.
struct no_rewriter {};
/// A handle type an adapter lacks, in a signature: no call matches it.
struct missing_handle {};

template <class T> using program_member = typename T::program;
template <class T> using function_member = typename T::function;
template <class T> using statement_member = typename T::statement;
template <class T> using expression_member = typename T::expression;
template <class T> using variable_member = typename T::variable;
template <class T> using location_member = typename T::location;
template <class T> using window_buffer_member = typename T::window_buffer;
template <class T> using rewriter_member = typename T::rewriter;
template <class T> using signal_rewriter_member = typename T::signal_rewriter;

/// Member<T>, or Otherwise where T has no such member type.
template <template <class> class Member, class T, class Otherwise> struct member_type_or {
  using type = Otherwise;
};
template <template <class> class Member, class T, class Otherwise>
requires requires { typename Member<T>; }
struct member_type_or<Member, T, Otherwise> {
  using type = Member<T>;
};
template <template <class> class Member, class T, class Otherwise>
using member_type_or_t = typename member_type_or<Member, T, Otherwise>::type;

/// Whether a signature `void(P...)` takes some parameter by non-const lvalue reference.
template <class Signature> inline constexpr bool takes_mutable_reference = false;
template <class... P>
inline constexpr bool takes_mutable_reference<void(P...)> =
    (false || ... ||
     (std::is_lvalue_reference_v<P> && !std::is_const_v<std::remove_reference_t<P>>));

/// Whether a constant given as V fits the contract's type Want: bool for bool, else an
/// integer (not bool) whose value Want represents.
template <class Want, class V> consteval bool fits(const V& v) {
  if constexpr (std::same_as<Want, bool>)
    return std::same_as<V, bool>;
  else if constexpr (std::integral<V> && !std::same_as<V, bool>)
    return std::in_range<Want>(v);
  else
    return false;
}
} // namespace detail

namespace contract {

/// Which layer a member belongs to (traits.hpp lists them).
enum class layer : std::uint8_t { core, readers, rewrite, signals };
enum class member_kind : std::uint8_t { required, optional };

/// The names a declaration's signature and result are written with, for adapter T. A
/// handle T lacks is a type no call accepts, so that asking about such a member is a plain
/// "not given", never a hard error.
template <class T> struct names {
  using program = detail::member_type_or_t<detail::program_member, T, detail::missing_handle>;
  using function = detail::member_type_or_t<detail::function_member, T, detail::missing_handle>;
  using statement = detail::member_type_or_t<detail::statement_member, T, detail::missing_handle>;
  using expression = detail::member_type_or_t<detail::expression_member, T, detail::missing_handle>;
  using variable = detail::member_type_or_t<detail::variable_member, T, detail::missing_handle>;
  using location = detail::member_type_or_t<detail::location_member, T, detail::missing_handle>;
  using window_buffer =
      detail::member_type_or_t<detail::window_buffer_member, T, detail::missing_handle>;
  using rewriter = detail::member_type_or_t<detail::rewriter_member, T, detail::no_rewriter>;
  using signal_rewriter =
      detail::member_type_or_t<detail::signal_rewriter_member, T, detail::no_rewriter>;
};

/// What a hook takes first: the adapter's rewriter (Member<T>), when it declares one.
template <template <class> class Member> struct hook_argument {
  template <class T> static constexpr bool given = requires { typename Member<T>; };
};

// ---- what a member returns: the check of its result and the archetype's result

template <class X> struct converts_to;
template <class X>
concept result_shape = requires {
  typename X::archetype;
};
/// A declaration names a plain type X for converts_to<X>.
template <class X> struct shape_of_result { using type = converts_to<X>; };
template <result_shape X> struct shape_of_result<X> { using type = X; };
template <class X> using shape_of = typename shape_of_result<X>::type;

/// A result that converts to X (the facade hands X on).
template <class X> struct converts_to {
  template <class R> static constexpr bool accepts = std::convertible_to<R, X>;
  using archetype = X;
  static constexpr bool converts = true;
};
/// An input range whose elements are X (a type they convert to, or a shape).
template <class X> struct range_of {
  template <class R>
  static constexpr bool accepts = std::ranges::input_range<R>&&
      shape_of<X>::template accepts<std::ranges::range_reference_t<R>>;
  using archetype = std::span<const typename shape_of<X>::archetype>;
  static constexpr bool converts = false;
};
/// An input range of such ranges.
template <class X> struct ranges_of {
  template <class R>
  static constexpr bool accepts = std::ranges::input_range<R>&&
      range_of<X>::template accepts<std::ranges::range_reference_t<R>>;
  using archetype = std::span<const typename range_of<X>::archetype>;
  static constexpr bool converts = false;
};
/// `{start, stop, step}`: each an expression E or an integer; start and step may be
/// std::optional<E>.
template <class E> struct loop_bounds_of {
  template <class R> static constexpr bool accepts = requires(const R& b) {
    { b.start } -> detail::optional_bound_field<E>;
    { b.stop } -> detail::bound_field<E>;
    { b.step } -> detail::optional_bound_field<E>;
  };
  using archetype = commscope::loop_bounds<E>;
  static constexpr bool converts = false;
};
/// X, or none: std::optional<X>, or a plain X whose value-initialized state means none.
/// The facade hands on what the adapter returns (adapter.hpp, `handed_out`, reads it).
template <class X> struct or_none {
  template <class R> static constexpr bool accepts = std::convertible_to<R, std::optional<X>>;
  using archetype = std::optional<X>;
  static constexpr bool converts = false;
};
/// A key that std::hash and == accept.
struct hashable_key {
  template <class R> static constexpr bool accepts = detail::hashable<std::remove_cvref_t<R>>;
  using archetype = std::size_t;
  static constexpr bool converts = false;
};
/// Anything (a hook's result is not read).
struct anything {
  template <class R> static constexpr bool accepts = true;
  using archetype = void;
  static constexpr bool converts = false;
};

// ---- lists of records

/// An ordered list of records.
template <class... Records> struct records {};

template <class... Lists> struct join_records;
template <class... A> struct join_records<records<A...>> { using type = records<A...>; };
template <class... A, class... B, class... Rest>
struct join_records<records<A...>, records<B...>, Rest...>
    : join_records<records<A..., B...>, Rest...> {};
/// The lists one after the other.
template <class... Lists> using join = typename join_records<Lists...>::type;

template <class R, class T> struct holds_for : std::bool_constant<R::template holds<T>> {};
template <class R, class T> struct given_by : std::bool_constant<R::template given<T>> {};

/// Every record of the list holds for T. Checked in order and no further than the first
/// that fails, so that no requirement is checked on an adapter that lacks what it names.
template <class T, class List> inline constexpr bool all_hold = false;
template <class T, class... R>
inline constexpr bool all_hold<T, records<R...>> = std::conjunction_v<holds_for<R, T>...>;

/// T gives some member of the list.
template <class T, class List> inline constexpr bool any_given = false;
template <class T, class... R>
inline constexpr bool any_given<T, records<R...>> = std::disjunction_v<given_by<R, T>...>;

/// The diagnosis of the first record of the list that does not hold for T: its message is
/// the one error.
template <class T, class R, class... Rest> constexpr void diagnose_first(records<R, Rest...>) {
  if constexpr (!R::template holds<T>)
    R::template diagnose<T>();
  else if constexpr (sizeof...(Rest) > 0)
    diagnose_first<T>(records<Rest...>{});
}

/// The facade call or archetype member of a record that has none: an empty base, one
/// type per record.
template <class R> struct no_part {};
/// What a record without a facade call or an archetype member says it has.
#define COMMSCOPE_CONTRACT_NO_PARTS                                                                \
  template <class, class> using facade_call = ::commscope::contract::no_part<self>;                \
  template <class, class> using archetype_member = ::commscope::contract::no_part<self>

} // namespace contract

/// Traits gives the member that Record describes (`provides<T, contract::values>`).
template <class T, class Record>
concept provides = Record::template given<T>;

} // namespace commscope

#define COMMSCOPE_CONTRACT_UNPAREN(...) __VA_ARGS__
#define COMMSCOPE_CONTRACT_EXPAND(x) x
#define COMMSCOPE_CONTRACT_STRING(...) #__VA_ARGS__
/// "a, b" from "(a, b)".
#define COMMSCOPE_CONTRACT_INNER_STRING(PARAMS)                                                    \
  COMMSCOPE_CONTRACT_EXPAND(COMMSCOPE_CONTRACT_STRING PARAMS)

/// The names of a signature, inside a record's templates: the handles of H and, for the
/// specs a hook receives, Traits.
#define COMMSCOPE_CONTRACT_NAMES(H, F)                                                             \
  using program = typename ::commscope::contract::names<H>::program;                               \
  using function = typename ::commscope::contract::names<H>::function;                             \
  using statement = typename ::commscope::contract::names<H>::statement;                           \
  using expression = typename ::commscope::contract::names<H>::expression;                         \
  using variable = typename ::commscope::contract::names<H>::variable;                             \
  using location = typename ::commscope::contract::names<H>::location;                             \
  using window_buffer = typename ::commscope::contract::names<H>::window_buffer;                   \
  using rewriter = typename ::commscope::contract::names<H>::rewriter;                             \
  using signal_rewriter = typename ::commscope::contract::names<H>::signal_rewriter;               \
  using Traits = F

/// What every member function's record has: its name and its signature's types.
#define COMMSCOPE_CONTRACT_RECORD(LAYER, KIND, NAME, PARAMS, RESULT, ...)                          \
  using self = NAME;                                                                               \
  static constexpr ::std::string_view name = #NAME;                                                \
  static constexpr ::std::string_view signature = #NAME #PARAMS;                                   \
  static constexpr ::std::string_view result = #RESULT;                                            \
  static constexpr ::commscope::contract::layer layer_of = ::commscope::contract::layer::LAYER;    \
  static constexpr ::commscope::contract::member_kind kind =                                       \
      ::commscope::contract::member_kind::KIND;                                                    \
  template <class T> struct types {                                                                \
    COMMSCOPE_CONTRACT_NAMES(T, T);                                                                \
    using shape = ::commscope::contract::shape_of<RESULT>;                                         \
    using signature = void PARAMS;                                                                 \
  };                                                                                               \
  template <class T> using shape = typename types<T>::shape

/// `callable`, `given` and `holds`, after the record's `call<T>`.
#define COMMSCOPE_CONTRACT_GIVEN(NAME)                                                             \
  template <class T> static constexpr bool callable = requires { typename call<T>; };              \
  /* A member of that name the declared call cannot reach (its parameters wrong) is no */          \
  /* absent member: an optional one is diagnosed too. */                                           \
  template <class T> static constexpr bool declared = requires { &T::NAME; };                      \
  template <class T> static constexpr bool given = requires {                                      \
    typename call<T>;                                                                              \
    requires shape<T>::template accepts<call<T>>;                                                  \
  };                                                                                               \
  template <class T>                                                                               \
  static constexpr bool holds =                                                                    \
      given<T> ||                                                                                  \
      (kind == ::commscope::contract::member_kind::optional && !callable<T> && !declared<T>)

/// The call through the adapter: the declared type for a result that converts,
/// else what the adapter returns (a range by value or by reference).
#define COMMSCOPE_CONTRACT_CALL(NAME, ...)                                                         \
  if constexpr (shape<T>::converts)                                                                \
    return typename shape<T>::archetype(t.NAME(__VA_ARGS__));                                      \
  else                                                                                             \
    return t.NAME(__VA_ARGS__)

/// The facade's member function of a member function's record.
#define COMMSCOPE_CONTRACT_FACADE_CALL(NAME)                                                       \
  template <class T, class Facade> struct facade_call {                                            \
    template <class... A> constexpr decltype(auto) NAME(A&&... a) const {                          \
      return self::invoke(static_cast<const Facade&>(*this).traits(), ::std::forward<A>(a)...);    \
    }                                                                                              \
  }

/// The facade's member function of a member function's record whose parameters are all
/// values or const references: it takes const references, so that the algorithms' calls
/// with lvalues, const lvalues and rvalues of one handle type are one instantiation (of it
/// and of `invoke`), not three.
#define COMMSCOPE_CONTRACT_MEMBER_FACADE_CALL(NAME)                                                \
  template <class T, class Facade> struct facade_call {                                            \
    /* What invoke does, done here: one function per call instead of two. */                       \
    template <class... A>                                                                          \
    requires(!::commscope::detail::takes_mutable_reference<typename types<T>::signature> &&        \
             (given<T> || has_default)) constexpr decltype(auto) NAME(const A&... a) const {       \
      const T& t = static_cast<const Facade&>(*this).traits();                                     \
      if constexpr (!given<T>)                                                                     \
        return fallback<T>::value(t, a...);                                                        \
      else {                                                                                       \
        COMMSCOPE_CONTRACT_CALL(NAME, a...);                                                       \
      }                                                                                            \
    }                                                                                              \
    template <class... A>                                                                          \
    requires ::commscope::detail::takes_mutable_reference<typename types<T>::signature>            \
    constexpr decltype(auto) NAME(A&&... a) const {                                                \
      return self::invoke(static_cast<const Facade&>(*this).traits(), ::std::forward<A>(a)...);    \
    }                                                                                              \
  }

/// The member of the archetype (archetype.hpp), for a required member.
#define COMMSCOPE_CONTRACT_ARCHETYPE_optional(NAME, PARAMS, RESULT)                                \
  template <class, class> using archetype_member = ::commscope::contract::no_part<self>
#define COMMSCOPE_CONTRACT_ARCHETYPE_required(NAME, PARAMS, RESULT)                                \
  template <class H, class F> class archetype_member {                                             \
    COMMSCOPE_CONTRACT_NAMES(H, F);                                                                \
    using result_type = typename ::commscope::contract::shape_of<RESULT>::archetype;               \
                                                                                                   \
  public:                                                                                          \
    static constexpr result_type NAME PARAMS { return result_type(); }                             \
  }

/// A required member function: `COMMSCOPE_REQUIRED(layer, name, (parameters),
/// result)`.
#define COMMSCOPE_REQUIRED(LAYER, NAME, PARAMS, RESULT)                                            \
  COMMSCOPE_CONTRACT_MEMBER(required, LAYER, NAME, PARAMS, RESULT)
  /// An optional member function: `COMMSCOPE_OPTIONAL(layer, name, (parameters),
  /// result, { default body })`, the body reading the adapter as `t` and the
  /// parameters by their names; without a body the member has no default and the
  /// facade offers it only where it is given.
#define COMMSCOPE_OPTIONAL(LAYER, NAME, PARAMS, RESULT, ...)                                       \
  COMMSCOPE_CONTRACT_MEMBER(optional, LAYER, NAME, PARAMS, RESULT __VA_OPT__(, ) __VA_ARGS__)
#define COMMSCOPE_CONTRACT_MEMBER(KIND, LAYER, NAME, PARAMS, RESULT, ...)                          \
  struct NAME {                                                                                    \
    COMMSCOPE_CONTRACT_RECORD(LAYER, KIND, NAME, PARAMS, RESULT);                                  \
    template <class T, class... P>                                                                 \
    static auto probe(void (*)(P...))                                                              \
        -> decltype(::std::declval<const T&>().NAME(::std::declval<P>()...));                      \
    template <class T>                                                                             \
    using call = decltype(probe<T>(static_cast<typename types<T>::signature*>(nullptr)));          \
    COMMSCOPE_CONTRACT_GIVEN(NAME);                                                                \
    template <class T> static constexpr void diagnose() {                                          \
      if constexpr (!callable<T> && declared<T>)                                                   \
        static_assert(::commscope::detail::always_false<T>,                                        \
                      "commscope: add `" #NAME #PARAMS "`, returning " #RESULT " (the `" #NAME     \
                      "` given cannot be called so)");                                             \
      else if constexpr (!callable<T>)                                                             \
        static_assert(::commscope::detail::always_false<T>,                                        \
                      "commscope: add `" #NAME #PARAMS "`, returning " #RESULT);                   \
      else                                                                                         \
        static_assert(::commscope::detail::always_false<T>,                                        \
                      "commscope: `" #NAME #PARAMS "` must return " #RESULT);                      \
    }                                                                                              \
    static constexpr bool has_default = sizeof(#__VA_ARGS__) > 1;                                  \
    template <class T> struct fallback {                                                           \
      COMMSCOPE_CONTRACT_NAMES(T, T);                                                              \
      __VA_OPT__(static constexpr decltype(auto) value([[maybe_unused]] const T& t,                \
                                                       COMMSCOPE_CONTRACT_UNPAREN PARAMS)          \
                     __VA_ARGS__)                                                                  \
    };                                                                                             \
    template <class T, class... A>                                                                 \
    requires(given<T> || has_default) static constexpr decltype(auto)                              \
        invoke(const T& t, A&&... a) {                                                             \
      if constexpr (!given<T>)                                                                     \
        return fallback<T>::value(t, ::std::forward<A>(a)...);                                     \
      else {                                                                                       \
        COMMSCOPE_CONTRACT_CALL(NAME, ::std::forward<A>(a)...);                                    \
      }                                                                                            \
    }                                                                                              \
    COMMSCOPE_CONTRACT_MEMBER_FACADE_CALL(NAME);                                                   \
    COMMSCOPE_CONTRACT_ARCHETYPE_##KIND(NAME, PARAMS, RESULT);                                     \
  }

/// A rewrite hook: `COMMSCOPE_HOOK(layer, name, rewriter, (parameters),
/// result)`. It takes the adapter's `rewriter` (or `signal_rewriter`) first,
/// when the adapter declares one.
#define COMMSCOPE_HOOK(LAYER, NAME, REWRITER, PARAMS, RESULT)                                      \
  COMMSCOPE_CONTRACT_HOOK(                                                                         \
      LAYER, NAME, REWRITER,                                                                       \
      ::commscope::contract::hook_argument<::commscope::detail::REWRITER##_member>, PARAMS,        \
      RESULT)
#define COMMSCOPE_CONTRACT_HOOK(LAYER, NAME, REWRITER, ARGUMENT, PARAMS, RESULT)                   \
  struct NAME {                                                                                    \
    COMMSCOPE_CONTRACT_RECORD(LAYER, required, NAME, PARAMS, RESULT);                              \
    template <class T, class... P>                                                                 \
    requires(!ARGUMENT::template given<T>) static auto probe(void (*)(P...))                       \
        -> decltype(::std::declval<const T&>().NAME(::std::declval<P>()...));                      \
    template <class T, class... P>                                                                 \
    requires(ARGUMENT::template given<T>) static auto probe(void (*)(P...))                        \
        -> decltype(::std::declval<const T&>().NAME(                                               \
            ::std::declval<typename ::commscope::contract::names<T>::REWRITER&>(),                 \
            ::std::declval<P>()...));                                                              \
    template <class T>                                                                             \
    using call = decltype(probe<T>(static_cast<typename types<T>::signature*>(nullptr)));          \
    COMMSCOPE_CONTRACT_GIVEN(NAME);                                                                \
    template <class T> static constexpr void diagnose() {                                          \
      if constexpr (ARGUMENT::template given<T>)                                                   \
        static_assert(::commscope::detail::always_false<T>,                                        \
                      "commscope: add `" #NAME "(" #REWRITER                                       \
                      "&, " COMMSCOPE_CONTRACT_INNER_STRING(PARAMS) ")`, returning " #RESULT);     \
      else                                                                                         \
        static_assert(::commscope::detail::always_false<T>,                                        \
                      "commscope: add `" #NAME #PARAMS "`, returning " #RESULT);                   \
    }                                                                                              \
    template <class T, class R, class... A>                                                        \
    static constexpr decltype(auto) invoke(const T& t, [[maybe_unused]] R& rw, A&&... a) {         \
      if constexpr (ARGUMENT::template given<T>)                                                   \
        return t.NAME(rw, ::std::forward<A>(a)...);                                                \
      else                                                                                         \
        return t.NAME(::std::forward<A>(a)...);                                                    \
    }                                                                                              \
    COMMSCOPE_CONTRACT_FACADE_CALL(NAME);                                                          \
    COMMSCOPE_CONTRACT_ARCHETYPE_required(NAME, PARAMS, RESULT);                                   \
  }

/// An optional constant: `COMMSCOPE_CONSTANT(layer, name, type, default)`, given
/// as `static constexpr type name = ...;`. Given with another type (a double, a
/// negative value for an unsigned one, an int for bool) it is an error, not
/// absent.
#define COMMSCOPE_CONSTANT(LAYER, NAME, TYPE, DEFAULT)                                             \
  struct NAME {                                                                                    \
    using self = NAME;                                                                             \
    COMMSCOPE_CONTRACT_NO_PARTS;                                                                   \
    static constexpr ::std::string_view name = #NAME;                                              \
    static constexpr ::std::string_view signature = "static constexpr " #TYPE " " #NAME;           \
    static constexpr ::std::string_view result = #TYPE;                                            \
    static constexpr ::commscope::contract::layer layer_of = ::commscope::contract::layer::LAYER;  \
    static constexpr ::commscope::contract::member_kind kind =                                     \
        ::commscope::contract::member_kind::optional;                                              \
    template <class T> static constexpr bool declared = requires { T::NAME; };                     \
    template <class T> static constexpr bool given = requires {                                    \
      requires ::commscope::detail::fits<TYPE, ::std::remove_cvref_t<decltype(T::NAME)>>(T::NAME); \
    };                                                                                             \
    template <class T> static constexpr bool holds = !declared<T> || given<T>;                     \
    template <class T> static constexpr void diagnose() {                                          \
      static_assert(::commscope::detail::always_false<T>,                                          \
                    "commscope: `" #NAME "` must be `static constexpr " #TYPE " " #NAME            \
                    "`, a value that " #TYPE " holds");                                            \
    }                                                                                              \
    template <class T> static constexpr TYPE of() {                                                \
      if constexpr (given<T>)                                                                      \
        return static_cast<TYPE>(T::NAME);                                                         \
      else                                                                                         \
        return DEFAULT;                                                                            \
    }                                                                                              \
  }

/// A handle type: `COMMSCOPE_HANDLE(layer, kind, name, requirement, what it must
/// be)`.
#define COMMSCOPE_HANDLE(LAYER, KIND, NAME, REQUIREMENT, WHAT)                                     \
  struct NAME {                                                                                    \
    using self = NAME;                                                                             \
    COMMSCOPE_CONTRACT_NO_PARTS;                                                                   \
    static constexpr ::std::string_view name = #NAME;                                              \
    static constexpr ::std::string_view signature = "using " #NAME;                                \
    static constexpr ::commscope::contract::layer layer_of = ::commscope::contract::layer::LAYER;  \
    static constexpr ::commscope::contract::member_kind kind =                                     \
        ::commscope::contract::member_kind::KIND;                                                  \
    template <class T> static constexpr bool declared = requires { typename T::NAME; };            \
    template <class T> static constexpr bool given = requires {                                    \
      typename T::NAME;                                                                            \
      requires REQUIREMENT<typename T::NAME>;                                                      \
    };                                                                                             \
    template <class T>                                                                             \
    static constexpr bool holds =                                                                  \
        ::commscope::contract::member_kind::KIND == ::commscope::contract::member_kind::optional   \
            ? !declared<T> || given<T>                                                             \
            : given<T>;                                                                            \
    template <class T> static constexpr void diagnose() {                                          \
      static_assert(::commscope::detail::always_false<T>,                                          \
                    "commscope: add `using " #NAME " = ...;` (" WHAT ")");                         \
    }                                                                                              \
  }

/// A rule between members: `COMMSCOPE_RULE(name, "message", condition on T)`.
#define COMMSCOPE_RULE(NAME, MESSAGE, ...)                                                         \
  struct NAME {                                                                                    \
    using self = NAME;                                                                             \
    COMMSCOPE_CONTRACT_NO_PARTS;                                                                   \
    template <class T> static constexpr bool holds = __VA_ARGS__;                                  \
    template <class T> static constexpr void diagnose() {                                          \
      static_assert(::commscope::detail::always_false<T>, "commscope: " MESSAGE);                  \
    }                                                                                              \
  }
