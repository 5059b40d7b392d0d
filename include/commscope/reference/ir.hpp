// The reference IR: a small host IR with shared immutable nodes, like the compiler the
// design note comes from. Window-buffer objects are shared and their identity matters:
// every view of one allocation points at the very same `window_buffer`.
//
// Layout (compact: a few hundred bytes per allocation of a typical host program):
//   - Nodes live in arenas (node_arena): chunks of a few KB to 1 MB, bump-allocated, never
//     moved, freed all at once. A handle is a plain pointer (node_ptr, 8 bytes): stable,
//     and what the traits hand to the library. Nodes are trivially destructible, so
//     dropping a program of any depth recurses nowhere.
//   - A program owns (shared_ptr) the arenas its nodes live in. A rewrite writes its new
//     nodes into a new arena and publishes a new program that holds the old arenas too:
//     every unchanged node, function and window buffer is shared, the very same object.
//   - Strings (str, 8 bytes) are length-prefixed bytes in an arena; names are interned
//     by the writer that makes them (node_factory::intern). Nodes hold no source text:
//     a statement's origin() is what its producer keys its own records by (a front end:
//     the text it read), and program::annotation what the producer keeps beside them.
//   - Lists (node_list, 8 bytes) are count-prefixed arrays in an arena. An expression
//     keeps its operands (arguments, keyword arguments) inline after the node, and an
//     assignment its targets: a name or a literal is 24 bytes, a call 24 + 8 per argument
//     + 16 per keyword, a statement 16 bytes plus 8 per slot of its kind.
// Build nodes with node_factory (or builder.hpp for whole programs). The DSL front end
// (tools/frontend) reads the text form into this IR and prints it back.
#pragma once

#include <commscope/reference/name_table.hpp>
#include <commscope/reference/source_location.hpp>
#include <commscope/traits.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace commscope::reference {

/// Python's builtins that only read what they are given: a call of one by its bare name,
/// unbound (no variable), is a read of its operands and nothing else. A front end whose
/// file binds one of these names itself (`from rich import print`, `def len(x)`) hands
/// that call over with a callee that is no bare name: it calls the file's function.
inline constexpr std::array<std::string_view, 9> read_only_builtins = {
    "len", "isinstance", "print", "int", "bool", "str", "type", "id", "hasattr"};

// ---- handles, strings and lists ---------------------------------------------------------

/// A handle to a node in an arena: a plain pointer with the shape of a smart pointer, so
/// that `p.get()`, `*p`, `p->x` and comparisons read as they always did.
template <class T> class node_ptr {
public:
  using element_type = T;
  constexpr node_ptr() noexcept = default;
  constexpr node_ptr(std::nullptr_t) noexcept {}
  constexpr node_ptr(T* p) noexcept : p_(p) {}
  template <class U>
  requires std::is_convertible_v<U*, T*>
  constexpr node_ptr(const node_ptr<U>& o) noexcept : p_(o.get()) {}
  [[nodiscard]] constexpr T* get() const noexcept { return p_; }
  constexpr T& operator*() const noexcept { return *p_; }
  constexpr T* operator->() const noexcept { return p_; }
  constexpr explicit operator bool() const noexcept { return p_ != nullptr; }
  friend constexpr bool operator==(node_ptr a, node_ptr b) noexcept { return a.p_ == b.p_; }
  friend constexpr bool operator==(node_ptr a, std::nullptr_t) noexcept { return !a.p_; }

private:
  T* p_ = nullptr;
};

/// An immutable string in an arena: a pointer to its length (4 bytes) and its bytes.
class str {
public:
  constexpr str() noexcept = default;
  [[nodiscard]] std::size_t size() const noexcept {
    if (!p_)
      return 0;
    std::uint32_t n;
    std::memcpy(&n, p_, sizeof n);
    return n;
  }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  [[nodiscard]] const char* data() const noexcept {
    return p_ ? static_cast<const char*>(p_) + sizeof(std::uint32_t) : "";
  }
  [[nodiscard]] std::string_view view() const noexcept { return {data(), size()}; }
  operator std::string_view() const noexcept { return view(); }
  [[nodiscard]] bool starts_with(std::string_view s) const noexcept {
    return view().starts_with(s);
  }
  [[nodiscard]] bool ends_with(std::string_view s) const noexcept { return view().ends_with(s); }
  [[nodiscard]] char operator[](std::size_t i) const noexcept { return data()[i]; }
  /// The same string (not a copy): for strings made elsewhere that must outlive this one.
  [[nodiscard]] const void* rep() const noexcept { return p_; }
  static str from_rep(const void* p) noexcept {
    str s;
    s.p_ = p;
    return s;
  }
  friend bool operator==(str a, str b) noexcept { return a.p_ == b.p_ || a.view() == b.view(); }
  friend bool operator==(str a, std::string_view b) noexcept { return a.view() == b; }
  friend bool operator==(str a, const char* b) noexcept { return a.view() == b; }

private:
  const void* p_ = nullptr;
};

inline std::string operator+(const std::string& a, str b) {
  std::string r = a;
  r += b.view();
  return r;
}
inline std::string operator+(str a, const std::string& b) {
  std::string r(a.view());
  r += b;
  return r;
}
inline std::string operator+(str a, const char* b) {
  std::string r(a.view());
  r += b;
  return r;
}
inline std::string operator+(const char* a, str b) {
  std::string r(a);
  r += b.view();
  return r;
}

/// A read-only view of a contiguous run of list elements.
template <class T> class node_span {
public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = const T*;
  using const_iterator = const T*;
  constexpr node_span() noexcept = default;
  constexpr node_span(const T* data, std::size_t size) noexcept : data_(data), size_(size) {}
  [[nodiscard]] constexpr const T* begin() const noexcept { return data_; }
  [[nodiscard]] constexpr const T* end() const noexcept { return data_ + size_; }
  [[nodiscard]] auto rbegin() const noexcept { return std::reverse_iterator<const T*>(end()); }
  [[nodiscard]] auto rend() const noexcept { return std::reverse_iterator<const T*>(begin()); }
  [[nodiscard]] constexpr const T* data() const noexcept { return data_; }
  [[nodiscard]] constexpr std::size_t size() const noexcept { return size_; }
  [[nodiscard]] constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  const T& at(std::size_t i) const {
    if (i >= size_)
      throw std::out_of_range("commscope::reference: list index out of range");
    return data_[i];
  }
  constexpr const T& front() const noexcept { return data_[0]; }
  constexpr const T& back() const noexcept { return data_[size_ - 1]; }
  operator std::span<const T>() const noexcept { return {data_, size_}; }

private:
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// A list stored in a node: a pointer to a count-prefixed array in an arena (null: empty).
template <class T> class node_list {
public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = const T*;
  using const_iterator = const T*;
  constexpr node_list() noexcept = default;
  [[nodiscard]] std::size_t size() const noexcept { return p_ ? static_cast<std::size_t>(*p_) : 0; }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  [[nodiscard]] const T* data() const noexcept {
    return p_ ? reinterpret_cast<const T*>(p_ + 1) : nullptr;
  }
  [[nodiscard]] const T* begin() const noexcept { return data(); }
  [[nodiscard]] const T* end() const noexcept { return data() + size(); }
  const T& operator[](std::size_t i) const noexcept { return data()[i]; }
  const T& at(std::size_t i) const { return span().at(i); }
  const T& front() const noexcept { return data()[0]; }
  const T& back() const noexcept { return data()[size() - 1]; }
  [[nodiscard]] node_span<T> span() const noexcept { return {data(), size()}; }
  operator node_span<T>() const noexcept { return span(); }
  operator std::span<const T>() const noexcept { return {data(), size()}; }
  /// The elements, writable: for the writer that made the list, before publishing it.
  [[nodiscard]] T* mutable_data() const noexcept {
    return p_ ? const_cast<T*>(reinterpret_cast<const T*>(p_ + 1)) : nullptr;
  }
  static node_list from_rep(const std::uint64_t* p) noexcept {
    node_list l;
    l.p_ = p;
    return l;
  }

private:
  const std::uint64_t* p_ = nullptr;
};

// ---- nodes ------------------------------------------------------------------------------

struct variable;
class expression;
class statement;
struct window_buffer;
struct type;
struct function;
struct signature;
struct program;

using variable_ptr = node_ptr<const variable>;
using expression_ptr = node_ptr<const expression>;
using statement_ptr = node_ptr<const statement>;
using window_buffer_ptr = node_ptr<const window_buffer>;
using type_ptr = node_ptr<const type>;
using function_ptr = node_ptr<const function>;
using signature_ptr = node_ptr<const signature>;
using program_ptr = std::shared_ptr<const program>;

/// A variable's type. `annotation` is the type as written (parameters); a view's type
/// is the distributed tensor type made of the window call's shape and dtype, and after
/// the pass it points at its window buffer.
struct type {
  expression_ptr annotation;
  expression_ptr shape;
  expression_ptr dtype;
  window_buffer_ptr window;
};

/// One binding, with a type of its own (each view assignment is retyped on its own). `id`
/// is dense within its program (see program::variable_bound). `name_id` is what the
/// analysis keys its tables by: the id of the first binding of the same name in the same
/// function, so that rebinding a name rebinds one variable, as Python does, and the
/// analysis sees every binding that may reach a use (docs/semantics.md, "Rebinding and
/// control flow"). A variable made on its own is its own name_id.
struct variable {
  std::uint32_t id = 0;
  std::uint32_t name_id = 0;
  str name;
  type_ptr var_type;
};

/// The window-buffer object of one allocation (docs/semantics.md, step 7).
struct window_buffer {
  variable_ptr base;
  expression_ptr size;
  bool load_from_host = false;
  bool store_to_host = false;
  str name;
};

struct keyword_argument {
  str name;
  expression_ptr value;
};

/// A function's identity as seen by callers: shared between the function and every
/// call of it, so rebuilding a body never invalidates a call.
struct signature {
  str name;
  commscope::level level = commscope::level::other;
  bool orchestrator = false;             ///< role Orchestrator or type Orchestration
  bool graph = false;                    ///< type Graph
  node_list<keyword_argument> decorator; ///< @pl.function(...) as written
  /// What a chip orchestrator's value may be (part of) of its arguments: its parameters,
  /// in order (a method's without its receiver), and which of them, bit k for the k-th
  /// (bit 63 also for every later one). The default, all: any argument it is given.
  node_list<str> parameters;
  std::uint64_t returned = ~std::uint64_t{0};

  [[nodiscard]] function_info info() const { return {name.view(), level, orchestrator, graph}; }
};

/// An expression: 24 bytes, then what its kind holds (see the file comment). Read it
/// through the accessors; node_factory makes it.
class expression {
public:
  enum class kind : std::uint8_t {
    integer,       ///< value (text holds the digits when they overflow int64)
    boolean,       ///< value 0 or 1
    none,          ///< None
    string,        ///< text
    name,          ///< var; or, for an unbound name, text
    attribute,     ///< base.text
    operation,     ///< a recognized operation: op, text = spelling, args, keywords
    function_call, ///< self.NAME(...): callee (null when NAME is unknown), text = NAME
    call,          ///< any other call: base(args, keywords)
    subscript,     ///< base[args...]
    list,          ///< [args...]
    tuple,         ///< (args...)
    unary,         ///< text args[0]   (text: "-", "not")
    binary,        ///< args[0] text args[1]   (arithmetic, comparison, and/or)
    opaque,        ///< any other Python form: text as written, args its operands
  };

  kind what = kind::none;
  commscope::operation op = commscope::operation::none;

private:
  std::uint8_t flags_ = 0;
  std::uint8_t keyword_count_ = 0; ///< 255: the count is in the tail
  std::uint32_t arg_count_ = 0;

public:
  source_location where{};

  // ---- reading
  /// An integer's or a boolean's value.
  [[nodiscard]] std::int64_t value() const noexcept {
    return (what == kind::integer || what == kind::boolean) ? payload_.value : 0;
  }
  /// An integer literal outside int64 (value saturated, text as written).
  [[nodiscard]] bool overflow() const noexcept { return flags_ & f_overflow; }
  /// An opaque form whose operands may not all be evaluated: a conditional expression, a
  /// lambda, a comprehension (a dispatch among them is guarded).
  [[nodiscard]] bool conditional() const noexcept { return flags_ & f_conditional; }
  /// An opaque form that stores its operands into an object or a container (`x.a = v`,
  /// `l[i] = v`): what it stores may be used anywhere later.
  [[nodiscard]] bool store() const noexcept { return flags_ & f_store; }
  /// The variable a bound name refers to.
  [[nodiscard]] variable_ptr var() const noexcept {
    return (what == kind::name && (flags_ & f_bound)) ? payload_.var : nullptr;
  }
  /// The function a function_call calls (null when it names no function of the program).
  [[nodiscard]] signature_ptr callee() const noexcept {
    return (what == kind::function_call && (flags_ & f_resolved)) ? payload_.callee : nullptr;
  }
  /// The object of an attribute, the callee of a call, the subscripted value, the shape
  /// of an allocation by shape.
  [[nodiscard]] expression_ptr base() const noexcept {
    return has_base(what) ? payload_.base : nullptr;
  }
  [[nodiscard]] str text() const noexcept {
    switch (what) {
    case kind::string:
    case kind::opaque:
    case kind::unary:
    case kind::binary:
      return payload_.text;
    case kind::name:
      return (flags_ & f_bound) ? str() : payload_.text;
    case kind::function_call:
      return (flags_ & f_resolved) ? (payload_.callee ? payload_.callee->name : str())
                                   : payload_.text;
    default:
      return (flags_ & f_tail_text) ? *tail<str>(sizeof(expression)) : str();
    }
  }
  /// An allocation's name (its name= keyword or its variable's name); the name of the
  /// constant an integer was resolved from.
  [[nodiscard]] str name() const noexcept {
    return (flags_ & f_name) ? *tail<str>(name_offset()) : str();
  }
  [[nodiscard]] node_span<expression_ptr> args() const noexcept {
    return {tail<expression_ptr>(args_offset()), arg_count_};
  }
  [[nodiscard]] node_span<keyword_argument> keywords() const noexcept {
    return {tail<keyword_argument>(keywords_offset()), keyword_count()};
  }
  /// Whether the node has operands (a base, arguments or keyword arguments).
  [[nodiscard]] bool has_operands() const noexcept {
    return arg_count_ != 0 || keyword_count_ != 0 || (has_base(what) && payload_.base);
  }
  /// The node's size in bytes, tail included.
  [[nodiscard]] std::size_t size_bytes() const noexcept {
    return keywords_offset() + keyword_count() * sizeof(keyword_argument);
  }

  // ---- writing: only by the writer that made the node, before publishing it
  void set_value(std::int64_t v) noexcept { payload_.value = v; }
  void set_overflow(bool o) noexcept {
    flags_ = static_cast<std::uint8_t>(o ? flags_ | f_overflow : flags_ & ~f_overflow);
  }
  void set_var(variable_ptr v) noexcept {
    payload_.var = v.get();
    flags_ |= f_bound;
  }
  void set_callee(signature_ptr s) noexcept {
    payload_.callee = s.get();
    flags_ |= f_resolved;
  }
  void set_base(expression_ptr b) noexcept { payload_.base = b.get(); }
  void set_conditional() noexcept { flags_ |= f_conditional; }
  void set_store() noexcept { flags_ |= f_store; }
  /// False when the node has no room for a text (made without one, of a tail kind).
  bool set_text(str t) noexcept {
    switch (what) {
    case kind::string:
    case kind::opaque:
    case kind::unary:
    case kind::binary:
      payload_.text = t;
      return true;
    case kind::name:
    case kind::function_call:
      payload_.text = t;
      flags_ = static_cast<std::uint8_t>(flags_ & ~(f_bound | f_resolved));
      return true;
    default:
      if (!(flags_ & f_tail_text))
        return false;
      *mutable_tail<str>(sizeof(expression)) = t;
      return true;
    }
  }
  /// False when the node was made without room for a name.
  bool set_name(str n) noexcept {
    if (!(flags_ & f_name))
      return false;
    *mutable_tail<str>(name_offset()) = n;
    return true;
  }
  [[nodiscard]] std::span<expression_ptr> mutable_args() noexcept {
    return {mutable_tail<expression_ptr>(args_offset()), arg_count_};
  }
  [[nodiscard]] std::span<keyword_argument> mutable_keywords() noexcept {
    return {mutable_tail<keyword_argument>(keywords_offset()), keyword_count()};
  }
  /// Turns a call-like node into another call-like kind (same slots).
  void set_kind(kind k) noexcept { what = k; }

  /// Where the payload is the text (so a node of that kind has no tail text slot).
  static constexpr bool text_in_payload(kind k) noexcept {
    return k == kind::string || k == kind::opaque || k == kind::unary || k == kind::binary ||
           k == kind::name || k == kind::function_call;
  }
  static constexpr bool has_base(kind k) noexcept {
    return k == kind::attribute || k == kind::call || k == kind::subscript || k == kind::operation;
  }

private:
  friend class node_factory;
  enum : std::uint8_t {
    f_overflow = 1,
    f_tail_text = 2,    ///< a text slot in the tail (kinds whose payload is not the text)
    f_name = 4,         ///< a name slot in the tail
    f_bound = 8,        ///< name: the payload is the variable
    f_resolved = 16,    ///< function_call: the payload is the callee
    f_conditional = 32, ///< opaque: its operands may not all be evaluated
    f_store = 64,       ///< opaque: it stores its operands (store())
  };

  template <class T> const T* tail(std::size_t offset) const noexcept {
    return reinterpret_cast<const T*>(reinterpret_cast<const char*>(this) + offset);
  }
  template <class T> T* mutable_tail(std::size_t offset) noexcept {
    return reinterpret_cast<T*>(reinterpret_cast<char*>(this) + offset);
  }
  [[nodiscard]] std::size_t name_offset() const noexcept {
    return sizeof(expression) + ((flags_ & f_tail_text) ? 8 : 0);
  }
  [[nodiscard]] std::size_t count_offset() const noexcept {
    return name_offset() + ((flags_ & f_name) ? 8 : 0);
  }
  [[nodiscard]] std::size_t args_offset() const noexcept {
    return count_offset() + (keyword_count_ == 255 ? 8 : 0);
  }
  [[nodiscard]] std::size_t keywords_offset() const noexcept {
    return args_offset() + std::size_t{arg_count_} * sizeof(expression_ptr);
  }
  [[nodiscard]] std::size_t keyword_count() const noexcept {
    if (keyword_count_ != 255)
      return keyword_count_;
    std::uint64_t n;
    std::memcpy(&n, reinterpret_cast<const char*>(this) + count_offset(), sizeof n);
    return static_cast<std::size_t>(n);
  }

  union payload {
    std::int64_t value;
    const variable* var;
    const signature* callee;
    const expression* base;
    str text;
    payload() noexcept : value(0) {}
  } payload_;
};

/// A statement: 16 bytes, then the slots of its kind (8 bytes each). Read it through the
/// accessors; node_factory makes it.
class alignas(8) statement {
public:
  enum class kind : std::uint8_t {
    assign,     ///< targets = value
    evaluate,   ///< value
    for_loop,   ///< for loop_var[, (targets...)] in range(start, stop, step[,
                ///< init_values=(values...)]): body
    while_loop, ///< while value: body
    if_else,    ///< if value: body else: orelse (elif is an if_else alone in orelse)
    return_,    ///< return values...
    pass,
    scope,    ///< with pld.comm_domain(scope_name, devices, slots): body
    block,    ///< any other compound statement (with, try, except, for over no range,
              ///< else of a loop, ...): values, targets, body; how often the body runs
              ///< is its flow(); binding() binds its targets
    verbatim, ///< any other simple statement (del, assert, a docstring, break, ...):
              ///< values are read. One that rebinds names (x += e, a nested def) is an
              ///< assignment of an opaque value made of what it reads
  };

  kind what = kind::pass;

private:
  std::uint8_t flags_ = 0;
  std::uint8_t range_arity_ = 1;
  std::uint8_t target_count_ = 0; ///< an assignment's target count (many_targets: in a slot)
  std::uint32_t origin_ = 0;

public:
  source_location where{};

  // ---- reading
  /// What the producer of the statement keys its own records of it by (a front end: the
  /// text it read); 0 for none. The IR never reads it; a copy made by a rewrite keeps it.
  [[nodiscard]] std::uint32_t origin() const noexcept { return origin_; }
  /// A verbatim statement's or a block's header's spelling, for one made in memory
  /// (`break`); a parsed one's is in its producer's records (origin).
  [[nodiscard]] str text() const noexcept {
    return slot_of_text(what) >= 0 ? *slot<str>(slot_of_text(what)) : str();
  }
  [[nodiscard]] expression_ptr value() const noexcept {
    return slot_of_value(what) >= 0 ? *slot<expression_ptr>(slot_of_value(what)) : nullptr;
  }
  /// The value as a list of one (or none), for readers that take lists.
  [[nodiscard]] node_span<expression_ptr> value_list() const noexcept {
    if (slot_of_value(what) < 0)
      return {};
    const auto* v = slot<expression_ptr>(slot_of_value(what));
    return {v, *v ? std::size_t{1} : std::size_t{0}};
  }
  /// The expressions a return, a block or a verbatim statement reads; a for loop's
  /// init_values, one per loop-carried target.
  [[nodiscard]] node_span<expression_ptr> values() const noexcept {
    return list_at<expression_ptr>(slot_of_values(what));
  }
  [[nodiscard]] node_span<variable_ptr> targets() const noexcept {
    if (what == kind::assign)
      return {slot<variable_ptr>(first_target()), assigned_count()};
    return list_at<variable_ptr>(slot_of_targets(what));
  }
  [[nodiscard]] variable_ptr loop_var() const noexcept {
    return what == kind::for_loop ? *slot<variable_ptr>(0) : nullptr;
  }
  /// A for loop's bounds: always present; implicit ones are constants.
  [[nodiscard]] expression_ptr start() const noexcept { return loop_slot(1); }
  [[nodiscard]] expression_ptr stop() const noexcept { return loop_slot(2); }
  [[nodiscard]] expression_ptr step() const noexcept { return loop_slot(3); }
  /// How many range() arguments were written.
  [[nodiscard]] std::uint8_t range_arity() const noexcept { return range_arity_; }
  /// `range(...)` rather than `pl.range(...)`.
  [[nodiscard]] bool builtin_range() const noexcept { return flags_ & f_builtin_range; }
  /// Printed as `elif` inside its parent's orelse.
  [[nodiscard]] bool is_elif() const noexcept { return flags_ & f_elif; }
  /// How a block's body runs (control_flow): once, zero or more times (`for x in items`),
  /// at most once, or at most once and possibly stopping part way (try, with).
  [[nodiscard]] commscope::control_flow flow() const noexcept {
    const bool once = flags_ & f_once, repeat = flags_ & f_repeat;
    return once && repeat ? commscope::control_flow::may_stop
           : once         ? commscope::control_flow::block
           : repeat       ? commscope::control_flow::repeat
                          : commscope::control_flow::may_skip;
  }
  /// A verbatim `break` or `continue`.
  [[nodiscard]] bool is_jump() const noexcept { return flags_ & f_jump; }
  /// An assignment that binds each target to its own element of its value, a tuple or a
  /// call (`a, b = b, a`; a loop's closing `pl.yield_(x)`, which binds the loop-carried
  /// targets): the elements are read before any target is bound.
  [[nodiscard]] bool parallel() const noexcept { return flags_ & f_parallel; }
  /// A statement that a rewrite changed after it was made, so that what its producer
  /// recorded of its spelling (origin) no longer spells it: it is spelled from its parts.
  [[nodiscard]] bool respelled() const noexcept { return flags_ & f_respelled; }
  [[nodiscard]] node_span<statement_ptr> body() const noexcept {
    return list_at<statement_ptr>(slot_of_body(what));
  }
  [[nodiscard]] node_span<statement_ptr> orelse() const noexcept {
    return what == kind::if_else ? list_at<statement_ptr>(2) : node_span<statement_ptr>();
  }
  /// A block's targets (`with f() as x`, `for x in items`, `except E as x`) are bound as
  /// its body begins, each time it does: an assignment of an opaque value to them, which
  /// the traits present as the block's first child (none, or that one statement). It is
  /// no statement of the body: printers and the rewrite never see it.
  [[nodiscard]] node_span<statement_ptr> binding() const noexcept {
    if (what != kind::block)
      return {};
    const auto* b = slot<statement_ptr>(3);
    return {b, *b ? std::size_t{1} : std::size_t{0}};
  }
  // scope
  [[nodiscard]] str scope_name() const noexcept {
    return what == kind::scope ? *slot<str>(0) : str();
  }
  [[nodiscard]] bool all_devices() const noexcept { return !(flags_ & f_device_list); }
  [[nodiscard]] node_span<std::int64_t> devices() const noexcept {
    return what == kind::scope ? slot<node_list<std::int64_t>>(1)->span()
                               : node_span<std::int64_t>();
  }
  [[nodiscard]] node_span<window_buffer_ptr> slots() const noexcept {
    return list_at<window_buffer_ptr>(what == kind::scope ? 2 : -1);
  }
  /// A symbolic device set's world-relative progressions, as triples (start, step, stop
  /// offset), in the printed order; empty for a plain list.
  [[nodiscard]] node_span<std::int64_t> progressions() const noexcept {
    return what == kind::scope ? slot<node_list<std::int64_t>>(4)->span()
                               : node_span<std::int64_t>();
  }
  [[nodiscard]] std::size_t size_bytes() const noexcept {
    return sizeof(statement) + 8 * static_cast<std::size_t>(slot_count(what)) +
           (what == kind::assign
                ? 8 * (assigned_count() + (target_count_ == many_targets ? std::size_t{1} : 0))
                : 0);
  }
  /// How many 8-byte slots follow a statement of kind `k` (an assignment's targets come
  /// after its value: their count is in the header, or, from 255 on, in a slot first).
  static constexpr int slot_count(kind k) noexcept {
    switch (k) {
    case kind::assign:
      return 1;
    case kind::evaluate:
      return 1;
    case kind::for_loop:
      return 7;
    case kind::while_loop:
      return 2;
    case kind::if_else:
      return 3;
    case kind::return_:
      return 1;
    case kind::pass:
      return 0;
    case kind::scope:
      return 5;
    case kind::block:
      return 5;
    case kind::verbatim:
      return 3;
    }
    return 0;
  }

  // ---- writing: only by the writer that made the node, before publishing it
  void set_origin(std::uint32_t origin) noexcept { origin_ = origin; }
  void set_text(str t) noexcept {
    if (slot_of_text(what) >= 0)
      *mutable_slot<str>(slot_of_text(what)) = t;
  }
  void set_value(expression_ptr e) noexcept {
    if (slot_of_value(what) >= 0)
      *mutable_slot<expression_ptr>(slot_of_value(what)) = e;
  }
  void set_values(node_list<expression_ptr> l) noexcept {
    if (slot_of_values(what) >= 0)
      *mutable_slot<node_list<expression_ptr>>(slot_of_values(what)) = l;
  }
  /// Not for an assignment, whose targets are inline (mutable_targets).
  void set_targets(node_list<variable_ptr> l) noexcept {
    if (what != kind::assign && slot_of_targets(what) >= 0)
      *mutable_slot<node_list<variable_ptr>>(slot_of_targets(what)) = l;
  }
  [[nodiscard]] std::span<variable_ptr> mutable_targets() noexcept {
    if (what == kind::assign)
      return {mutable_slot<variable_ptr>(first_target()), assigned_count()};
    const auto t = targets();
    return {const_cast<variable_ptr*>(t.data()), t.size()};
  }
  void set_loop(variable_ptr var, expression_ptr start, expression_ptr stop,
                expression_ptr step) noexcept {
    if (what != kind::for_loop)
      return;
    *mutable_slot<variable_ptr>(0) = var;
    *mutable_slot<expression_ptr>(1) = start;
    *mutable_slot<expression_ptr>(2) = stop;
    *mutable_slot<expression_ptr>(3) = step;
  }
  void set_range(std::uint8_t arity, bool builtin) noexcept {
    range_arity_ = arity;
    set_flag(f_builtin_range, builtin);
  }
  void set_elif(bool e) noexcept { set_flag(f_elif, e); }
  void set_flow(commscope::control_flow f) noexcept {
    const bool stop = f == commscope::control_flow::may_stop;
    set_flag(f_once, f == commscope::control_flow::block || stop);
    set_flag(f_repeat, f == commscope::control_flow::repeat || stop);
  }
  void set_jump(bool j) noexcept { set_flag(f_jump, j); }
  void set_parallel(bool p) noexcept { set_flag(f_parallel, p); }
  void set_respelled() noexcept { set_flag(f_respelled, true); }
  void set_body(node_list<statement_ptr> l) noexcept {
    if (slot_of_body(what) >= 0)
      *mutable_slot<node_list<statement_ptr>>(slot_of_body(what)) = l;
  }
  void set_orelse(node_list<statement_ptr> l) noexcept {
    if (what == kind::if_else)
      *mutable_slot<node_list<statement_ptr>>(2) = l;
  }
  void set_binding(statement_ptr b) noexcept {
    if (what == kind::block)
      *mutable_slot<statement_ptr>(3) = b;
  }
  void set_scope(str name, node_list<std::int64_t> devices, bool all_devices,
                 node_list<window_buffer_ptr> slots,
                 node_list<std::int64_t> progressions = {}) noexcept {
    if (what != kind::scope)
      return;
    *mutable_slot<str>(0) = name;
    *mutable_slot<node_list<std::int64_t>>(1) = devices;
    *mutable_slot<node_list<window_buffer_ptr>>(2) = slots;
    *mutable_slot<node_list<std::int64_t>>(4) = progressions;
    set_flag(f_device_list, !all_devices);
  }

  static constexpr int slot_of_value(kind k) noexcept {
    return (k == kind::assign || k == kind::evaluate || k == kind::while_loop || k == kind::if_else)
               ? 0
               : -1;
  }
  static constexpr int slot_of_values(kind k) noexcept {
    return (k == kind::return_ || k == kind::block || k == kind::verbatim) ? 0
           : k == kind::for_loop                                           ? 6
                                                                           : -1;
  }
  static constexpr int slot_of_text(kind k) noexcept {
    return k == kind::block ? 4 : k == kind::verbatim ? 2 : -1;
  }
  static constexpr int slot_of_targets(kind k) noexcept {
    return k == kind::for_loop ? 4 : (k == kind::block || k == kind::verbatim) ? 1 : -1;
  }
  static constexpr int slot_of_body(kind k) noexcept {
    switch (k) {
    case kind::for_loop:
      return 5;
    case kind::while_loop:
    case kind::if_else:
      return 1;
    case kind::scope:
      return 3;
    case kind::block:
      return 2;
    default:
      return -1;
    }
  }

private:
  friend class node_factory;
  enum : std::uint8_t {
    f_builtin_range = 1,
    f_elif = 2,
    f_device_list = 4,
    f_once = 8,        ///< block: flow() is block (with f_repeat: may_stop)
    f_repeat = 16,     ///< block: flow() is repeat (with f_once: may_stop)
    f_jump = 32,       ///< verbatim: break or continue
    f_parallel = 64,   ///< assign: parallel()
    f_respelled = 128, ///< respelled()
  };

  void set_flag(std::uint8_t f, bool on) noexcept {
    flags_ = static_cast<std::uint8_t>(on ? flags_ | f : flags_ & ~f);
  }
  static constexpr std::uint8_t many_targets = 255;
  [[nodiscard]] std::size_t assigned_count() const noexcept {
    return target_count_ == many_targets ? static_cast<std::size_t>(*slot<std::uint64_t>(1))
                                         : target_count_;
  }
  [[nodiscard]] int first_target() const noexcept { return target_count_ == many_targets ? 2 : 1; }
  template <class T> const T* slot(int i) const noexcept {
    return reinterpret_cast<const T*>(reinterpret_cast<const char*>(this) + sizeof(statement) +
                                      8 * static_cast<std::size_t>(i));
  }
  template <class T> T* mutable_slot(int i) noexcept {
    return reinterpret_cast<T*>(reinterpret_cast<char*>(this) + sizeof(statement) +
                                8 * static_cast<std::size_t>(i));
  }
  template <class T> node_span<T> list_at(int i) const noexcept {
    return i >= 0 ? slot<node_list<T>>(i)->span() : node_span<T>();
  }
  expression_ptr loop_slot(int i) const noexcept {
    return what == kind::for_loop ? *slot<expression_ptr>(i) : nullptr;
  }
};

struct parameter {
  variable_ptr var;
};

struct function {
  signature_ptr sig;
  node_list<parameter> params;
  expression_ptr returns; ///< the `-> TYPE` annotation, or null
  node_list<statement_ptr> body;
  source_location where{};
  /// Another function of the program calls it (a front end knows): a view it returns
  /// reaches a caller the pass does not follow (traits: returns_to_callers).
  bool returns_to_callers = false;
};

static_assert(sizeof(expression) == 24 && alignof(expression) == 8);
static_assert(sizeof(statement) == 16 && alignof(statement) == 8);
static_assert(sizeof(variable) == 24);
static_assert(std::is_trivially_destructible_v<expression> &&
              std::is_trivially_destructible_v<statement> &&
              std::is_trivially_destructible_v<function> &&
              std::is_trivially_destructible_v<window_buffer>);

// ---- arenas -----------------------------------------------------------------------------

/// Chunked bump storage for nodes: addresses never move; everything is freed at once,
/// with the arenas it depends on (nodes here that point at nodes there).
class node_arena {
public:
  explicit node_arena(std::size_t first_chunk = 4096) : next_size_(first_chunk) {}
  node_arena(const node_arena&) = delete;
  node_arena& operator=(const node_arena&) = delete;
  ~node_arena() {
    while (head_) {
      chunk* c = head_;
      head_ = c->prev;
      ::operator delete(c);
    }
    // Dependencies are released one level at a time: an arena never holds one that
    // holds it back, and the chains are short (see depend_on).
  }

  /// `bytes` bytes aligned to `align` (at most 8), uninitialized.
  void* allocate(std::size_t bytes, std::size_t align = 8) {
    auto p = (reinterpret_cast<std::uintptr_t>(cur_) + (align - 1)) & ~(std::uintptr_t{align} - 1);
    if (cur_ && p + bytes <= reinterpret_cast<std::uintptr_t>(end_)) {
      cur_ = reinterpret_cast<char*>(p + bytes);
      return reinterpret_cast<void*>(p);
    }
    return allocate_slow(bytes);
  }

  /// Keeps `other` alive as long as this arena: nodes written here point into it.
  void depend_on(const std::shared_ptr<const node_arena>& other) {
    if (!other || other.get() == this)
      return;
    // The last few are checked for a repeat; an older repeat only costs a slot.
    for (auto it = deps_.rbegin(); it != deps_.rend() && it - deps_.rbegin() < 8; ++it)
      if (it->get() == other.get())
        return;
    deps_.push_back(other);
  }
  [[nodiscard]] const std::vector<std::shared_ptr<const node_arena>>& dependencies() const {
    return deps_;
  }
  /// Bytes taken from the system for nodes.
  [[nodiscard]] std::size_t reserved_bytes() const noexcept { return reserved_; }

private:
  struct chunk {
    chunk* prev;
    std::size_t size;
  };
  static constexpr std::size_t max_chunk = std::size_t{1} << 20;

  void* allocate_slow(std::size_t bytes) {
    const std::size_t header = (sizeof(chunk) + 7) & ~std::size_t{7};
    if (header + bytes > next_size_ || (bytes > next_size_ / 4 && bytes > 256)) {
      // A large node or list gets a chunk of its own; the current one stays open.
      auto* c = static_cast<chunk*>(::operator new(header + bytes));
      reserved_ += header + bytes;
      if (head_) { // behind the open chunk, so that it stays the head
        c->prev = head_->prev;
        head_->prev = c;
      } else {
        c->prev = nullptr;
        head_ = c;
        cur_ = end_ = reinterpret_cast<char*>(c) + header + bytes;
      }
      c->size = header + bytes;
      return reinterpret_cast<char*>(c) + header;
    }
    const std::size_t size = next_size_;
    next_size_ = std::min(next_size_ + next_size_ / 4, max_chunk); // slow growth: little slack
    auto* c = static_cast<chunk*>(::operator new(size));
    reserved_ += size;
    c->prev = head_;
    c->size = size;
    head_ = c;
    cur_ = reinterpret_cast<char*>(c) + header;
    end_ = reinterpret_cast<char*>(c) + size;
    void* p = cur_;
    cur_ += bytes;
    return p;
  }

  char* cur_ = nullptr;
  char* end_ = nullptr;
  chunk* head_ = nullptr;
  std::size_t next_size_;
  std::size_t reserved_ = 0;
  std::vector<std::shared_ptr<const node_arena>> deps_;
};

/// What the producer of a program keeps beside it (a front end: the source text of its
/// statements, by statement::origin()). The IR never reads it.
class program_annotation {
public:
  virtual ~program_annotation() = default;
};

/// The whole program: its functions, in source order, and the arenas their nodes live in.
struct program {
  /// `@pl.program class NAME:` with `@pl.function` methods, or a group of module-level
  /// (or function-local) `@pl.jit` functions that call each other by bare name.
  enum class form : std::uint8_t { program_class, jit_group };
  form style = form::program_class;
  std::string name;
  std::vector<function_ptr> functions;
  std::uint32_t variable_bound = 0; ///< every variable id is below it
  /// What keeps the nodes alive: the arena they were written to (and those it depends
  /// on). A rewritten program holds the old program's arenas and its own.
  std::vector<std::shared_ptr<const node_arena>> arenas;
  /// Its producer's records; a rewritten program shares them.
  std::shared_ptr<const program_annotation> annotation;
};

// ---- writing nodes ----------------------------------------------------------------------

/// What an expression holds, for node_factory::make.
struct expression_spec {
  expression::kind what = expression::kind::none;
  source_location where{};
  commscope::operation op = commscope::operation::none;
  std::int64_t value = 0;
  bool overflow = false;
  variable_ptr var;
  signature_ptr callee;
  expression_ptr base;
  str text;
  bool text_slot = false; ///< room for a text set later (kinds with a tail text)
  str name;
  bool name_slot = false; ///< room for a name set later
  std::span<const expression_ptr> args;
  std::span<const keyword_argument> keywords;
};

/// What a statement holds, for node_factory::make.
struct statement_spec {
  statement::kind what = statement::kind::pass;
  source_location where{};
  std::uint32_t origin = 0;
  str text; ///< a verbatim statement's or a block's spelling (statement::text)
  expression_ptr value;
  std::span<const variable_ptr> targets;
  std::span<const expression_ptr> values;
  variable_ptr loop_var;
  expression_ptr start, stop, step;
  std::uint8_t range_arity = 1;
  bool builtin_range = false;
  bool is_elif = false;
  commscope::control_flow flow = commscope::control_flow::may_skip; ///< a block's
  bool jump = false;
  bool parallel = false;
  std::span<const statement_ptr> body;
  std::span<const statement_ptr> orelse;
  str scope_name;
  bool all_devices = true;
  std::span<const std::int64_t> devices;
  std::span<const window_buffer_ptr> slots;
  std::span<const std::int64_t> progressions; ///< triples, as statement::progressions()
};

/// Writes nodes, strings and lists into one arena. Nodes it returns are writable until
/// they are published (handed out as const).
class node_factory {
public:
  explicit node_factory(std::size_t first_chunk = 4096)
      : arena_(std::make_shared<node_arena>(first_chunk)) {}
  explicit node_factory(std::shared_ptr<node_arena> a) : arena_(std::move(a)) {}

  [[nodiscard]] const std::shared_ptr<node_arena>& arena() const noexcept { return arena_; }
  /// Keeps another arena alive with this one (nodes here point into it).
  void keep_alive(const std::shared_ptr<const node_arena>& other) { arena_->depend_on(other); }

  // ---- strings and lists
  /// A copy of `s` in the arena.
  str string(std::string_view s) {
    if (s.empty())
      return {};
    if (s.size() > 0xffffffffu)
      throw std::length_error("commscope::reference: string too long");
    auto* p = static_cast<char*>(arena_->allocate(sizeof(std::uint32_t) + s.size(), 4));
    const auto n = static_cast<std::uint32_t>(s.size());
    std::memcpy(p, &n, sizeof n);
    std::memcpy(p + sizeof n, s.data(), s.size());
    return str::from_rep(p);
  }
  /// `s` once per factory: equal names are the same string.
  str intern(std::string_view s) {
    if (s.empty())
      return {};
    if (const str found = interned_.find(s); found.rep())
      return found;
    const str r = string(s);
    interned_.put(r);
    return r;
  }
  template <class T> node_list<T> list(std::span<const T> items) {
    if (items.empty())
      return {};
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= 8);
    auto* p = static_cast<std::uint64_t*>(
        arena_->allocate(sizeof(std::uint64_t) + items.size() * sizeof(T)));
    *p = items.size();
    std::memcpy(p + 1, items.data(), items.size() * sizeof(T));
    return node_list<T>::from_rep(p);
  }
  template <class T> node_list<T> list(std::initializer_list<T> items) {
    return list(std::span<const T>(items.begin(), items.size()));
  }
  /// A list of a contiguous container's elements (std::vector, the library's own).
  template <class Container>
  requires requires(const Container& c) {
    c.data();
    c.size();
  }
  auto list(const Container& items) {
    using T = std::remove_cvref_t<decltype(*items.data())>;
    return list(std::span<const T>(items.data(), items.size()));
  }

  // ---- fixed-size nodes
  template <class T> T* make_node(T value = T{}) {
    static_assert(std::is_trivially_destructible_v<T>);
    return new (arena_->allocate(sizeof(T), alignof(T))) T(value);
  }
  /// A variable that is its own name_id.
  variable* make_variable(std::uint32_t id, str name, type_ptr t = {}) {
    return make_node(variable{id, id, name, t});
  }
  /// Another binding of the variable `of`: a new node (its own type) with its name_id.
  variable* make_binding(std::uint32_t id, const variable& of, type_ptr t = {}) {
    return make_node(variable{id, of.name_id, of.name, t});
  }

  // ---- expressions and statements
  /// An integer or boolean literal (24 bytes, no tail).
  expression* make_value(expression::kind k, source_location where, std::int64_t value) {
    auto* e = new (arena_->allocate(sizeof(expression))) expression();
    e->what = k;
    e->where = where;
    e->payload_.value = value;
    return e;
  }
  /// A use of variable `v` (24 bytes).
  expression* make_use(source_location where, variable_ptr v) {
    auto* e = new (arena_->allocate(sizeof(expression))) expression();
    e->what = expression::kind::name;
    e->where = where;
    e->set_var(v);
    return e;
  }
  expression* make(const expression_spec& s) {
    using k = expression::kind;
    const bool tail_text =
        !expression::text_in_payload(s.what) && (!s.text.empty() || s.text_slot || s.overflow);
    const bool has_name = !s.name.empty() || s.name_slot;
    const bool big = s.keywords.size() >= 255;
    if (s.args.size() > 0xffffffffu)
      throw std::length_error("commscope::reference: too many operands");
    const std::size_t bytes = sizeof(expression) + (tail_text ? 8 : 0) + (has_name ? 8 : 0) +
                              (big ? 8 : 0) + s.args.size() * sizeof(expression_ptr) +
                              s.keywords.size() * sizeof(keyword_argument);
    auto* e = new (arena_->allocate(bytes)) expression();
    e->what = s.what;
    e->where = s.where;
    e->op = s.op;
    e->arg_count_ = static_cast<std::uint32_t>(s.args.size());
    e->keyword_count_ = big ? 255 : static_cast<std::uint8_t>(s.keywords.size());
    e->flags_ = static_cast<std::uint8_t>((s.overflow ? expression::f_overflow : 0) |
                                          (tail_text ? expression::f_tail_text : 0) |
                                          (has_name ? expression::f_name : 0));
    switch (s.what) {
    case k::integer:
    case k::boolean:
      e->payload_.value = s.value;
      break;
    case k::name:
      if (s.var)
        e->set_var(s.var);
      else
        e->payload_.text = s.text;
      break;
    case k::function_call:
      if (s.callee)
        e->set_callee(s.callee);
      else
        e->payload_.text = s.text;
      break;
    case k::string:
    case k::opaque:
    case k::unary:
    case k::binary:
      e->payload_.text = s.text;
      break;
    default:
      if (expression::has_base(s.what))
        e->payload_.base = s.base.get();
      break;
    }
    if (tail_text)
      *e->mutable_tail<str>(sizeof(expression)) = s.text;
    if (has_name)
      *e->mutable_tail<str>(e->name_offset()) = s.name;
    if (big) {
      const std::uint64_t n = s.keywords.size();
      std::memcpy(reinterpret_cast<char*>(e) + e->count_offset(), &n, sizeof n);
    }
    if (!s.args.empty())
      std::memcpy(e->mutable_tail<char>(e->args_offset()), s.args.data(),
                  s.args.size() * sizeof(expression_ptr));
    if (!s.keywords.empty())
      std::memcpy(e->mutable_tail<char>(e->keywords_offset()), s.keywords.data(),
                  s.keywords.size() * sizeof(keyword_argument));
    return e;
  }

  statement* make(const statement_spec& s) {
    using k = statement::kind;
    const std::size_t inline_targets =
        s.what == k::assign ? s.targets.size() + (s.targets.size() >= 255 ? 1 : 0) : 0;
    auto* st = blank_statement(s.what, s.where, inline_targets);
    st->set_origin(s.origin);
    st->set_text(s.text);
    st->set_elif(s.is_elif);
    if (s.what == k::block)
      st->set_flow(s.flow);
    st->set_jump(s.jump);
    st->set_parallel(s.parallel);
    switch (s.what) {
    case k::assign:
      if (s.targets.size() >= statement::many_targets) {
        st->target_count_ = statement::many_targets;
        *st->mutable_slot<std::uint64_t>(1) = s.targets.size();
      } else {
        st->target_count_ = static_cast<std::uint8_t>(s.targets.size());
      }
      if (!s.targets.empty())
        std::memcpy(st->mutable_slot<char>(st->first_target()), s.targets.data(),
                    s.targets.size() * sizeof(variable_ptr));
      break;
    case k::for_loop:
      st->set_loop(s.loop_var, s.start, s.stop, s.step);
      st->set_range(s.range_arity, s.builtin_range);
      break;
    case k::scope:
      st->set_scope(s.scope_name, list(s.devices), s.all_devices, list(s.slots),
                    list(s.progressions));
      break;
    default:
      break;
    }
    st->set_value(s.value);
    st->set_values(list(s.values));
    if (s.what != k::assign)
      st->set_targets(list(s.targets));
    st->set_body(list(s.body));
    st->set_orelse(list(s.orelse));
    return st;
  }

  /// An empty scope around `body` (set_scope fills it): what make() makes of a scope
  /// spec with only a place and a body, without the code for every other kind, for the
  /// rewrite, which makes no other statement from nothing.
  statement* make_scope(source_location where, std::span<const statement_ptr> body) {
    auto* st = blank_statement(statement::kind::scope, where);
    st->set_body(list(body));
    return st;
  }

  /// A writable copy of `e` (same kind, same slots).
  expression* clone(const expression& e) {
    const std::size_t bytes = e.size_bytes();
    void* mem = arena_->allocate(bytes);
    std::memcpy(mem, &e, bytes);
    return std::launder(static_cast<expression*>(mem));
  }
  /// A writable copy of `s` (same kind, same slots; lists shared until replaced).
  statement* clone(const statement& s) {
    const std::size_t bytes = s.size_bytes();
    void* mem = arena_->allocate(bytes);
    std::memcpy(mem, &s, bytes);
    return std::launder(static_cast<statement*>(mem));
  }

private:
  /// A zeroed statement of kind `what` at `where`, with room for its kind's slots and
  /// `extra` more (an assignment's inline targets).
  statement* blank_statement(statement::kind what, source_location where, std::size_t extra = 0) {
    const std::size_t bytes =
        sizeof(statement) + 8 * (static_cast<std::size_t>(statement::slot_count(what)) + extra);
    void* mem = arena_->allocate(bytes);
    std::memset(mem, 0, bytes);
    auto* st = new (mem) statement();
    st->what = what;
    st->where = where;
    return st;
  }

  struct key_of {
    std::string_view operator()(str s) const noexcept { return s.view(); }
  };
  std::shared_ptr<node_arena> arena_;
  commscope::detail::name_table<str, key_of> interned_;
};

} // namespace commscope::reference
