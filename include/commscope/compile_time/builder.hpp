// A small language for compile-time test programs. The structure of a program (which
// variables are bound and used where, which operation takes how many arguments, which
// function is called, what carries `device=`) is carried in types, so a malformed test
// program does not compile, with a message that says what is wrong:
//
//   constexpr auto p = program(
//       chip_orchestrator<"chip">(),
//       host_orchestrator<"host">(
//           let<"buf">(alloc(256)),
//           let<"data">(window(use<"buf">)),
//           for_world<"r">(dispatch(call<"chip">(use<"data">), use<"r">))));
//
// A variable is a name of its function: `let<"x">` twice binds one variable twice, as
// Python does, and the pass resolves each use to the bindings that may reach it through
// branches (`branch(c)(...).otherwise(...)`) and loops.
//
// Values that do not change the structure (integers, allocation names, function levels)
// are data members; `program(...)` lays it all out as a basic_program (ir.hpp). The
// deliberately malformed forms that the pass itself must diagnose stay expressible, by
// name: malformed<op>(...), unknown_call<"f">(...).
#pragma once

#include <commscope/compile_time/ir.hpp>
#include <commscope/compile_time/traits.hpp>
#include <commscope/traits.hpp>

#include <boost/hana/for_each.hpp>
#include <boost/hana/tuple.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace commscope::compile_time {

/// A name as a template argument (`use<"buf">`): names are part of a program's type.
template <std::size_t N> struct name {
  char text[N]{};
  constexpr name(const char (&s)[N]) {
    for (std::size_t i = 0; i < N; ++i)
      text[i] = s[i];
  }
  [[nodiscard]] constexpr std::string_view view() const { return {text, N - 1}; }
};

/// A name inside a diagnostic's template arguments, so that the compiler prints it.
struct label {
  char text[32]{};
  constexpr label() = default;
  constexpr explicit label(std::string_view s) {
    for (std::size_t i = 0; i < s.size() && i + 1 < sizeof text; ++i)
      text[i] = s[i];
  }
};

namespace detail {

/// What `program(...)` found wrong, first only.
enum class problem : std::uint8_t { none, unbound_variable, unknown_function, duplicate_function };

/// Lays a program out while walking it: the nodes, the variables bound so far (for
/// use-before-bind) and the declared functions (for dispatch targets). Transient
/// std::vectors: usable during constant evaluation.
struct writer {
  std::vector<function_node> functions;
  std::vector<statement_node> statements;
  std::vector<expression_node> expressions;
  std::vector<std::uint32_t> statement_lists;
  std::vector<std::uint32_t> expression_lists;
  std::vector<variable_node> variables;
  std::vector<std::uint32_t> bound; ///< the current function's variables
  problem first = problem::none;
  std::string_view who;
  std::uint32_t line = 0;
  std::uint32_t depth = 0;
  location here{};             ///< the current statement's location: its calls share it
  std::string_view assigned{}; ///< the variable the current statement binds, if any

  constexpr void fail(problem p, std::string_view n) {
    if (first == problem::none) {
      first = p;
      who = n;
    }
  }
  constexpr void begin_statement(std::string_view target = {}) {
    here = {++line, 5 + 4 * depth};
    assigned = target;
  }
  constexpr std::uint32_t find(std::string_view n) const {
    for (const auto v : bound)
      if (variables[v].name == n)
        return v;
    return none;
  }
  /// A use: the name must have a binding earlier in the text of its function.
  constexpr std::uint32_t lookup(std::string_view n) {
    const auto v = find(n);
    if (v == none)
      fail(problem::unbound_variable, n);
    return v;
  }
  /// A binding: of the function's variable of that name, new the first time.
  constexpr std::uint32_t bind(std::string_view n) {
    if (const auto v = find(n); v != none)
      return v;
    const auto v = static_cast<std::uint32_t>(variables.size());
    variables.push_back({n});
    bound.push_back(v);
    return v;
  }
  constexpr std::uint32_t push(expression_node e) {
    expressions.push_back(e);
    return static_cast<std::uint32_t>(expressions.size() - 1);
  }
  constexpr std::uint32_t push(statement_node s) {
    statements.push_back(s);
    return static_cast<std::uint32_t>(statements.size() - 1);
  }
  /// Appends a list contiguously; returns where it starts.
  static constexpr std::uint32_t append(std::vector<std::uint32_t>& to,
                                        const std::vector<std::uint32_t>& items) {
    const auto at = static_cast<std::uint32_t>(to.size());
    to.insert(to.end(), items.begin(), items.end());
    return at;
  }
  constexpr const function_node* function(std::string_view n) const {
    for (const auto& f : functions)
      if (f.info.name == n)
        return &f;
    return nullptr;
  }
};

template <class T>
concept expression_form = requires {
  T::is_expression;
};
template <class T>
concept statement_form = requires {
  T::is_statement;
};
template <class T>
concept function_form = requires {
  T::is_function;
};
template <class T>
concept expression_like = expression_form<T> || std::integral<T>;

template <class... A>
constexpr std::vector<std::uint32_t> emit_all(writer& w, const boost::hana::tuple<A...>& items) {
  std::vector<std::uint32_t> r;
  boost::hana::for_each(items, [&](const auto& x) { r.push_back(x.emit(w)); });
  return r;
}

// ---- expressions -----------------------------------------------------------------------

/// An integer constant.
struct lit {
  static constexpr bool is_expression = true;
  std::int64_t value = 0;
  constexpr std::uint32_t emit(writer& w) const {
    return w.push({expression_kind::integer, {}, value, none, 0, 0, none, {}, w.here});
  }
};

template <class T> constexpr auto as_expression(const T& x) {
  static_assert(expression_like<T>,
                "commscope::compile_time: an argument must be an expression: an integer, "
                "use<\"name\">, an operation or a call (not a statement)");
  if constexpr (std::integral<T>)
    return lit{static_cast<std::int64_t>(x)};
  else
    return x;
}
template <class T> using expression_t = decltype(as_expression(std::declval<const T&>()));

/// A use of the variable of this name.
template <name N> struct use_t {
  static constexpr bool is_expression = true;
  constexpr std::uint32_t emit(writer& w) const {
    return w.push({expression_kind::variable, {}, 0, w.lookup(N.view()), 0, 0, none, {}, w.here});
  }
};

/// A recognized operation (operations.hpp): `label` is an allocation's name.
template <operation Op, class... A> struct op_t {
  static constexpr bool is_expression = true;
  std::string_view label{};
  boost::hana::tuple<A...> args{};

  /// An allocation's `name=`, when it differs from the variable it is assigned to.
  [[nodiscard]] constexpr op_t named(std::string_view n) const {
    static_assert(Op == operation::alloc_window_buffer,
                  "commscope::compile_time: only alloc(...) takes a name");
    return {n, args};
  }
  constexpr std::uint32_t emit(writer& w) const {
    const auto a = emit_all(w, args);
    const auto first = writer::append(w.expression_lists, a);
    const std::string_view n =
        Op == operation::alloc_window_buffer ? (label.empty() ? w.assigned : label) : label;
    return w.push({expression_kind::call, call_target::of(Op), 0, none, first,
                   static_cast<std::uint32_t>(a.size()), none, n, w.here});
  }
};

/// A call of a function of the program, with or without `device=`.
template <name Callee, class... A> struct call_t {
  static constexpr bool is_expression = true;
  boost::hana::tuple<A...> args{};
  constexpr std::uint32_t emit(writer& w, std::uint32_t device = none) const {
    const auto* f = w.function(Callee.view());
    if (!f)
      w.fail(problem::unknown_function, Callee.view());
    auto a = emit_all(w, args);
    const auto n = static_cast<std::uint32_t>(a.size());
    if (device != none)
      a.push_back(device); // subexpressions() reads it right after the arguments
    const auto first = writer::append(w.expression_lists, a);
    const call_target t = f ? call_target::of(f->info) : call_target::unresolved(Callee.view());
    return w.push({expression_kind::call, t, 0, none, first, n, device, {}, w.here});
  }
};

/// `call` with `device=`: the only place a device can go.
template <class Call, class Device> struct on_t {
  static constexpr bool is_expression = true;
  Call call{};
  Device device{};
  constexpr std::uint32_t emit(writer& w) const { return call.emit(w, device.emit(w)); }
};

/// A call of a function the program does not have (the pass reports it: malformed-op).
template <name Callee, class... A> struct unknown_call_t {
  static constexpr bool is_expression = true;
  boost::hana::tuple<A...> args{};
  constexpr std::uint32_t emit(writer& w) const {
    const auto a = emit_all(w, args);
    const auto first = writer::append(w.expression_lists, a);
    return w.push({expression_kind::call,
                   call_target::unresolved(Callee.view()),
                   0,
                   none,
                   first,
                   static_cast<std::uint32_t>(a.size()),
                   none,
                   {},
                   w.here});
  }
};

/// Any other expression (arithmetic, a list, ...): opaque, but its operands are visited.
template <class... A> struct opaque_t {
  static constexpr bool is_expression = true;
  boost::hana::tuple<A...> operands{};
  constexpr std::uint32_t emit(writer& w) const {
    const auto a = emit_all(w, operands);
    const auto first = writer::append(w.expression_lists, a);
    return w.push({expression_kind::other,
                   {},
                   0,
                   none,
                   first,
                   static_cast<std::uint32_t>(a.size()),
                   none,
                   {},
                   w.here});
  }
};

/// `x - C` with a constant C: opaque, but readable as `world_size() - C` by an adapter
/// with symbolic device sets (symbolic_traits).
template <class A> struct minus_t {
  static constexpr bool is_expression = true;
  A operand{};
  std::int64_t constant = 0;
  constexpr std::uint32_t emit(writer& w) const {
    const auto a = emit_all(w, boost::hana::make_tuple(operand));
    const auto first = writer::append(w.expression_lists, a);
    return w.push({expression_kind::other, {}, constant, none, first, 1, none, "-", w.here});
  }
};

template <class> inline constexpr bool is_function_call = false;
template <name Callee, class... A>
inline constexpr bool is_function_call<call_t<Callee, A...>> = true;

template <class> inline constexpr bool always_false = false;

/// Positional arity of the operations (docs/semantics.md, step 4, "Collectives"): each
/// mistake its own message.
template <operation Op, std::size_t N> constexpr void check_arity() {
  using enum operation;
  if constexpr (Op == alloc_window_buffer)
    static_assert(N == 1, "commscope::compile_time: alloc_window_buffer takes exactly 1 "
                          "positional argument (size)");
  else if constexpr (Op == window)
    static_assert(N == 2 || N == 3, "commscope::compile_time: window takes 2 or 3 positional "
                                    "arguments (ptr, shape[, dtype])");
  else if constexpr (Op == world_size)
    static_assert(N == 0, "commscope::compile_time: world_size takes no arguments");
  else if constexpr (Op == allreduce || Op == broadcast || Op == reduce_scatter)
    static_assert(N == 2, "commscope::compile_time: allreduce, broadcast and reduce_scatter "
                          "take exactly 2 positional arguments (data, signal)");
  else if constexpr (Op == barrier)
    static_assert(N == 1, "commscope::compile_time: barrier takes exactly 1 positional "
                          "argument (signal)");
  else if constexpr (Op == allgather || Op == all_to_all)
    static_assert(N == 3, "commscope::compile_time: allgather and all_to_all take exactly 3 "
                          "positional arguments (input, target, signal)");
  else if constexpr (Op == all_to_all_v)
    static_assert(N == 5, "commscope::compile_time: all_to_all_v takes exactly 5 positional "
                          "arguments (input, target, signal, send_counts, recv_counts)");
  else
    static_assert(always_false<decltype(Op)>,
                  "commscope::compile_time: operation::none is not an operation");
}

// ---- statements ------------------------------------------------------------------------

template <class... S> constexpr void check_statements() {
  static_assert((statement_form<S> && ...),
                "commscope::compile_time: a body holds statements: let<\"x\">(...), "
                "eval(...), dispatch(...), for_range<\"r\">(...)(...), for_world<\"r\">(...), "
                "while_loop(...)(...), branch(...)(...)[.otherwise(...)], jump()");
}

template <class... S>
constexpr std::vector<std::uint32_t> emit_block(writer& w, const boost::hana::tuple<S...>& body) {
  ++w.depth;
  auto r = emit_all(w, body);
  --w.depth;
  return r;
}

/// `x = value`
template <name N, class E> struct let_t {
  static constexpr bool is_statement = true;
  E value{};
  constexpr std::uint32_t emit(writer& w) const {
    w.begin_statement(N.view());
    const auto at = w.here;
    const auto v = value.emit(w);
    const auto t = w.bind(N.view()); // after the value: `x = x` uses the previous x
    statement_node s;
    s.kind = statement_kind::assignment;
    s.target = t;
    s.value = v;
    s.where = at;
    return w.push(s);
  }
};

/// An expression statement.
template <class E> struct eval_t {
  static constexpr bool is_statement = true;
  E value{};
  constexpr std::uint32_t emit(writer& w) const {
    w.begin_statement();
    statement_node s;
    s.kind = statement_kind::evaluation;
    s.where = w.here;
    s.value = value.emit(w);
    return w.push(s);
  }
};

/// `for v in range(start, stop, step): body`
template <name V, class Start, class Stop, class Step, class... Body> struct for_t {
  static constexpr bool is_statement = true;
  Start start{};
  Stop stop{};
  Step step{};
  boost::hana::tuple<Body...> body{};
  constexpr std::uint32_t emit(writer& w) const {
    w.begin_statement();
    statement_node s;
    s.kind = statement_kind::for_loop;
    s.where = w.here;
    s.start = start.emit(w);
    s.stop = stop.emit(w);
    s.step = step.emit(w);
    s.loop_variable = w.bind(V.view());
    const auto c = emit_block(w, body);
    s.first = writer::append(w.statement_lists, c);
    s.count = static_cast<std::uint32_t>(c.size());
    return w.push(s);
  }
};

/// A statement with a condition and children (those of `block`, then of `more`): a
/// while loop, or an if whose children are alternatives, the first `block` its then
/// branch.
template <class Cond, class Block, class More>
constexpr std::uint32_t emit_compound(writer& w, statement_kind k, const Cond& condition,
                                      const Block& block, const More& more) {
  w.begin_statement();
  statement_node s;
  s.kind = k;
  s.where = w.here;
  s.value = condition.emit(w);
  auto c = emit_block(w, block);
  s.split = static_cast<std::uint32_t>(c.size());
  const auto rest = emit_block(w, more);
  c.insert(c.end(), rest.begin(), rest.end());
  s.first = writer::append(w.statement_lists, c);
  s.count = static_cast<std::uint32_t>(c.size());
  if (k == statement_kind::other)
    s.control = control_flow::alternatives;
  return w.push(s);
}

/// `if cond: then... else: otherwise...`.
template <class Cond, class Then, class Else> struct if_t {
  static constexpr bool is_statement = true;
  Cond condition{};
  Then then{};
  Else otherwise{};
  constexpr std::uint32_t emit(writer& w) const {
    return emit_compound(w, statement_kind::other, condition, then, otherwise);
  }
};

/// `while cond: body` (kind while_loop) or `if cond: body` (kind other: an if without
/// else; `.otherwise(...)` gives it one).
template <statement_kind K, class Cond, class... Body> struct block_t {
  static constexpr bool is_statement = true;
  Cond condition{};
  boost::hana::tuple<Body...> body{};
  constexpr std::uint32_t emit(writer& w) const {
    return emit_compound(w, K, condition, body, boost::hana::tuple<>{});
  }
  template <class... Else> constexpr auto otherwise(const Else&... e) const {
    static_assert(K == statement_kind::other,
                  "commscope::compile_time: only a branch(...)(...) has an otherwise(...)");
    check_statements<Else...>();
    return if_t<Cond, boost::hana::tuple<Body...>, boost::hana::tuple<Else...>>{
        condition, body, {e...}};
  }
};

/// `break` or `continue`: what is bound here reaches the loop's next iteration and its
/// exit.
struct jump_t {
  static constexpr bool is_statement = true;
  constexpr std::uint32_t emit(writer& w) const {
    w.begin_statement();
    statement_node s;
    s.kind = statement_kind::jump;
    s.where = w.here;
    return w.push(s);
  }
};

template <name V, class Start, class Stop, class Step> struct for_header {
  Start start;
  Stop stop;
  Step step;
  template <class... Body> constexpr auto operator()(Body... body) const {
    check_statements<Body...>();
    return for_t<V, Start, Stop, Step, Body...>{start, stop, step, {body...}};
  }
};

template <statement_kind K, class Cond> struct block_header {
  Cond condition;
  template <class... Body> constexpr auto operator()(Body... body) const {
    check_statements<Body...>();
    return block_t<K, Cond, Body...>{condition, {body...}};
  }
};

// ---- functions -------------------------------------------------------------------------

/// A function the host orchestrators may call; its body is not part of the test.
template <name N> struct declared_t {
  static constexpr bool is_function = true;
  commscope::level level = level::chip;
  bool orchestrator = true;
  bool graph = false;
  constexpr void declare(writer& w) const {
    w.functions.push_back({{N.view(), level, orchestrator, graph}, 0, 0});
  }
  constexpr void define(writer&, std::size_t) const {}
};

template <name N, class... S> struct host_t {
  static constexpr bool is_function = true;
  boost::hana::tuple<S...> body{};
  constexpr void declare(writer& w) const {
    w.functions.push_back({{N.view(), level::host, true, false}, 0, 0});
  }
  constexpr void define(writer& w, std::size_t index) const {
    w.bound.clear(); // variables are local to their function
    w.depth = 0;
    w.line += 1; // the `def` line
    const auto c = emit_all(w, body);
    w.functions[index].first = writer::append(w.statement_lists, c);
    w.functions[index].count = static_cast<std::uint32_t>(c.size());
  }
};

template <class... Fns> constexpr writer write(const Fns&... fns) {
  writer w;
  (fns.declare(w), ...);
  for (std::size_t i = 0; i < w.functions.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (w.functions[i].info.name == w.functions[j].info.name)
        w.fail(problem::duplicate_function, w.functions[i].info.name);
  std::size_t index = 0;
  (fns.define(w, index++), ...);
  return w;
}

struct shape {
  std::size_t functions = 0, statements = 0, expressions = 0, statement_lists = 0,
              expression_lists = 0, variables = 0;
  problem first = problem::none;
  label who{};
};

/// Everything that is checked and sized from the types alone (values default).
template <class... Fns> consteval shape shape_of() {
  const writer w = write(Fns{}...);
  return {w.functions.size(),
          w.statements.size(),
          w.expressions.size(),
          w.statement_lists.size(),
          w.expression_lists.size(),
          w.variables.size(),
          w.first,
          label(w.who)};
}

/// One message per mistake; `Who` names the variable or function, for the reader of the
/// compiler's "required from" line.
template <problem P, label Who> struct well_formed {
  static_assert(P != problem::unbound_variable,
                "commscope::compile_time: a variable is used before it is bound (bind it "
                "earlier in the same function with let<\"name\">(...) or a loop)");
  static_assert(P != problem::unknown_function,
                "commscope::compile_time: call<\"name\"> names a function the program does "
                "not have (declare it in program(...), or write unknown_call<\"name\">(...) "
                "to test the malformed-op diagnostic)");
  static_assert(P != problem::duplicate_function,
                "commscope::compile_time: two functions of the program share a name");
  static constexpr bool value = P == problem::none;
};

/// The capacity of a program's type: a power of two, at least 32, holding every list
/// (each expression and statement is listed at most once; each variable is bound by a
/// statement) and N / 8 functions.
constexpr std::size_t bucket(const shape& s) {
  std::size_t n = 32;
  while (n < s.statements || n < s.expressions || n < 8 * s.functions)
    n *= 2;
  return n;
}

template <class T> constexpr void copy(const std::vector<T>& from, auto& to) {
  for (std::size_t i = 0; i < from.size(); ++i)
    to[i] = from[i];
}

} // namespace detail

// ---- the language ----------------------------------------------------------------------

template <name N> inline constexpr detail::use_t<N> use{};

/// A recognized operation with its arity checked.
template <operation Op, class... A> constexpr auto op(const A&... a) {
  detail::check_arity<Op, sizeof...(A)>();
  return detail::op_t<Op, detail::expression_t<A>...>{{}, {detail::as_expression(a)...}};
}
/// A recognized operation with any number of arguments: for malformed-op tests.
template <operation Op, class... A> constexpr auto malformed(const A&... a) {
  return detail::op_t<Op, detail::expression_t<A>...>{{}, {detail::as_expression(a)...}};
}

constexpr auto alloc(const auto& size) { return op<operation::alloc_window_buffer>(size); }
/// `window(ptr, 256)`: the shape does not matter to the pass.
constexpr auto window(const auto& ptr) { return op<operation::window>(ptr, 256); }
constexpr auto world_size() { return op<operation::world_size>(); }
constexpr auto allreduce(const auto&... a) { return op<operation::allreduce>(a...); }
constexpr auto broadcast(const auto&... a) { return op<operation::broadcast>(a...); }
constexpr auto reduce_scatter(const auto&... a) { return op<operation::reduce_scatter>(a...); }
constexpr auto barrier(const auto&... a) { return op<operation::barrier>(a...); }
constexpr auto allgather(const auto&... a) { return op<operation::allgather>(a...); }
constexpr auto all_to_all(const auto&... a) { return op<operation::all_to_all>(a...); }
constexpr auto all_to_all_v(const auto&... a) { return op<operation::all_to_all_v>(a...); }

/// `self.callee(args...)`; the callee must be a function of the program.
template <name Callee, class... A> constexpr auto call(const A&... a) {
  return detail::call_t<Callee, detail::expression_t<A>...>{{detail::as_expression(a)...}};
}
/// A call of a function the program deliberately does not have.
template <name Callee, class... A> constexpr auto unknown_call(const A&... a) {
  return detail::unknown_call_t<Callee, detail::expression_t<A>...>{{detail::as_expression(a)...}};
}
/// `device=` on a call of a program function.
template <class Call, class Device> constexpr auto on(const Call& c, const Device& device) {
  static_assert(detail::is_function_call<Call>,
                "commscope::compile_time: device= goes on a call of a program function "
                "(call<\"name\">(...)), not on an operation, a variable or a constant");
  if constexpr (detail::is_function_call<Call>)
    return detail::on_t<Call, detail::expression_t<Device>>{c, detail::as_expression(device)};
  else
    return detail::lit{}; // one error, no cascade
}
/// Any other expression, whose operands the pass still visits.
template <class... A> constexpr auto opaque(const A&... a) {
  return detail::opaque_t<detail::expression_t<A>...>{{detail::as_expression(a)...}};
}

/// `x - c`.
template <class A> constexpr auto minus(const A& x, std::int64_t c) {
  return detail::minus_t<detail::expression_t<A>>{detail::as_expression(x), c};
}

template <name N, class E> constexpr auto let(const E& value) {
  return detail::let_t<N, detail::expression_t<E>>{detail::as_expression(value)};
}
template <class E> constexpr auto eval(const E& value) {
  return detail::eval_t<detail::expression_t<E>>{detail::as_expression(value)};
}
/// `self.callee(args..., device=device)` as a statement.
template <class Call, class Device> constexpr auto dispatch(const Call& c, const Device& device) {
  return eval(on(c, device));
}

/// `for_range<"r">(start, stop, step)(body...)`; also (stop) and (start, stop).
template <name V, class Start, class Stop, class Step>
constexpr auto for_range(const Start& start, const Stop& stop, const Step& step) {
  return detail::for_header<V, detail::expression_t<Start>, detail::expression_t<Stop>,
                            detail::expression_t<Step>>{
      detail::as_expression(start), detail::as_expression(stop), detail::as_expression(step)};
}
template <name V, class Start, class Stop>
constexpr auto for_range(const Start& start, const Stop& stop) {
  return for_range<V>(start, stop, 1);
}
template <name V, class Stop> constexpr auto for_range(const Stop& stop) {
  return for_range<V>(0, stop, 1);
}
/// `for v in range(world_size()): body...`
template <name V, class... Body> constexpr auto for_world(const Body&... body) {
  return for_range<V>(0, world_size(), 1)(body...);
}
template <class Cond> constexpr auto while_loop(const Cond& c) {
  return detail::block_header<statement_kind::while_loop, detail::expression_t<Cond>>{
      detail::as_expression(c)};
}
/// `if cond: body...`; `branch(c)(then...).otherwise(else...)` for `if c: ... else: ...`
/// (an elif is a branch alone in an otherwise).
template <class Cond> constexpr auto branch(const Cond& c) {
  return detail::block_header<statement_kind::other, detail::expression_t<Cond>>{
      detail::as_expression(c)};
}
/// `break` (or `continue`) of the innermost loop.
constexpr auto jump() { return detail::jump_t{}; }

template <name N> constexpr auto chip_orchestrator() {
  return detail::declared_t<N>{level::chip, true, false};
}
/// Any other function (a kernel, a graph, a host helper), callable but never a dispatch
/// target unless it is a chip orchestrator.
template <name N> constexpr auto declare(commscope::level lv, bool orchestrator, bool graph) {
  return detail::declared_t<N>{lv, orchestrator, graph};
}
template <name N, class... S> constexpr auto host_orchestrator(const S&... body) {
  detail::check_statements<S...>();
  return detail::host_t<N, S...>{{body...}};
}

/// The program, checked and laid out. Usable in constant evaluation and at run time.
template <class... Fns> constexpr auto program(const Fns&... fns) {
  static_assert((detail::function_form<Fns> && ...),
                "commscope::compile_time: program(...) takes functions: "
                "chip_orchestrator<\"f\">(), declare<\"f\">(...), host_orchestrator<\"h\">(...)");
  constexpr detail::shape s = detail::shape_of<Fns...>();
  [[maybe_unused]] constexpr bool checked = detail::well_formed<s.first, s.who>::value;
  using result = basic_program<detail::bucket(s)>;
  result p;
  if constexpr (s.first == detail::problem::none) {
    const detail::writer w = detail::write(fns...);
    p.function_count = static_cast<std::uint32_t>(w.functions.size());
    p.variable_count = static_cast<std::uint32_t>(w.variables.size());
    detail::copy(w.functions, p.functions);
    detail::copy(w.statements, p.statements);
    detail::copy(w.expressions, p.expressions);
    detail::copy(w.statement_lists, p.statement_lists);
    detail::copy(w.expression_lists, p.expression_lists);
    detail::copy(w.variables, p.variables);
  }
  return p;
}

} // namespace commscope::compile_time
