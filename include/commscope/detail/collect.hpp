// Steps 1-3 of docs/semantics.md, as one walk of a host orchestrator's body (walk.hpp):
// bindings, allocations, windows, dispatches, collectives and loops, each stamped with
// its position in the walk (pre-order: a statement before its expressions, before its
// children), which is source order whatever the IR's locations look like. Every variable
// a call or a loop reads is recorded as the definition that reaches it there
// (variables.hpp).
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/detail/coverage.hpp>
#include <commscope/detail/hash_index.hpp>
#include <commscope/detail/operations.hpp>
#include <commscope/detail/segmented.hpp>
#include <commscope/detail/variables.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/detail/walk.hpp>
#include <commscope/plan.hpp>

#include <algorithm>
#include <cstdint>
#include <ranges>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::detail {

/// The number of elements of a range an adapter returned (any input range; a sized one
/// answers without being walked).
template <class Range> constexpr std::size_t count_of(Range&& r) {
  if constexpr (std::ranges::sized_range<Range>)
    return static_cast<std::size_t>(std::ranges::size(r));
  std::size_t n = 0;
  for (auto it = std::ranges::begin(r); it != std::ranges::end(r); ++it)
    ++n;
  return n;
}

/// A call's i-th positional argument; the caller has checked the arity.
template <class Adapter>
constexpr typename Adapter::expression
nth_argument(const Adapter& a, typename Adapter::expression call, std::size_t i) {
  auto&& args = a.arguments(call);
  auto it = std::ranges::begin(args);
  for (; i > 0; --i)
    ++it;
  return *it;
}

/// A position of the walk (collector), counted from the function's first statement. Four
/// bytes in every site rather than eight: a function has fewer positions than that, and
/// the walk reports one that has more (reason::function_too_large).
using position = std::uint32_t;
inline constexpr std::uint64_t max_position = 0xffffffffu;

/// How a loop bound is kept (operand_site::def).
enum class operand_form : std::uint8_t {
  expression,    ///< the definition of the variable it names (no_index: none)
  small_integer, ///< an integer in [0, no_index): its value
  wide_integer,  ///< any other integer: its index in function_facts::wide_integers
};

/// A loop bound: an integer, or an expression and the definition of the variable it
/// names. With 4-byte handles it takes 12 bytes where an int64 beside them took 24: a
/// loop holds three, and the loops are held to the end of the dispatches' inference,
/// at the analysis' peak.
template <class Adapter> struct operand_site {
  typename Adapter::expression expression{};
  std::uint32_t def = no_index;
  operand_form form = operand_form::expression;
};

/// What a dispatch's device= expression is, judged while the walk has it in cache:
/// inferring devices after the walk then reads the IR only for a literal outside
/// [0, 2^32 - 1) (re-reading every device expression was the analysis' largest cache
/// miss).
enum class device_form : std::uint8_t {
  other,         ///< neither a literal nor a variable: unsupported-device
  variable,      ///< device_def is the definition it reads
  small_integer, ///< a literal in [0, no_index): device_def is its value
  integer,       ///< any other literal: read again from the call's device=
  /// No dispatch: a device= call of a function the program does not have, reported
  /// where it was met; its arguments only spare their allocations the cascade.
  reported,
};

/// The device= expression is not kept (8 bytes of every dispatch): only a literal outside
/// [0, no_index), which is an error, needs it again.
template <class Adapter> struct dispatch_site {
  typename Adapter::expression call{};
  /// The definition it reads (device_form::variable) or its value (small_integer).
  std::uint32_t device_def = no_index;
  /// Its arguments follow the previous dispatch's in function_facts::dispatch_arguments:
  /// read in order, they need no index (with 4-byte handles the site is then 24 bytes).
  std::uint32_t argument_count = 0;
  /// In what was padding: the site stays its size.
  device_form form = device_form::other;
  /// Runs whenever the function does: no branch, loop or earlier jump or return may
  /// skip it (the smallest world, devices.hpp, counts only such dispatches).
  bool surely_runs = false;
  /// The callee's name and location are read again on error.
  position order = 0;
};

template <class Adapter> struct loop_site {
  loop_bounds<operand_site<Adapter>> bounds{}; ///< for loops only
  bool counted = false;    ///< a for loop (else bounds is empty); in the bounds' padding
  position begin = 0;      ///< walk positions strictly inside the loop: (begin, end)
  position end = 0;
  typename Adapter::location where{}; ///< for notes and evidence
};

/// A use the pass cannot follow (docs/semantics.md, "Every use of a view is followed or
/// refused"): an expression that may do anything with its operands. Judged once the views
/// are known: it is `view-escapes` when its operands may hold a view or a window pointer.
template <class Adapter> struct escape_site {
  typename Adapter::expression use{};
  std::string_view name; ///< the callee or operation
  position order = 0;
  /// A definition derived from every variable among its operands (variables.hpp).
  std::uint32_t def = no_index;
  bool call = false; ///< a call of a function: the fix is to inline it
  /// A dispatch's keyword arguments: a dispatch gives its devices to its positional
  /// arguments only.
  bool keyword = false;
  /// A window that is no assignment's whole value: a view the rewrite cannot type, since
  /// it types a view through its variable. `def` is what its pointer may name.
  bool window = false;
  /// A call of a function whose body the program does not have: no inlining it.
  bool external = false;
  /// A value returned to callers the pass does not follow (returns_to_callers); `name`
  /// is the function's, and the diagnostic points at the return statement (an IR need not
  /// locate a returned variable).
  bool returned = false;
  typename Adapter::statement statement{};
};

/// What the walk records of an allocation: what its plan record needs from the IR, read
/// while the walk has the statement and its call in cache (re-reading them after the
/// walk missed the cache on every allocation), and its name's hash (duplicate names are
/// found by it; hashed after the walk, every name missed the cache and the TLB). The
/// plan's (larger) records are built once the count is known, not moved on every growth.
/// In this order, with 32 bits of the hash, 8-byte handles leave no padding.
template <class Adapter> struct allocation_site {
  std::string_view name;
  typename Adapter::statement statement{};
  typename Adapter::variable base{};
  typename Adapter::expression size{};
  typename Adapter::location where{}; ///< the assignment's
  /// The assignment's; once the analysis keeps positions apart, the index of the
  /// allocation's devices in its pool (function_analysis, devices_of).
  position order = 0;
  std::uint32_t name_hash = 0; ///< hash_of(name), its low half
};

/// A window: until the views are bound (function_analysis, bind_views) `allocation` holds
/// the definition of the window's pointer and `next` the window's own definition; then
/// the views' allocation and no_index. The plan's view adds the assignment's variable,
/// read again from the statement once the views are made, with the plan's records: kept
/// here, it took 8 bytes of every window at the walk's end, the analysis' peak.
template <class Adapter> struct window_site {
  typename Adapter::statement statement{};
  std::uint32_t allocation = no_index;
  std::uint32_t next = no_index;
};

template <class Adapter> struct function_facts {
  /// Allocations, dispatches, loops and arguments grow in segments (segmented.hpp): a
  /// vector's doubling held up to twice what they need at the walk's end, the analysis'
  /// peak. Windows become the views in place; collectives are few, and segmented they
  /// cost about 3 KB of -O2 code in every pass TU.
  segmented<allocation_site<Adapter>> allocations;
  vec<window_site<Adapter>> windows;
  segmented<dispatch_site<Adapter>> dispatches;
  vec<collective_site> collectives;                  ///< coverage.hpp
  vec<typename Adapter::location> collective_wheres; ///< per collective
  segmented<loop_site<Adapter>> loops;
  vec<escape_site<Adapter>> escapes;
  /// The definitions of the positional arguments of collectives and, apart, of dispatches
  /// (no_index for an argument that is no variable); once resolved, the may-sets of views
  /// they hold (variables.hpp, view_of).
  segmented<std::uint32_t> arguments;
  segmented<std::uint32_t> dispatch_arguments;
  vec<std::int64_t> wide_integers; ///< loop bounds outside [0, no_index) (operand_site)
  vec<diagnostic<typename Adapter::location>> diagnostics;
  /// A scope statement was met: the function was materialized before (docs/semantics.md,
  /// "Output invariants": the pass does not wrap a body twice), so its plan is read back
  /// instead.
  bool saw_scope = false;
  /// The position of the first jump or return: no dispatch after it surely runs.
  std::uint64_t first_jump = UINT64_MAX;

  constexpr void clear() {
    saw_scope = false;
    first_jump = UINT64_MAX;
    allocations.clear();
    windows.clear();
    dispatches.clear();
    collectives.clear();
    collective_wheres.clear();
    loops.clear();
    escapes.clear();
    arguments.clear();
    dispatch_arguments.clear();
    wide_integers.clear();
    diagnostics.clear();
  }
  /// The walk is over: the room beyond the sizes of what grows with the program is
  /// given back before the analysis adds its per-allocation tables (the arrays' copies
  /// are smaller than those tables: not a new peak).
  constexpr void trim() {
    allocations.trim();
    dispatches.trim();
    loops.trim();
    collectives.shrink_to_fit();
    collective_wheres.shrink_to_fit();
    arguments.trim();
    dispatch_arguments.trim();
  }
};

/// Positions (`order`) number the walk's events in pre-order: statements, calls and loop
/// ends. Other expressions get none: only the relative order of events is ever compared.
/// They count on from the counter the caller passes, 0 for a function's own numbering
/// (what the sites keep: position).
template <class Adapter> class collector {
  using statement = typename Adapter::statement;
  using expression = typename Adapter::expression;
  using variable = typename Adapter::variable;
  static constexpr bool symbolic = Adapter::symbolic;

public:
  constexpr collector(const Adapter& a, variable_table<Adapter>& vars, function_facts<Adapter>& out,
                      std::uint64_t& order)
      : a_(a), vars_(vars), out_(out), order_(order) {}

  constexpr void run(typename Adapter::function f) {
    // Windows sized up front from a cheap estimate, so that a long body's are not moved
    // on every growth: in a valid program each allocation takes at least three
    // statements (its own, its view's, a dispatch), and has about one view. An estimate
    // too low costs one growth; one too high, memory unused. (Allocations, dispatches
    // and loops grow in segments, never moved.)
    out_.windows.reserve(count_of(a_.body(f)) / 3);
    returns_ = a_.returns_to_callers(f);
    if (returns_)
      returns_to_ = a_.describe(f).name;
    walker_.run(a_, a_.body(f), *this);
    // More positions than the sites keep: the later sites hold wrong ones, so the
    // function is reported (at its first statement), never analyzed on them quietly.
    if (order_ > max_position) [[unlikely]] {
      auto&& body = a_.body(f);
      report(out_.diagnostics, error_code::malformed_op, reason::function_too_large,
             a_.describe(f).name, a_.location_of(*std::ranges::begin(body)), 0);
    }
  }

  /// The walk's events.
  constexpr bool enter(statement s) {
    const std::uint64_t at = ++order_;
    const statement_kind k = a_.statement_kind_of(s);
    alternatives_ = false;
    if constexpr (Adapter::has_run_ends)
      if (a_.may_end_run(s))
        out_.first_jump = std::min(out_.first_jump, at);
    switch (k) {
    case statement_kind::assignment:
      assign(s, at);
      return false;
    case statement_kind::evaluation:
      walk(a_.value(s));
      return false;
    case statement_kind::jump:
      out_.first_jump = std::min(out_.first_jump, at);
      // What it evaluates on its way out (a raise's exception) runs before it jumps.
      for (auto&& e : a_.expressions(s)) {
        walk(e);
      }
      vars_.jump();
      return false;
    case statement_kind::for_loop: {
      const auto b = a_.loop_bounds(s);
      const auto idx = static_cast<std::uint32_t>(out_.loops.size());
      out_.loops.emplace_back(
          loop_site<Adapter>{{operand(b.start), operand(b.stop), operand(b.step)},
                             true,
                             narrow(order_),
                             0,
                             a_.location_of(s)});
      carried(s);
      open(control_flow::repeat, idx);
      vars_.bind(vars_.id(a_.loop_variable(s)), {binding::kind::loop, idx, 0}, false);
      return true;
    }
    case statement_kind::while_loop: {
      const auto idx = static_cast<std::uint32_t>(out_.loops.size());
      out_.loops.emplace_back(loop_site<Adapter>{{}, false, narrow(order_), 0, a_.location_of(s)});
      carried(s);
      open(control_flow::repeat, idx);
      // The condition runs before every iteration and after the last: inside the loop.
      for (auto&& e : a_.expressions(s)) {
        walk(e);
      }
      return true;
    }
    case statement_kind::return_:
      out_.first_jump = std::min(out_.first_jump, at);
      if (returns_) [[unlikely]]
        returned(s, at);
      break;
    case statement_kind::scope:
      if constexpr (Adapter::has_readers)
        out_.saw_scope = true;
      break;
    case statement_kind::other:
      break;
    }
    for (auto&& e : a_.expressions(s)) {
      walk(e);
    }
    // What such a statement binds (`with ... as x`, `for x in items`, an op's results)
    // may be (part of) any view its expressions hold, unless its children bind it again
    // (a yield).
    if (has_targets(s)) {
      const auto mark = leaves_.size();
      for (auto&& e : a_.expressions(s)) {
        leaves_.emplace_back(derived_of(e));
      }
      const auto from = derive_leaves(mark);
      for (auto&& t : a_.targets(s))
        vars_.bind(vars_.id(variable(t)), derived_binding(from));
    }
    const control_flow how = a_.control_of(s);
    if (how == control_flow::repeat) { // a loop of another kind (`for x in items`)
      const auto idx = static_cast<std::uint32_t>(out_.loops.size());
      out_.loops.emplace_back(loop_site<Adapter>{{}, false, narrow(order_), 0, a_.location_of(s)});
      open(how, idx);
    } else {
      open(how, no_index);
    }
    alternatives_ = how == control_flow::alternatives;
    return true;
  }

  /// Whether the statement just entered has alternatives (its children are branches).
  [[nodiscard]] constexpr bool entered_alternatives() const { return alternatives_; }
  /// The next branch of an alternatives statement begins.
  constexpr void branch(statement) { vars_.branch(); }

  constexpr void leave(statement) {
    const auto loop = open_.back();
    open_.pop_back();
    guarded_ -= open_guarded_.back();
    open_guarded_.pop_back();
    if (loop != no_index) {
      out_.loops[loop].end = narrow(++order_);
      open_loops_.pop_back();
    }
    vars_.close();
  }

private:
  constexpr void open(control_flow how, std::uint32_t idx) {
    open_.emplace_back(idx);
    open_guarded_.emplace_back(how != control_flow::block);
    guarded_ += open_guarded_.back();
    if (idx != no_index)
      open_loops_.emplace_back(idx);
    vars_.open(how);
  }

  /// A loop's carried variables, bound to their entry values before the first iteration.
  /// Without one value per variable (`init_values=init`, a name for the tuple), each may
  /// hold any view among the values: left unbound, a view they carry would go unseen.
  constexpr void carried(statement s) {
    if constexpr (Adapter::has_parallel_values)
      if (!parallel(s)) {
        const auto mark = leaves_.size();
        for (auto&& e : a_.values(s)) {
          walk(expression(e));
          leaves_.emplace_back(derived_of(expression(e)));
        }
        const auto from = derive_leaves(mark);
        for (auto&& t : a_.targets(s))
          vars_.bind(vars_.id(variable(t)), derived_binding(from));
      }
  }

  /// Binds each target of s to its own value (values(s)), all values read first; false,
  /// binding and reading nothing, when s has no values or not one per target.
  constexpr bool parallel(statement s) {
    const auto n = count_of(a_.values(s));
    if (n == 0 || n != count_of(a_.targets(s)))
      return false;
    const auto mark = pending_.size();
    for (auto&& e : a_.values(s))
      pending_.emplace_back(value_binding(expression(e)));
    auto b = mark;
    for (auto&& t : a_.targets(s))
      vars_.bind(vars_.id(variable(t)), pending_[b++]);
    pending_.resize(mark);
    return true;
  }

  /// What a variable bound to e alone (not as the whole value of its assignment) is bound
  /// to: a copy, a constant, world_size() or a collective's result; an allocation or a
  /// window there is no direct assignment.
  constexpr binding value_binding(expression e) {
    switch (a_.expression_kind_of(e)) {
    case expression_kind::variable:
      return {binding::kind::copy, read_variable(e), 0};
    case expression_kind::integer:
      return {binding::kind::integer, no_index, a_.integer_value(e)};
    case expression_kind::call: {
      walk_operands(e, visit(e));
      const call_target t = a_.call_target_of(e);
      if (t.what != call_target::kind::operation || t.op == operation::none)
        return derived_result(e);
      const auto& r = row(t.op);
      const std::size_t n = count_of(a_.arguments(e));
      if (n < r.min_arity || n > r.max_arity)
        return {binding::kind::opaque};
      if (t.op == operation::world_size)
        return {binding::kind::world_size};
      if (r.result_through != none_arg) {
        const expression through = nth_argument(a_, e, r.result_through);
        if (a_.expression_kind_of(through) == expression_kind::variable)
          return {binding::kind::collective_result, read_variable(through), 0};
        // `allreduce(grad[0:h])`: the result is (part of) what the argument may hold.
        return derived_result(through);
      }
      return {binding::kind::opaque};
    }
    case expression_kind::other:
      walk(e);
      return derived_result(e);
    }
    return {binding::kind::opaque};
  }

  /// A binding to def, derived (opaque for none).
  static constexpr binding derived_binding(std::uint32_t def) {
    if (def == no_index)
      return {binding::kind::opaque};
    return {binding::kind::derived, def, static_cast<std::int64_t>(no_index)};
  }

  /// The binding of a variable to e, which is no recognized operation: derived from the
  /// operands its value may hold views of (gather), opaque when none may (a reported
  /// call's result, an escape's without receivers, a dispatch's that returns none).
  constexpr binding derived_result(expression e) { return derived_binding(derived_of(e)); }

  /// Whether s binds anything.
  constexpr bool has_targets(statement s) const {
    auto&& targets = a_.targets(s);
    return std::ranges::begin(targets) != std::ranges::end(targets);
  }

  /// The definition of what e may hold of the views and window pointers among the
  /// variables it reads, through derived expressions (no_index: none): a variable's own
  /// definition, or one derived from several. Reads each variable as a use here.
  constexpr std::uint32_t derived_of(expression e) {
    switch (a_.expression_kind_of(e)) {
    case expression_kind::variable:
      return read_variable(e);
    case expression_kind::integer:
      return no_index;
    default:
      break;
    }
    const auto mark = leaves_.size();
    gather(e);
    if (leaves_.size() - mark != 1)
      return derive_leaves(mark);
    const auto d = leaves_[mark]; // one variable: its own definition
    leaves_.resize(mark);
    return d;
  }

  /// One definition derived from the leaves stacked since `mark`, which it pops
  /// (no_index: none).
  constexpr std::uint32_t derive_leaves(std::size_t mark) {
    const auto d = vars_.derive(leaves_.data() + mark, leaves_.size() - mark);
    leaves_.resize(mark);
    return d;
  }

  /// One definition derived from what e's operands after the first `skip` may hold.
  constexpr std::uint32_t derived_of_operands(expression e, std::size_t skip) {
    const auto mark = leaves_.size();
    for_each_in<expression>(a_.subexpressions(e), [&](expression sub) {
      if (skip > 0)
        --skip;
      else
        leaves_.emplace_back(derived_of(sub));
    });
    return derive_leaves(mark);
  }

  /// Appends to leaves_ the definitions of the variables whose views e may hold: its own
  /// when it is a variable, its operands' when it is derived (an expression without
  /// effects, a collective's result through its argument, a dispatch's through what the
  /// chip function may return), an escaping call's receivers', none for any other call (a
  /// reported one). On an explicit stack.
  constexpr void gather(expression root) {
    const auto base = gather_stack_.size();
    gather_stack_.emplace_back(root);
    while (gather_stack_.size() > base) {
      const expression e = gather_stack_.back();
      gather_stack_.pop_back();
      switch (a_.expression_kind_of(e)) {
      case expression_kind::variable:
        if (const auto d = read_variable(e); d != no_index)
          leaves_.emplace_back(d);
        continue;
      case expression_kind::integer:
        continue;
      case expression_kind::call: {
        const call_target t = a_.call_target_of(e);
        if (t.what == call_target::kind::operation && t.op != operation::none) {
          const auto& r = row(t.op);
          const std::size_t n = count_of(a_.arguments(e));
          if (r.result_through != none_arg && n >= r.min_arity && n <= r.max_arity)
            gather_stack_.emplace_back(nth_argument(a_, e, r.result_through));
          continue;
        }
        push_derived(e, t.what == call_target::kind::function && t.callee.is_chip_orchestrator()
                            ? a_.returned_operands(e)
                            : first_operands(derived_operands(e, t)));
        continue;
      }
      case expression_kind::other:
        push_derived(e, first_operands(derived_operands(e, call_target{})));
        continue;
      }
    }
  }

  /// Stacks the operands of e that `mask` selects, bit k for the k-th, bit 63 for the
  /// 63rd and every later one (gather).
  constexpr void push_derived(expression e, std::uint64_t mask) {
    std::uint32_t k = 0;
    for_each_in<expression>(a_.subexpressions(e), [&](expression sub) {
      if ((mask >> std::min<std::uint32_t>(k++, 63)) & 1)
        gather_stack_.emplace_back(sub);
    });
  }
  /// The mask of the first n operands.
  static constexpr std::uint64_t first_operands(std::uint32_t n) {
    return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  }

  /// How many of the first operands of e (no recognized operation) its value may hold
  /// views of: all for a derived expression, the receivers of an escaping call, none for
  /// a dispatch or a reported call.
  constexpr std::uint32_t derived_operands(expression e, const call_target& t) const {
    if (a_.expression_kind_of(e) == expression_kind::call &&
        (t.what == call_target::kind::unresolved_function ||
         (t.what == call_target::kind::function && t.callee.is_chip_orchestrator())))
      return 0;
    const auto f = a_.flow_of(e, t);
    switch (f.what) {
    case operand_flow::escapes:
      return f.receivers;
    case operand_flow::independent:
      return 0;
    default:
      return UINT32_MAX;
    }
  }

  /// The definition reaching a variable expression here, or no_index.
  constexpr std::uint32_t read(expression e) {
    if (a_.expression_kind_of(e) != expression_kind::variable)
      return no_index;
    return read_variable(e);
  }
  /// read(e) for an e known to be a variable expression.
  constexpr std::uint32_t read_variable(expression e) {
    return vars_.use(vars_.id(a_.variable_of(e)));
  }

  /// A loop bound as seen here: its calls are visited, its variable read (for `y - C`,
  /// with symbolic sets: y's).
  constexpr operand_site<Adapter> operand(const bound_operand<expression>& b) {
    if (b.is_integer)
      return integer_operand(b.value, b.expression);
    walk(b.expression);
    // A literal is taken as its value while the walk has it in cache: judging the loop
    // after the walk then reads nothing of the IR (that read missed on every loop).
    if (a_.expression_kind_of(b.expression) == expression_kind::integer)
      return integer_operand(a_.integer_value(b.expression), b.expression);
    if constexpr (symbolic)
      if (a_.expression_kind_of(b.expression) == expression_kind::other)
        if (const auto d = a_.minus_constant(b.expression))
          return {b.expression, read(d->first), operand_form::expression};
    return {b.expression, read(b.expression), operand_form::expression};
  }
  constexpr operand_site<Adapter> integer_operand(std::int64_t v, expression e) {
    if (v >= 0 && v < no_index)
      return {e, static_cast<std::uint32_t>(v), operand_form::small_integer};
    out_.wide_integers.push_back(v);
    return {e, static_cast<std::uint32_t>(out_.wide_integers.size() - 1),
            operand_form::wide_integer};
  }

  /// `x = y - C` with y world_size() or a variable: a candidate stop of a partial-world
  /// loop (devices.hpp judges it); anything else is opaque.
  /// Out of line: symbolic adapters only, and rare there.
  [[gnu::noinline]] constexpr binding world_offset(expression e) {
    const auto d = a_.minus_constant(e);
    if (!d)
      return {binding::kind::opaque};
    switch (a_.expression_kind_of(d->first)) {
    case expression_kind::variable: {
      // ref no_index stands for world_size() itself: a y that nothing binds here (a
      // parameter) is no world size.
      const std::uint32_t y = read(d->first);
      if (y == no_index)
        return {binding::kind::opaque};
      return {binding::kind::world_offset, y, d->second};
    }
    case expression_kind::call: {
      const call_target t = a_.call_target_of(d->first);
      if (t.what == call_target::kind::operation && t.op == operation::world_size &&
          count_of(a_.arguments(d->first)) == 0)
        return {binding::kind::world_offset, no_index, d->second};
      return {binding::kind::opaque};
    }
    default:
      return {binding::kind::opaque};
    }
  }

  constexpr void assign(statement s, std::uint64_t at) {
    auto&& targets = a_.targets(s);
    auto it = std::ranges::begin(targets);
    const auto end = std::ranges::end(targets);
    if (it == end) { // binds nothing: an evaluation
      walk(a_.value(s));
      return;
    }
    const variable first = *it;
    const bool single = ++it == end;
    if constexpr (Adapter::has_parallel_values)
      if (!single && parallel(s))
        return;
    const expression e = a_.value(s);
    binding b{binding::kind::opaque};
    std::uint32_t window_pointer = no_index;
    bool window = false;
    // The value is read before the targets are bound: `x = f(x)` reads the old x.
    if (single) {
      switch (a_.expression_kind_of(e)) {
      case expression_kind::variable:
        b = {binding::kind::copy, read_variable(e), 0};
        break;
      case expression_kind::integer:
        b = {binding::kind::integer, no_index, a_.integer_value(e)};
        break;
      case expression_kind::call: {
        const bool conditional = call(e, &b, s, first, at, ++order_);
        window = b.what == binding::kind::window;
        window_pointer = b.ref;
        walk_operands(e, conditional);
        if (b.what == binding::kind::opaque) {
          const call_target t = a_.call_target_of(e);
          if (t.what != call_target::kind::operation || t.op == operation::none)
            b = derived_result(e);
        }
        break;
      }
      case expression_kind::other:
        walk(e);
        if constexpr (symbolic)
          b = world_offset(e);
        if (b.what == binding::kind::opaque)
          b = derived_result(e);
        break;
      }
    } else {
      walk(e);
      // `a, b = pair`: each target may be (part of) any view the value holds.
      const auto from = derived_binding(derived_of(e));
      vars_.bind(vars_.id(first), from);
      for (; it != end; ++it)
        vars_.bind(vars_.id(*it), from);
      return;
    }
    const auto def = vars_.bind(vars_.id(first), b);
    if (window)
      out_.windows.emplace_back(window_site<Adapter>{s, window_pointer, def});
  }

  /// The binding of `x = op(...)`, op recognized with a valid arity; records
  /// allocations. `at`: the assignment's position.
  constexpr binding bind_operation(statement s, variable target, expression e, operation op,
                                   const operation_row& r, std::uint64_t at) {
    switch (op) {
    case operation::alloc_window_buffer: {
      const auto idx = static_cast<std::uint32_t>(out_.allocations.size());
      const std::string_view name = a_.allocation_name(e);
      out_.allocations.emplace_back(
          allocation_site<Adapter>{name, s, target, nth_argument(a_, e, 0), a_.location_of(s),
                                   narrow(at), static_cast<std::uint32_t>(hash_of(name))});
      return {binding::kind::allocation, idx, 0};
    }
    case operation::window: {
      // A pointer written as an expression (`t[0]`, `a if c else b`) names what the
      // variables it reads may name. Not a view yet: the value keeps the position, for an
      // error found after the walk. A pointer that reads no variable bound here (a
      // parameter, a constant) names no allocation: that error too.
      const auto ptr = derived_of(nth_argument(a_, e, 0));
      return {binding::kind::window, ptr, -1 - static_cast<std::int64_t>(at)};
    }
    case operation::world_size:
      return {binding::kind::world_size};
    default:
      if (r.result_through != none_arg) {
        const expression through = nth_argument(a_, e, r.result_through);
        if (a_.expression_kind_of(through) == expression_kind::variable)
          return {binding::kind::collective_result, read_variable(through), 0};
        // `allreduce(grad[0:h])`: the result is (part of) what the argument may hold.
        return derived_result(through);
      }
      return {binding::kind::opaque};
    }
  }

  /// An expression that is no call and has no operands (a constant, a variable, a bare
  /// name) holds no call: it is neither stacked nor numbered.
  constexpr bool is_leaf(expression e) const {
    return a_.expression_kind_of(e) != expression_kind::call && no_elements(a_.subexpressions(e));
  }

  /// Visits an expression tree that is not the direct value of an assignment, finding
  /// every call.
  constexpr void walk(expression root) {
    if (is_leaf(root))
      return;
    walk_operands(root, visit(root));
  }

  /// An expression of a walk: calls have their checks; an expression that may do anything
  /// with its operands is an escape site. Returns whether its operands may not all be
  /// evaluated (a dispatch among them is guarded).
  constexpr bool visit(expression e) {
    if (a_.expression_kind_of(e) == expression_kind::call)
      return call(e, nullptr, statement{}, variable{}, 0, ++order_);
    const auto f = a_.flow_of(e);
    if (f.what == operand_flow::escapes)
      escape(e, f, ++order_);
    return f.what == operand_flow::conditional;
  }

  /// Visits the trees of e's operands, in pre-order, on an explicit stack; `guarded`:
  /// e's operands may not all be evaluated. A marker below a conditional expression's
  /// operands ends its guard when they are done.
  constexpr void walk_operands(expression e, bool guarded) {
    const auto base = exprs_.size();
    if (guarded) {
      ++guarded_;
      exprs_.emplace_back(e, true);
    }
    push_operands(e);
    while (exprs_.size() > base) {
      const auto [x, leaving] = exprs_.back();
      exprs_.pop_back();
      if (leaving) {
        --guarded_;
        continue;
      }
      if (visit(x)) {
        ++guarded_;
        exprs_.emplace_back(x, true);
      }
      push_operands(x);
    }
  }

  /// Stacks e's operands that are no leaves, the first on top.
  constexpr void push_operands(expression e) {
    const auto mark = exprs_.size();
    for_each_in<expression>(a_.subexpressions(e), [&](expression sub) {
      if (!is_leaf(sub))
        exprs_.emplace_back(sub, false);
    });
    if (exprs_.size() - mark > 1)
      std::reverse(exprs_.begin() + static_cast<std::ptrdiff_t>(mark), exprs_.end());
  }

  /// Records e, which may do anything with its operands, when they read any variable.
  constexpr void escape(expression e, const expression_flow& f, std::uint64_t at) {
    // What the call is made on (its receivers) is its result, not an escape.
    const auto d = derived_of_operands(e, f.receivers);
    if (d != no_index) {
      out_.escapes.emplace_back(escape_site<Adapter>{e, f.name, narrow(at), d, f.call});
      out_.escapes.back().external = f.call && f.external;
    }
  }

  /// The values a return hands to callers the pass does not follow: each that reads a
  /// variable is an escape, judged with the others.
  constexpr void returned(statement s, std::uint64_t at) {
    for (auto&& e : a_.expressions(s)) {
      const expression x(e);
      if (const auto d = derived_of(x); d != no_index) {
        out_.escapes.emplace_back(escape_site<Adapter>{x, returns_to_, narrow(at), d, false});
        out_.escapes.back().returned = true;
        out_.escapes.back().statement = s;
      }
    }
  }

  /// Records the definitions of a call's variable arguments in `to`; returns the first
  /// index. An argument that is no variable gives what it is derived from (a slice of a
  /// view, a tuple of views). `keywords`: the call is a dispatch (`callee`, with device=
  /// among its operands) or a collective (`device` false), whose other operands (keyword
  /// arguments, after the positional ones) may pass nothing the pass follows.
  constexpr std::uint32_t record_arguments(segmented<std::uint32_t>& to, expression e,
                                           std::uint32_t& count, bool keywords = false,
                                           std::string_view callee = {}, bool device = true) {
    const auto first = static_cast<std::uint32_t>(to.size());
    std::size_t positional = 0;
    for (auto&& arg : a_.arguments(e)) {
      const expression x(arg);
      to.emplace_back(a_.expression_kind_of(x) == expression_kind::variable ? read_variable(x)
                                                                            : derived_of(x));
      ++positional;
    }
    const std::size_t operands = keywords ? count_of(a_.subexpressions(e)) : 0;
    if (operands > positional + (device ? 1 : 0)) { // more than the arguments and device=
      // The keyword arguments; device= among them holds no view.
      const auto d = derived_of_operands(e, positional);
      if (d != no_index)
        out_.escapes.emplace_back(escape_site<Adapter>{e, callee, narrow(order_), d, true, true});
    }
    count = static_cast<std::uint32_t>(to.size()) - first;
    return first;
  }

  /// A call's own checks and records. `bound`: set when e is the whole value of a
  /// single-target assignment `s` at position `at_assignment` (where an allocation
  /// belongs): receives the target's binding (left opaque unless e is a recognized
  /// operation with a valid arity). `at`: the call's own position. Returns whether its
  /// operands may not all be evaluated (operand_flow::conditional).
  constexpr bool call(expression e, binding* bound, statement s, variable target,
                      std::uint64_t at_assignment, std::uint64_t at) {
    const call_target t = a_.call_target_of(e);
    switch (t.what) {
    case call_target::kind::unresolved_function:
      report(out_.diagnostics, error_code::malformed_op, reason::unknown_callee, t.callee.name,
             a_.location_of(e), at);
      if (a_.device_of(e)) { // meant as a dispatch: its views are not reported again
        dispatch_site<Adapter> site{e, no_index, 0, device_form::reported, false, narrow(at)};
        record_arguments(out_.dispatch_arguments, e, site.argument_count);
        out_.dispatches.emplace_back(site);
      }
      return false;
    case call_target::kind::function:
      if (!t.callee.is_chip_orchestrator()) // a helper: the pass does not follow calls
        return flow_of_call(e, t, at);
      if (auto d = a_.device_of(e)) {
        dispatch_site<Adapter> site{e, no_index, 0, device_form::other, false, narrow(at)};
        switch (a_.expression_kind_of(*d)) {
        case expression_kind::integer:
          if (const std::int64_t v = a_.integer_value(*d); v >= 0 && v < no_index) {
            site.form = device_form::small_integer;
            site.device_def = static_cast<std::uint32_t>(v);
          } else {
            site.form = device_form::integer;
          }
          break;
        case expression_kind::variable:
          site.form = device_form::variable;
          site.device_def = read_variable(*d);
          break;
        default:
          break;
        }
        site.surely_runs = guarded_ == 0 && out_.first_jump == UINT64_MAX;
        record_arguments(out_.dispatch_arguments, e, site.argument_count, true, t.callee.name);
        out_.dispatches.emplace_back(site);
      }
      return false;
    case call_target::kind::operation:
      break;
    }
    if (t.op == operation::none)
      return flow_of_call(e, t, at);
    const auto& r = row(t.op);
    const std::size_t n = count_of(a_.arguments(e));
    const bool arity_ok = n >= r.min_arity && n <= r.max_arity;
    if (r.collective) { // arity is judged with the collective's other checks
      collective_site site{t.op, narrow(at), open_loops_.empty() ? no_index : open_loops_.back(), 0,
                           0};
      // A view by keyword (`allreduce(data, signal=sig)`) is none of its roles.
      site.first_argument =
          record_arguments(out_.arguments, e, site.argument_count, true, r.name, false);
      out_.collectives.emplace_back(site);
      out_.collective_wheres.emplace_back(a_.location_of(e));
    } else if (!arity_ok) {
      // The bound it misses: `window(ptr, shape=...)` takes 2, not the 3 it may take.
      report(out_.diagnostics, error_code::malformed_op, reason::wrong_arity, r.name,
             a_.location_of(e), at)
          .with_arity(static_cast<std::int64_t>(n), n < r.min_arity ? r.min_arity : r.max_arity);
    } else if (!bound && t.op == operation::alloc_window_buffer) {
      report(out_.diagnostics, error_code::malformed_op, reason::alloc_not_assigned,
             a_.allocation_name(e), a_.location_of(e), at);
    } else if (!bound && t.op == operation::window) {
      // Its allocation is known only once the walk is over: judged with the escapes.
      if (const auto d = derived_of(nth_argument(a_, e, 0)); d != no_index)
        out_.escapes.emplace_back(
            escape_site<Adapter>{e, r.name, narrow(at), d, false, false, true});
    }
    if (bound && arity_ok)
      *bound = bind_operation(s, target, e, t.op, r, at_assignment);
    return false;
  }

  /// A call the pass does not recognize: an escape site unless the adapter says it is
  /// derived; whether it is conditional.
  constexpr bool flow_of_call(expression e, const call_target& t, std::uint64_t at) {
    const auto f = a_.flow_of(e, t);
    if (f.what == operand_flow::escapes)
      escape(e, f, at);
    return f.what == operand_flow::conditional;
  }

  /// A position as the sites keep it; past max_position the walk is reported (run).
  [[nodiscard]] static constexpr position narrow(std::uint64_t at) {
    return static_cast<position>(at);
  }

  const Adapter& a_;
  variable_table<Adapter>& vars_;
  function_facts<Adapter>& out_;
  std::uint64_t& order_;
  statement_walker<Adapter> walker_;
  vec<plain_pair<expression, bool>> exprs_; ///< the walk's stack; true: a guard's end
  vec<expression> gather_stack_;
  vec<std::uint32_t> leaves_;      ///< derived_of's definitions, stacked
  vec<std::uint32_t> open_;        ///< per open statement: its loop index, or no_index
  vec<std::uint32_t> open_loops_;  ///< the loops open here, innermost last
  vec<std::uint8_t> open_guarded_; ///< per open statement: whether it may skip or repeat
  std::uint32_t guarded_ = 0;      ///< the open statements that may skip or repeat
  vec<binding> pending_;           ///< a parallel assignment's values, read before binding
  bool alternatives_ = false;      ///< the statement entered last has alternatives
  /// Whether the function's returned values reach callers the pass does not follow, and
  /// its name.
  bool returns_ = false;
  std::string_view returns_to_;
};

} // namespace commscope::detail
