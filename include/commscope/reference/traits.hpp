// The reference IR's adapter: an ordinary client of traits.hpp, nothing more.
#pragma once

#include <commscope/reference/ir.hpp>
#include <commscope/reference/rewrite.hpp>
#include <commscope/reference/signals.hpp>
#include <commscope/traits.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::reference {

/// Iterates one or two lists of node handles, yielding raw pointers (cheap handles).
template <class T> class pointer_range {
public:
  using element = node_ptr<const T>;
  class iterator {
  public:
    using value_type = const T*;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const element* p, const element* end1, const element* begin2)
        : p_(p), end1_(end1), begin2_(begin2) {}
    const T* operator*() const { return p_->get(); }
    iterator& operator++() {
      if (++p_ == end1_)
        p_ = begin2_;
      return *this;
    }
    iterator operator++(int) {
      auto t = *this;
      ++*this;
      return t;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.p_ == b.p_; }

  private:
    const element* p_ = nullptr;
    const element* end1_ = nullptr;
    const element* begin2_ = nullptr;
  };

  pointer_range() = default;
  explicit pointer_range(node_span<element> a, node_span<element> b = {}) : a_(a), b_(b) {}
  [[nodiscard]] iterator begin() const {
    if (!a_.empty()) // jump to b at a's end only when there is a b
      return {a_.data(), b_.empty() ? nullptr : a_.data() + a_.size(), b_.data()};
    return b_.empty() ? end() : iterator{b_.data(), nullptr, nullptr};
  }
  [[nodiscard]] std::size_t size() const { return a_.size() + b_.size(); }
  /// The k-th handle (k < size()): the walk reads a long body's children one at a time.
  [[nodiscard]] const T* operator[](std::size_t k) const {
    return k < a_.size() ? a_[k].get() : b_[k - a_.size()].get();
  }
  [[nodiscard]] iterator end() const {
    const element* e = b_.empty() ? a_.data() + a_.size() : b_.data() + b_.size();
    return {e, nullptr, nullptr};
  }

private:
  node_span<element> a_, b_;
};

/// A scope's progressions read in place from the triples the statement holds (start,
/// step, stop offset): no container, whose code every translation unit that verifies
/// or re-analyzes a materialized program would compile.
class progression_range {
public:
  class iterator {
  public:
    using value_type = device_progression;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(const std::int64_t* p) : p_(p) {}
    device_progression operator*() const { return {p_[0], p_[1], p_[2]}; }
    iterator& operator++() {
      p_ += 3;
      return *this;
    }
    iterator operator++(int) {
      auto t = *this;
      p_ += 3;
      return t;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.p_ == b.p_; }

  private:
    const std::int64_t* p_ = nullptr;
  };

  progression_range() = default;
  /// The whole triples of `t` (a trailing partial one is not a progression).
  explicit progression_range(node_span<std::int64_t> t) : p_(t.data()), n_(t.size() / 3) {}
  [[nodiscard]] iterator begin() const { return iterator(p_); }
  [[nodiscard]] iterator end() const { return iterator(p_ + 3 * n_); }
  [[nodiscard]] std::size_t size() const { return n_; }
  [[nodiscard]] bool empty() const { return n_ == 0; }

private:
  const std::int64_t* p_ = nullptr;
  std::size_t n_ = 0;
};

/// An expression's operands (base, positional arguments, keyword values) read in place:
/// the analysis asks for them at every node, so they are not copied into a container.
class operand_range {
public:
  class iterator {
  public:
    using value_type = const expression*;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const operand_range& r, std::size_t i)
        : base_(r.base_), args_(r.args_), keywords_(r.keywords_), arg_count_(r.arg_count_), i_(i) {}
    const expression* operator*() const {
      std::size_t i = i_;
      if (base_) {
        if (i == 0)
          return base_;
        --i;
      }
      if (i < arg_count_)
        return args_[i].get();
      return keywords_[i - arg_count_].value.get();
    }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      auto t = *this;
      ++*this;
      return t;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.i_ == b.i_; }

  private:
    const expression* base_ = nullptr;
    const expression_ptr* args_ = nullptr;
    const keyword_argument* keywords_ = nullptr;
    std::size_t arg_count_ = 0;
    std::size_t i_ = 0;
  };

  operand_range() = default;
  explicit operand_range(const expression* e) : base_(e->base().get()) {
    const auto args = e->args();
    const auto keywords = e->keywords();
    args_ = args.data();
    arg_count_ = args.size();
    keywords_ = keywords.data();
    n_ = (base_ ? 1 : 0) + args.size() + keywords.size();
  }
  [[nodiscard]] iterator begin() const { return {*this, 0}; }
  [[nodiscard]] iterator end() const { return {*this, n_}; }
  [[nodiscard]] std::size_t size() const { return n_; }

private:
  const expression* base_ = nullptr;
  const expression_ptr* args_ = nullptr;
  const keyword_argument* keywords_ = nullptr;
  std::size_t arg_count_ = 0;
  std::size_t n_ = 0;
};

} // namespace commscope::reference

template <> struct commscope::ir_traits<commscope::reference::program_ptr> {
  using program = reference::program_ptr;
  using function = const reference::function*;
  using statement = const reference::statement*;
  using expression = const reference::expression*;
  using variable = const reference::variable*;
  using location = reference::source_location;
  using window_buffer = const reference::window_buffer*;

  using stmt_kind = reference::statement::kind;
  using expr_kind = reference::expression::kind;

  // ---- program and functions
  static reference::pointer_range<reference::function> functions(const program& p) {
    return reference::pointer_range<reference::function>(
        reference::node_span<reference::function_ptr>(p->functions.data(), p->functions.size()));
  }
  static function_info describe(function f) { return f->sig->info(); }
  static bool returns_to_callers(function f) { return f->returns_to_callers; }
  static reference::pointer_range<reference::statement> body(function f) {
    return reference::pointer_range<reference::statement>(f->body.span());
  }

  // ---- statements
  static statement_kind statement_kind_of(statement s) {
    switch (s->what) {
    case stmt_kind::assign:
      return statement_kind::assignment;
    case stmt_kind::evaluate:
      return statement_kind::evaluation;
    case stmt_kind::for_loop:
      return statement_kind::for_loop;
    case stmt_kind::while_loop:
      return statement_kind::while_loop;
    case stmt_kind::scope:
      return statement_kind::scope;
    case stmt_kind::return_:
      return statement_kind::return_;
    case stmt_kind::verbatim:
      return s->is_jump() ? statement_kind::jump : statement_kind::other;
    default:
      return statement_kind::other;
    }
  }
  static location location_of(statement s) { return s->where; }
  static reference::pointer_range<reference::statement> children(statement s) {
    if (s->what == stmt_kind::block) // the binding of its targets first (ir.hpp)
      return reference::pointer_range<reference::statement>(s->binding(), s->body());
    return reference::pointer_range<reference::statement>(s->body(), s->orelse());
  }
  // An if's branches are alternatives (an elif is an if alone in its else); a block
  // runs as its flow says; a scope's body once.
  static control_flow control_of(statement s) {
    switch (s->what) {
    case stmt_kind::if_else:
      return control_flow::alternatives;
    case stmt_kind::block:
      return s->flow();
    default:
      return control_flow::block;
    }
  }
  static std::array<reference::pointer_range<reference::statement>, 2> branches(statement s) {
    return {reference::pointer_range<reference::statement>(s->body()),
            reference::pointer_range<reference::statement>(s->orelse())};
  }
  static reference::pointer_range<reference::variable> targets(statement s) {
    return reference::pointer_range<reference::variable>(s->targets());
  }
  /// A parallel assignment's elements (`a, b = b, a`; a closing `pl.yield_(...)` of the
  /// loop-carried targets); a for loop's init_values. Empty for any other statement.
  static reference::pointer_range<reference::expression> values(statement s) {
    if (s->what == stmt_kind::for_loop)
      return reference::pointer_range<reference::expression>(s->values());
    if (s->what == stmt_kind::assign && s->parallel())
      return reference::pointer_range<reference::expression>(s->value()->args());
    return {};
  }
  /// A parallel assignment of one target (a loop's closing `pl.yield_(e)`) binds it to e.
  static expression value(statement s) {
    if (s->what == stmt_kind::assign && s->parallel() && s->targets().size() == 1)
      return s->value()->args()[0].get();
    return s->value().get();
  }
  static reference::pointer_range<reference::expression> expressions(statement s) {
    if (s->what == stmt_kind::return_ || s->what == stmt_kind::block ||
        s->what == stmt_kind::verbatim)
      return reference::pointer_range<reference::expression>(s->values());
    return reference::pointer_range<reference::expression>(s->value_list());
  }
  static variable loop_variable(statement s) { return s->loop_var().get(); }
  static commscope::loop_bounds<expression> loop_bounds(statement s) {
    return {s->start().get(), s->stop().get(), s->step().get()};
  }

  // ---- expressions
  static expression_kind expression_kind_of(expression e) {
    switch (e->what) {
    case expr_kind::integer: // an unbounded literal is saturated: still an integer
      return expression_kind::integer;
    case expr_kind::name:
      return e->var() ? expression_kind::variable : expression_kind::other;
    case expr_kind::operation:
    case expr_kind::function_call:
      return expression_kind::call;
    default:
      return expression_kind::other;
    }
  }
  static location location_of(expression e) { return e->where; }
  static std::int64_t integer_value(expression e) { return e->value(); }
  static variable variable_of(expression e) { return e->var().get(); }
  static call_target call_target_of(expression e) {
    if (e->what == expr_kind::operation)
      return call_target::of(e->op);
    if (const auto c = e->callee())
      return call_target::of(c->info());
    return call_target::unresolved(e->text().view());
  }
  static reference::pointer_range<reference::expression> arguments(expression e) {
    return reference::pointer_range<reference::expression>(e->args());
  }
  /// A chip orchestrator's call: the operands passed for the parameters its signature says
  /// it may return (reference::signature::returned), and any operand it cannot place: an
  /// unpacked one (`*xs`, and every positional one after it), a keyword of no parameter.
  static std::uint64_t returned_operands(expression e) {
    using namespace std::string_view_literals;
    const auto* sig = e->callee().get();
    if (!sig || sig->returned == ~std::uint64_t{0})
      return ~std::uint64_t{0};
    std::uint64_t out = 0;
    std::size_t k = 0; // the operand's index: bit min(k, 63)
    if (e->base())
      out |= std::uint64_t{1} << k++; // what the call is made on
    bool unpacked = false;
    for (std::size_t p = 0; p < e->args().size(); ++p, ++k) {
      const auto& a = *e->args()[p];
      unpacked = unpacked || (a.what == expr_kind::opaque && a.text().view().starts_with("*"));
      if (unpacked || ((sig->returned >> std::min<std::size_t>(p, 63)) & 1) != 0)
        out |= std::uint64_t{1} << std::min<std::size_t>(k, 63);
    }
    for (const auto& kw : e->keywords()) {
      const auto name = kw.name.view();
      std::size_t p = 0; // the parameter it names, or none (the end)
      while (p < sig->parameters.size() && sig->parameters[p].view() != name)
        ++p;
      if (name != "device"sv && // a place, no value
          (p == sig->parameters.size() || ((sig->returned >> std::min<std::size_t>(p, 63)) & 1)))
        out |= std::uint64_t{1} << std::min<std::size_t>(k, 63);
      ++k;
    }
    return out;
  }
  static std::optional<expression> device_of(expression e) {
    using namespace std::string_view_literals; // compares lengths before bytes
    for (const auto& k : e->keywords())
      if (k.name.view() == "device"sv)
        return k.value.get();
    return std::nullopt;
  }
  static std::string_view allocation_name(expression e) { return e->name().view(); }

  // ---- symbolic device sets: scopes hold world-relative progressions
  static constexpr bool symbolic_device_sets = true;
  /// `x - C`, `x + -C` or `-C + x`: x and C.
  static std::optional<std::pair<expression, std::int64_t>> minus_constant(expression e) {
    if (e->what != expr_kind::binary || e->args().size() != 2)
      return std::nullopt;
    const expression l = e->args()[0].get(), r = e->args()[1].get();
    const auto op = e->text().view();
    if (op == "-")
      if (const auto c = constant_of(r))
        return std::pair{l, *c};
    if (op == "+") {
      if (const auto c = constant_of(r); c && *c > INT64_MIN)
        return std::pair{l, -*c};
      if (const auto c = constant_of(l); c && *c > INT64_MIN)
        return std::pair{r, -*c};
    }
    return std::nullopt;
  }
  static reference::operand_range subexpressions(expression e) {
    return reference::operand_range(e);
  }
  /// What an expression that is no recognized operation or dispatch does with its
  /// operands. A method call on a value (`v.reshape(...)`, `v[0].view(...)`): derived from
  /// the value, its arguments escape. A subscript, an attribute, a tuple, arithmetic:
  /// derived. A conditional expression, a lambda, a
  /// comprehension, `and`/`or`: derived, conditionally evaluated. A store into an object
  /// or a container (`x.a = v`): may do anything. A tensor's shape, dtype
  /// or ndim, and builtins that only read (`len`, `isinstance`, `print`, ...): independent.
  /// A call of a function value the host holds (`later()` of `later = lambda: ...`):
  /// derived from that value, its arguments escape. Any other call (a helper
  /// `self.stage(v)`, a module's function `pl.f(v)`): may do anything.
  /// How many calls a method's receiver chain may pass through (`v.a().b()`) and still be
  /// followed to the value the host holds.
  static constexpr std::size_t max_chained_calls = 64;
  static expression_flow flow_of(expression e) {
    using namespace std::string_view_literals;
    switch (e->what) {
    case expr_kind::attribute: {
      // A tensor's metadata is no part of it.
      const auto a = e->text().view();
      if (a == "shape"sv || a == "dtype"sv || a == "ndim"sv)
        return {operand_flow::independent, {}, false};
      return {operand_flow::derived, {}, false};
    }
    case expr_kind::function_call:
      return {operand_flow::escapes, e->text().view(), true};
    case expr_kind::operation:
      return {operand_flow::escapes, e->text().view(), false};
    case expr_kind::call: {
      const reference::expression* callee = e->base().get();
      if (callee && callee->what == expr_kind::attribute) {
        // The analysis asks this of every call of a chain (`v.a().b()...`): past
        // max_chained_calls calls on the way to its root, the chain is taken as no value
        // the host holds (its receiver then escapes: reported), so that a long chain costs
        // linear time, not quadratic.
        const reference::expression* owner = callee->base().get();
        // A method of a string literal (`"bad {}".format(v)`, `", ".join(names)`) makes a
        // string, or a value of strings, from what it reads.
        if (owner && owner->what == expr_kind::string)
          return {operand_flow::independent, {}, false};
        std::size_t calls = 0;
        while (owner && (owner->what == expr_kind::attribute ||
                         owner->what == expr_kind::subscript || owner->what == expr_kind::call)) {
          if (owner->what == expr_kind::call && ++calls > max_chained_calls) {
            owner = nullptr;
            break;
          }
          owner = owner->base().get();
        }
        // A method of a value the host holds (`self`'s members may do anything), a
        // variable or a value made of them (a comprehension's variable, `a if c else b`,
        // a list or tuple written there, a dispatch's result): its value may be (part of)
        // the value, its arguments escape (`lst.append(v)`).
        if (owner && ((owner->what == expr_kind::name && owner->var() &&
                       owner->var()->name.view() != "self") ||
                      (owner->what == expr_kind::opaque && !owner->store()) ||
                      owner->what == expr_kind::list || owner->what == expr_kind::tuple ||
                      owner->what == expr_kind::function_call))
          return {operand_flow::escapes, callee->text().view(), true, 1};
      }
      std::string_view name;
      if (callee && callee->what == expr_kind::name && callee->var())
        name = callee->var()->name.view();
      else if (callee && callee->what == expr_kind::call)
        name = e->text().view(); // what a call makes: the call may spell it
      else if (callee)
        name = callee->text().view();
      // A function the host made and holds (`later = lambda: chip(v, device=2)`): what it
      // does was followed where it was made; its value may be (part of) what it holds, its
      // arguments escape.
      if (callee && callee->what == expr_kind::name && callee->var())
        return {operand_flow::escapes, name, true, 1};
      // Python's builtins that only read what they are given.
      if (callee && callee->what == expr_kind::name && !callee->var()) {
        for (const auto b : reference::read_only_builtins)
          if (name == b)
            return {operand_flow::independent, {}, false};
        // Builtins that call or iterate what they are given: not followed, and not to be
        // inlined either (the message says so).
        for (const auto b : {"sorted"sv, "min"sv, "max"sv, "sum"sv, "map"sv, "filter"sv, "iter"sv,
                             "next"sv, "any"sv, "all"sv, "getattr"sv, "setattr"sv})
          if (name == b)
            return {operand_flow::escapes, name, false};
      }
      return {operand_flow::escapes, name, true};
    }
    case expr_kind::binary: {
      const auto op = e->text().view();
      return {
          op == "and" || op == "or" ? operand_flow::conditional : operand_flow::derived, {}, false};
    }
    case expr_kind::opaque:
      if (e->store())
        return {operand_flow::escapes, e->text().view(), false};
      return {e->conditional() ? operand_flow::conditional : operand_flow::derived, {}, false};
    default:
      return {operand_flow::derived, {}, false};
    }
  }

  // ---- variables: dense ids, no hashing
  // The bindings of one name in one function are one variable (their name_id): the
  // analysis resolves rebinding through branches and loops itself. A hand-built window
  // buffer may have no base: the null variable is index 0, one variable of its own that
  // no statement binds, so that nothing reads through it. (All null bases are that one
  // variable: to the verifier, a slot without a base holds an allocation without one.)
  static std::size_t variable_index(variable v) { return v ? std::size_t{v->name_id} + 1 : 0; }
  static std::size_t variable_bound(const program& p) { return std::size_t{p->variable_bound} + 1; }

  /// An integer literal, possibly negated.
  static std::optional<std::int64_t> constant_of(expression e) {
    if (e->what == expr_kind::integer)
      return e->value();
    if (e->what == expr_kind::unary && e->text().view() == "-" && e->args().size() == 1 &&
        e->args()[0]->what == expr_kind::integer && e->args()[0]->value() > INT64_MIN)
      return -e->args()[0]->value();
    return std::nullopt;
  }

  // ---- reading materialized scopes
  static std::string_view scope_name(statement s) { return s->scope_name().view(); }
  static std::span<const std::int64_t> scope_devices(statement s) { return s->devices(); }
  static reference::progression_range scope_progressions(statement s) {
    return reference::progression_range(s->progressions());
  }
  static reference::pointer_range<reference::window_buffer> scope_slots(statement s) {
    return reference::pointer_range<reference::window_buffer>(s->slots());
  }
  static window_buffer view_window_buffer(statement, variable v) {
    return v->var_type ? v->var_type->window.get() : nullptr;
  }
  static std::string_view window_buffer_name(window_buffer w) { return w->name.view(); }
  static variable window_buffer_base(window_buffer w) { return w->base.get(); }
  static expression window_buffer_size(window_buffer w) { return w->size.get(); }

  // ---- the rewrite: rebuild changed functions, share everything else
  using rewriter = reference::rewriter;
  static rewriter begin_rewrite(program& p) { return rewriter(p); }
  static window_buffer make_window_buffer(rewriter& rw, const window_buffer_spec<ir_traits>& s) {
    return rw.make_window_buffer(s.base, s.size, s.name);
  }
  static void retype_view(rewriter& rw, const view_spec<ir_traits>& v) {
    rw.retype_view(v.variable, v.window_buffer);
  }
  static void wrap_body(rewriter& rw, function f, std::span<const scope_spec<ir_traits>> scopes) {
    rw.begin_function(f);
    for (const auto& s : scopes)
      rw.add_scope(s.name, s.devices, s.slots, s.progressions);
    rw.end_function();
  }
  static void commit(rewriter& rw, program& p) { p = rw.finish(); }

  // ---- signal synthesis
  static std::vector<std::string_view> names_in_use(const program& p) {
    return reference::used_names(*p);
  }
  static std::int64_t core_num_of(expression e) { return reference::core_num_of(*e); }
  // Templates, like the rewriter they take, so that the rewriter's members are
  // instantiated only where signals are synthesized; R is always signal_rewriter.
  using signal_rewriter = reference::signal_rewriter;
  template <class R = signal_rewriter> static R begin_signals(program& p) { return R(p); }
  template <class R> static void insert_signal(R& rw, const signal_spec<ir_traits>& s) {
    rw.insert(s.function, s.statement, s.call, s.cores, s.world_size_name, s.buffer_name,
              s.signal_name);
  }
  template <class R> static void commit_signals(R& rw, program& p) { p = rw.finish(); }
};
