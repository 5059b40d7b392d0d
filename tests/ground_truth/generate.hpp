// Random host orchestrators for the ground-truth checker: broad rather than tuned to
// known cases. Every program is valid Python in which every variable is bound on every
// path before it is read (the views are bound before any control flow; a device is a
// constant or an enclosing loop's variable), but a late view: a loop's guarded dispatch
// reads one above its first binding, at the end of the body (an execution that runs the
// dispatch in the first iteration raises NameError). None is of a class the pass rejects
// by design, but one: two window arguments of a collective may turn out to be views of one
// allocation (a copy, a swap, a rebinding can make them so), which the checker judges
// against the executions.
//
// About a third of the programs pass views through expressions too: slices and method
// calls of views, tuples packed, read back and unpacked, a view chosen by a conditional
// expression, a dispatch guarded by one, arguments by keyword, a window whose pointer is
// read back from a tuple, a for loop over a tuple's views. About one in ten calls a
// helper with a view, a tuple or a window pointer (`stage(v)`, `helper(b)`), or stores one
// (`x.held = v`, `(kept := v)`, `def later(): return v`): the pass must refuse it with
// view-escapes there; such an allocation is left without coverage.
#pragma once

#include "execute.hpp"
#include "program.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace ground_truth {

class generator {
public:
  explicit generator(std::uint64_t seed) : rng_(seed) {}

  /// A program whose allocations may be left without coverage; complete() gives them some.
  program make() {
    p_ = program{};
    views_.clear();
    tuples_.clear();
    current_.clear();
    loop_names_.clear();
    lates_ = 0;
    // A quarter of the programs bind only at the top level: there the analysis is exact.
    nested_bindings_ = chance(0.75);
    expressions_ = chance(0.3);
    escapes_ = chance(0.1);
    // One program in ten is big: more allocations, views and statements, deeper nesting.
    const bool big = chance(0.1);
    depth_limit_ = big ? 4 : 3;
    const int buffers = pick(1, big ? 8 : 5);
    const int views = pick(std::max(2, buffers), buffers + (big ? 6 : 3));
    std::vector<int> buffer_vars;
    for (int b = 0; b < buffers; ++b) {
      buffer_vars.push_back(add_variable("b" + std::to_string(b), variable_kind::buffer));
      current_[static_cast<std::size_t>(buffer_vars.back())] = buffer_vars.back();
      statement s;
      s.kind = statement_kind::allocate;
      s.target = buffer_vars.back();
      s.size = 16 << pick(0, 3);
      p_.body.push_back(s);
    }
    // Pointer copies of some buffers (a window may read its buffer through one).
    sources_ = buffer_vars;
    pointers_.clear();
    for (int b = 0; b < buffers; ++b)
      if (chance(0.2)) {
        pointers_.push_back(add_variable("p" + std::to_string(b), variable_kind::buffer));
        sources_.push_back(pointers_.back());
        p_.body.push_back(copy(pointers_.back(), buffer_vars[static_cast<std::size_t>(b)]));
      }
    for (int v = 0; v < views; ++v) {
      views_.push_back(add_variable("v" + std::to_string(v), variable_kind::view));
      statement s;
      s.kind = statement_kind::window;
      s.target = views_.back();
      s.source = v < buffers ? buffer_vars[static_cast<std::size_t>(v)] : any_of(sources_);
      s.from.how = pointer_form();
      current_[static_cast<std::size_t>(s.target)] = current_[static_cast<std::size_t>(s.source)];
      p_.body.push_back(s);
    }
    // Tuples of views, packed before any control flow (so that every read finds one).
    if (expressions_ && chance(0.6))
      for (int n = pick(1, 2), k = 0; k < n; ++k) {
        const int t = add_variable("t" + std::to_string(k), variable_kind::tuple);
        for (int e = pick(2, 3), i = 0; i < e; ++i) {
          const int element =
              add_variable("t" + std::to_string(k) + "." + std::to_string(i), variable_kind::view);
          p_.variables[static_cast<std::size_t>(t)].elements.push_back(element);
        }
        tuples_.push_back(t);
        p_.body.push_back(pack(t));
      }
    // An allocation whose window pointer only escapes: view-escapes, and neither
    // unconsumed-alloc nor dead-alloc.
    if (escapes_ && chance(0.3)) {
      const int lone = add_variable("b" + std::to_string(buffers), variable_kind::buffer);
      statement s;
      s.kind = statement_kind::allocate;
      s.target = lone;
      p_.body.push_back(s);
      statement e;
      e.kind = statement_kind::escape;
      e.arguments = {lone};
      e.else_ = chance(0.3);
      p_.body.push_back(e);
    }
    // A device variable bound anywhere, to a constant or to an enclosing loop's variable.
    device_ = -1;
    if (chance(0.3)) {
      device_ = add_variable("dv", variable_kind::integer);
      statement s;
      s.kind = statement_kind::constant;
      s.target = device_;
      p_.body.push_back(s);
    }
    buffers_ = std::move(buffer_vars);
    budget_ = big ? pick(25, 45) : pick(3, 22);
    const auto prelude = static_cast<int>(p_.body.size()); // every view bound by then
    context top;
    while (budget_ > 0)
      p_.body.push_back(make_statement(top));
    if (escapes_ && !has_escapes(p_, false) && !has_escapes(p_, true)) { // at least one
      statement e;
      e.kind = statement_kind::escape;
      e.else_ = chance(0.3);
      e.arguments = {any_view()};
      e.forms = {some_form(e.arguments[0])};
      p_.body.insert(p_.body.begin() + pick(prelude, static_cast<int>(p_.body.size())), e);
    }
    number(p_);
    return std::move(p_);
  }

private:
  struct context {
    int depth = 0;
    int loops = 0;              ///< enclosing for and while loops
    std::vector<int> variables; ///< of the enclosing for loops
    /// The tuples enclosing loops iterate: never packed again inside (Python iterates the
    /// tuple the loop began with, which the executor does not keep).
    std::vector<int> iterated;
  };

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int any_of(const std::vector<int>& v) {
    return v[static_cast<std::size_t>(pick(0, static_cast<int>(v.size()) - 1))];
  }
  int any_view() { return any_of(views_); }
  statement copy(int target, int source) {
    statement s;
    s.kind = statement_kind::copy;
    s.target = target;
    s.source = source;
    current_[static_cast<std::size_t>(target)] = current_[static_cast<std::size_t>(source)];
    return s;
  }

  int add_variable(std::string name, variable_kind k) {
    p_.variables.push_back({std::move(name), k, {}});
    current_.resize(p_.variables.size(), -1);
    return static_cast<int>(p_.variables.size() - 1);
  }
  /// Loops at one nesting level share their variable's name; nested loops never do.
  int loop_variable(const context& c, bool world) {
    const auto name = (world ? "r" : "i") + std::to_string(c.loops);
    for (auto [n, v] : loop_names_)
      if (n == name)
        return v;
    loop_names_.emplace_back(name, add_variable(name, variable_kind::integer));
    return loop_names_.back().second;
  }

  /// The body of a loop inside `c`; `known` adds what the loop tells its body.
  template <class F> block loop_body(const context& c, F&& known) {
    context inner = c;
    ++inner.depth;
    ++inner.loops;
    known(inner);
    // Now and then a view read above its first binding (`previous` in a pipeline): the
    // read is guarded, since the first iteration finds it unbound.
    const bool late = nested_bindings_ && !views_.empty() && chance(0.15);
    block b = make_block(inner, 1, 4);
    if (late) {
      const int v = add_variable("late" + std::to_string(lates_++), variable_kind::view);
      p_.variables[static_cast<std::size_t>(v)].late = true;
      statement d = dispatch(inner, false);
      d.arguments = {v};
      d.forms.clear();
      d.keywords = false;
      if (!d.guarded) {
        d.guarded = true;
        d.conditions.push_back(p_.conditions++);
      }
      b.insert(b.begin(), d);
      b.push_back(copy(v, any_view()));
    }
    return b;
  }

  block make_block(const context& c, int lo, int hi) {
    block b;
    for (int n = pick(lo, hi); n > 0 && budget_ > 0; --n)
      b.push_back(make_statement(c));
    return b;
  }

  statement make_statement(const context& c) {
    --budget_;
    const bool bind = c.depth == 0 || nested_bindings_;
    const bool nest = c.depth < depth_limit_;
    std::discrete_distribution<int> what({
        5.0,                                          // dispatch
        bind ? 1.2 : 0.0,                             // a new view
        bind ? 2.0 : 0.0,                             // a copy
        bind ? 0.4 : 0.0,                             // a swap
        1.6,                                          // a collective
        nest ? 2.0 : 0.0,                             // if
        nest ? 1.2 : 0.0,                             // for over the world
        nest ? 1.0 : 0.0,                             // for over a constant range
        nest ? 0.8 : 0.0,                             // while
        nest ? 0.5 : 0.0,                             // with
        device_ >= 0 && bind ? 1.0 : 0.0,             // a device variable
        !pointers_.empty() && bind ? 0.25 : 0.0,      // a pointer rebound
        expressions_ && bind ? 1.0 : 0.0,             // a derived view: a slice, a method, t[k]
        !tuples_.empty() && bind ? 0.5 : 0.0,         // a tuple packed again
        !tuples_.empty() && bind ? 0.4 : 0.0,         // a tuple unpacked
        expressions_ && bind ? 0.6 : 0.0,             // a view chosen by a conditional expression
        escapes_ ? 0.6 : 0.0,                         // a helper called with a view
        !tuples_.empty() && nest && bind ? 0.4 : 0.0, // for over a tuple's views
    });
    statement s;
    const int choice = what(rng_);
    switch (choice) {
    case 0:
      return dispatch(c, bind);
    case 1:
      s.kind = statement_kind::window;
      s.target = any_view();
      s.source = any_of(sources_);
      s.from.how = pointer_form();
      current_[static_cast<std::size_t>(s.target)] = current_[static_cast<std::size_t>(s.source)];
      return s;
    case 2:
    case 3:
      if (choice == 3 && views_.size() > 2)
        return parallel();
      s.kind = statement_kind::copy;
      s.target = any_view();
      do
        s.source = any_view();
      while (s.source == s.target);
      bound(s.target, s.source);
      return s;
    case 4:
      return make_collective(c, bind);
    case 5: {
      s.kind = statement_kind::if_else;
      const int branches = pick(1, 3);
      s.else_ = chance(0.5);
      context inner = c;
      ++inner.depth;
      for (int k = 0; k < branches + (s.else_ ? 1 : 0); ++k) {
        if (k < branches)
          s.conditions.push_back(p_.conditions++);
        s.blocks.push_back(make_block(inner, 0, 3));
        if (c.loops > 0 && chance(0.25)) {
          statement j;
          j.kind = statement_kind::jump;
          j.else_ = chance(0.5);
          s.blocks.back().push_back(j);
        } else if (chance(0.04)) { // an early return
          statement r;
          r.kind = statement_kind::return_;
          s.blocks.back().push_back(r);
        }
      }
      return s;
    }
    case 6:
    case 7: {
      const bool world = choice == 6;
      s.kind = world ? statement_kind::for_world : statement_kind::for_range;
      s.target = loop_variable(c, world);
      s.builtin_range = chance(0.3);
      if (!world)
        constant_range(s);
      else if (chance(0.35)) {                           // over part of the world
        s.start = chance(0.3) ? pick(4, 6) : pick(0, 3); // past W now and then
        s.step = pick(1, 3);
        s.world_offset = pick(0, 2);
      }
      s.blocks.push_back(
          loop_body(c, [&](context& inner) { inner.variables.push_back(s.target); }));
      return s;
    }
    case 9: {
      s.kind = statement_kind::with_block;
      context inner = c;
      ++inner.depth;
      s.blocks.push_back(make_block(inner, 1, 3));
      return s;
    }
    case 10:
      if (!c.variables.empty() && chance(0.6))
        return copy(device_, any_of(c.variables));
      s.kind = statement_kind::constant;
      s.target = device_;
      s.constant = pick(0, 3);
      return s;
    case 11:
      return copy(any_of(pointers_), any_of(buffers_));
    case 12: {
      s.kind = statement_kind::derive;
      s.target = any_view();
      if (!tuples_.empty() && chance(0.4)) {
        s.source = any_of(tuples_);
        s.from = {form::element, pick(0, arity(s.source) - 1)};
        bound(s.target, element(s.source, s.from.index));
      } else {
        s.source = any_view();
        s.from = {chance(0.6) ? form::slice : form::method, 0};
        bound(s.target, s.source);
      }
      return s;
    }
    case 13: {
      const int t = any_of(tuples_);
      if (std::find(c.iterated.begin(), c.iterated.end(), t) != c.iterated.end())
        return dispatch(c, bind);
      return pack(t);
    }
    case 14: {
      s.kind = statement_kind::unpack;
      s.source = any_of(tuples_);
      if (arity(s.source) > static_cast<int>(views_.size()))
        return std::find(c.iterated.begin(), c.iterated.end(), s.source) != c.iterated.end()
                   ? dispatch(c, bind)
                   : pack(s.source);
      while (static_cast<int>(s.arguments.size()) < arity(s.source)) {
        const int v = any_view();
        if (std::find(s.arguments.begin(), s.arguments.end(), v) == s.arguments.end())
          s.arguments.push_back(v);
      }
      for (int k = 0; k < arity(s.source); ++k)
        bound(s.arguments[static_cast<std::size_t>(k)], element(s.source, k));
      return s;
    }
    case 15:
      s.kind = statement_kind::choose;
      s.target = any_view();
      s.sources = {any_view(), any_view()};
      for (int tries = 0; tries < 4 && s.sources[0] == s.sources[1]; ++tries)
        s.sources[1] = any_view();
      s.conditions.push_back(p_.conditions++);
      bound(s.target, s.sources[static_cast<std::size_t>(pick(0, 1))]);
      return s;
    case 16:
      s.kind = statement_kind::escape;
      s.else_ = chance(0.3);
      s.store = chance(0.3) ? pick(1, 3) : 0;
      if (s.store == 3) { // a closure: it reads its variable when called, so a binding of
        // that variable after it is a store too; an allocation's own variable is bound once
        s.arguments = {any_of(buffers_)};
      } else if (chance(0.2)) { // a window pointer
        s.arguments = {any_of(sources_)};
      } else {
        s.arguments = {any_view()};
        s.forms = {some_form(s.arguments[0])};
      }
      return s;
    case 17: {
      s.kind = statement_kind::for_items;
      s.target = any_view();
      s.source = any_of(tuples_);
      if (chance(0.5))
        s.repack = static_cast<statement::repacking>(pick(1, 5));
      bound(
          s.target,
          element(s.source, s.repack == statement::repacking::reversed ? arity(s.source) - 1 : 0));
      s.blocks.push_back(loop_body(c, [&](context& inner) { inner.iterated.push_back(s.source); }));
      return s;
    }
    default: {
      s.kind = statement_kind::while_loop;
      s.conditions.push_back(p_.conditions++);
      s.blocks.push_back(loop_body(c, [](context&) {}));
      return s;
    }
    }
  }

  /// range(n), range(a, b), range(a, b, step), or a descending range: never empty, and
  /// every element a device id (at least 0).
  void constant_range(statement& s) {
    switch (pick(0, 3)) {
    case 0:
      s.start = 0, s.stop = pick(1, 4), s.step = 1;
      break;
    case 1:
      s.start = pick(0, 3), s.stop = s.start + pick(1, 3), s.step = 1;
      break;
    case 2:
      s.start = pick(0, 2), s.step = pick(2, 3), s.stop = s.start + pick(1, 5);
      break;
    default:
      s.start = pick(1, 5), s.step = -pick(1, 2), s.stop = pick(-1, static_cast<int>(s.start) - 1);
      break;
    }
  }

  statement dispatch(const context& c, bool bind) {
    statement s;
    s.kind = statement_kind::dispatch;
    std::discrete_distribution<int> arity({3.0, 2.0, 1.0});
    for (int n = arity(rng_) + 1; n > 0; --n) {
      s.arguments.push_back(any_view());
      if (expressions_)
        s.forms.push_back(chance(0.3) ? some_form(s.arguments.back()) : operand{});
    }
    if (expressions_) {
      s.keywords = chance(0.1);
      if (chance(0.12)) { // chipN(...) if cN() else None, maybe on a device beyond W
        s.guarded = true;
        s.conditions.push_back(p_.conditions++);
        if (s.device_variable < 0 && chance(0.5))
          s.constant = pick(4, 12);
      }
    }
    if (device_ >= 0 && chance(0.35)) {
      s.device_variable = device_;
    } else if (!c.variables.empty() && chance(0.65)) {
      s.device_variable =
          c.variables[static_cast<std::size_t>(pick(0, static_cast<int>(c.variables.size()) - 1))];
      s.through_copy = bind && chance(0.25);
      if (s.through_copy && p_.device_copy < 0)
        p_.device_copy = add_variable("d", variable_kind::integer);
    } else {
      s.constant = pick(0, 3);
    }
    // `vN = chipK(...)`: every chip returns its x0, so the target is then a view of what
    // the first argument views, which a later dispatch may use (or a store escape).
    if (expressions_ && bind && !s.keywords && !s.guarded && !s.arguments.empty() &&
        s.arguments[0] >= 0 && (s.forms.empty() || s.forms[0] == operand{}) && chance(0.15))
      s.target = any_view();
    return s;
  }

  statement make_collective(const context& c, bool bind) {
    std::discrete_distribution<int> which({3.0, 1.0, 1.0, 1.0, 1.5, 1.0, c.loops ? 0.0 : 0.7});
    statement s;
    s.kind = statement_kind::collective;
    s.op = static_cast<collective>(which(rng_));
    // Windows of distinct allocations, as far as the generator can tell (it follows the
    // bindings in text order, ignoring control flow), and now and then one allocation
    // twice. An input or send_counts may be no window at all: the host tensor x. Fewer
    // allocations than windows to pass: a barrier.
    const auto& sh = shape(s.op);
    const bool free_input = sh.arguments > 2;
    const int windows = sh.arguments - (free_input ? (sh.arguments > 3 ? 2 : 1) : 0);
    if (windows > static_cast<int>(buffers_.size()))
      s.op = collective::barrier;
    std::vector<int> taken;
    for (int k = 0; k < shape(s.op).arguments; ++k) {
      if (shape(s.op).arguments > 2 && (k == 0 || k == 3) &&
          (chance(0.5) || sh.arguments - 1 > static_cast<int>(buffers_.size()))) {
        s.arguments.push_back(-1);
        continue;
      }
      int v = any_view();
      for (int tries = 0; tries < 12 && !chance(0.02); ++tries) {
        bool fresh = true;
        for (int t : taken)
          fresh &= t != current_[static_cast<std::size_t>(v)];
        if (fresh)
          break;
        v = any_view();
      }
      taken.push_back(current_[static_cast<std::size_t>(v)]);
      s.arguments.push_back(v);
    }
    const int result = shape(s.op).result;
    if (result >= 0 && bind && chance(0.5)) {
      s.target = chance(0.6) ? s.arguments[static_cast<std::size_t>(result)] : any_view();
      bound(s.target, s.arguments[static_cast<std::size_t>(result)]);
    }
    return s;
  }

  int arity(int tuple) const {
    return static_cast<int>(p_.variables[static_cast<std::size_t>(tuple)].elements.size());
  }
  int element(int tuple, int k) const {
    return p_.variables[static_cast<std::size_t>(tuple)].elements[static_cast<std::size_t>(k)];
  }
  /// `t = (views...)`: binds the tuple's elements.
  statement pack(int tuple) {
    statement s;
    s.kind = statement_kind::pack;
    s.target = tuple;
    for (int k = 0; k < arity(tuple); ++k) {
      s.sources.push_back(any_view());
      bound(element(tuple, k), s.sources.back());
    }
    return s;
  }
  /// A form for passing `v` (which may be replaced by a tuple): a slice, a method call, a
  /// tuple's element or the whole tuple.
  operand some_form(int& v) {
    if (!tuples_.empty() && chance(0.5)) {
      v = any_of(tuples_);
      return chance(0.6) ? operand{form::element, pick(0, arity(v) - 1)} : operand{form::whole, 0};
    }
    return {chance(0.6) ? form::slice : form::method, 0};
  }

  /// `a, b = b, a`, or two or three distinct targets bound to any views.
  statement parallel() {
    statement s;
    s.kind = statement_kind::parallel;
    const int n = pick(2, std::min(3, static_cast<int>(views_.size())));
    while (static_cast<int>(s.arguments.size()) < n) {
      const int v = any_view();
      if (std::find(s.arguments.begin(), s.arguments.end(), v) == s.arguments.end())
        s.arguments.push_back(v);
    }
    if (chance(0.5)) // a swap or a rotation
      for (int k = 0; k < n; ++k)
        s.sources.push_back(s.arguments[static_cast<std::size_t>((k + 1) % n)]);
    else
      for (int k = 0; k < n; ++k)
        s.sources.push_back(any_view());
    std::vector<int> was;
    for (int v : s.sources)
      was.push_back(current_[static_cast<std::size_t>(v)]);
    for (int k = 0; k < n; ++k)
      current_[static_cast<std::size_t>(s.arguments[static_cast<std::size_t>(k)])] =
          was[static_cast<std::size_t>(k)];
    return s;
  }

  /// What the generator believes `target` views after `target = source`.
  void bound(int target, int source) {
    current_[static_cast<std::size_t>(target)] = current_[static_cast<std::size_t>(source)];
  }

  std::mt19937_64 rng_;
  program p_;
  bool nested_bindings_ = true;
  bool expressions_ = false; ///< derived views, tuples, conditional expressions

  /// How a window reads its pointer: now and then, as an expression (`(b, 0)[0]`), which
  /// names what the variable names.
  form pointer_form() { return expressions_ && chance(0.2) ? form::element : form::plain; }
  bool escapes_ = false; ///< helper calls
  int budget_ = 0;
  int lates_ = 0; ///< late views made (their names)
  int depth_limit_ = 3;
  std::vector<int> views_, buffers_, pointers_, sources_, tuples_;
  int device_ = -1;          ///< the device variable dv, if this program has one
  std::vector<int> current_; ///< per view variable: the buffer it views, as far as known
  std::vector<std::pair<std::string, int>> loop_names_;
};

/// Gives every allocation the executions leave without coverage a view of its own and a
/// dispatch on device 0 at the end, so that the pass must accept the program (unless it
/// escapes: an allocation a helper call may receive is left as it is, for the judge to see
/// that view-escapes is its only diagnostic); numbers it.
inline void complete(program& p) {
  number(p);
  const auto t = execute(p, 1);
  std::uint64_t escaped = 0;
  for (auto e : t.escaped)
    escaped |= e;
  std::vector<int> buffer_of(static_cast<std::size_t>(t.allocations), -1);
  for (std::size_t v = 0; v < t.allocation_of.size(); ++v)
    if (t.allocation_of[v] >= 0)
      buffer_of[static_cast<std::size_t>(t.allocation_of[v])] = static_cast<int>(v);
  for (int a = 0; a < t.allocations; ++a) {
    if (t.worlds[0].covered[static_cast<std::size_t>(a)] != 0 || (escaped >> a & 1))
      continue;
    p.variables.push_back({"u" + std::to_string(a), variable_kind::view, {}});
    const int u = static_cast<int>(p.variables.size() - 1);
    statement w;
    w.kind = statement_kind::window;
    w.target = u;
    w.source = buffer_of[static_cast<std::size_t>(a)];
    p.body.push_back(w);
    statement d;
    d.kind = statement_kind::dispatch;
    d.arguments = {u};
    p.body.push_back(d);
  }
  number(p);
}

} // namespace ground_truth
