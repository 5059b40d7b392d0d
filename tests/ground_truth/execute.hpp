// The executor: runs a model program (program.hpp) concretely for one world size over
// every branch outcome and every trip count of its while loops, and records what each
// dispatch and collective touched: the ground truth of docs/semantics.md, "Rebinding and
// control flow".
//
// Conditions are opaque, so every combination of outcomes is one execution. Rather than
// enumerating the paths one by one (exponential in the branches a loop runs), the
// executor carries the set of concrete states that reach each statement: every state in
// the set is the state of some execution there, and every execution's state is in it, so
// the records are those of all executions together. The state space is finite, so a
// while loop runs until its set of states at the head stops growing: every trip count.
// A cap on the number of states keeps a pathological program bounded; hitting it drops
// states (the truth is then a subset: soundness can still be judged, exactness not).
#pragma once

#include "program.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

namespace ground_truth {

/// What all executions for one world size touched.
struct world_truth {
  std::int64_t world_size = 0;
  std::vector<std::uint64_t> dispatched; ///< per allocation: the devices of its dispatches
  std::vector<std::uint64_t> inherits;   ///< per allocation: the allocations it inherits from
  std::vector<std::uint64_t> covered;    ///< per allocation: dispatched, inheritance included
  std::vector<std::uint64_t> ran_on;     ///< per statement: the devices a dispatch ran on
};

struct truth {
  std::vector<world_truth> worlds;
  std::vector<bool> executed;         ///< per statement: ran in some execution
  std::vector<bool> aliased;          ///< per collective statement: some execution has two of
                                      ///< its window arguments on one allocation
  std::vector<bool> not_aliased;      ///< ... and some execution has none
  std::vector<std::uint64_t> touched; ///< per dispatch: the allocations its arguments view
  std::vector<std::uint64_t> escaped; ///< per escape: the allocations its argument holds
  struct pass {
    int statement;
    std::size_t to;
    std::uint64_t from;
    friend auto operator<=>(const pass&, const pass&) = default;
  };
  std::vector<pass> passes;       ///< a collective passed coverage to `to` from `from`
  std::vector<int> allocation_of; ///< per variable: the allocation a buffer is, or -1
  int allocations = 0;
  bool invalid = false;   ///< a variable was used unbound, or a device is not in [0, 64)
  bool truncated = false; ///< states were dropped at the cap
};

class executor {
public:
  using state = std::vector<std::int8_t>; ///< per variable: its value, -1 unbound
  using states = std::vector<state>;      ///< sorted, unique

  static constexpr std::size_t state_cap = 4096;

  executor(const program& p, truth& t) : p_(p), t_(t) {}

  void run(std::int64_t world_size) {
    const std::vector<std::uint64_t> none(static_cast<std::size_t>(t_.allocations));
    t_.worlds.push_back(
        {world_size, none, none, none, std::vector<std::uint64_t>(t_.executed.size())});
    world_ = &t_.worlds.back();
    world_size_ = world_size;
    const auto out = run(p_.body, {state(p_.variables.size(), -1)});
    (void)out;
    close(*world_);
  }

private:
  struct outcome {
    states normal, broke, continued;
  };

  static void add(states& to, const states& from) {
    if (from.empty())
      return;
    states merged;
    merged.reserve(to.size() + from.size());
    std::set_union(to.begin(), to.end(), from.begin(), from.end(), std::back_inserter(merged));
    to.swap(merged);
  }
  void tidy(states& s) {
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    if (s.size() > state_cap) {
      s.resize(state_cap);
      t_.truncated = true;
    }
  }

  outcome run(const block& b, states in) {
    outcome out;
    for (const auto& s : b) {
      if (in.empty())
        break;
      auto o = step(s, std::move(in));
      add(out.broke, o.broke);
      add(out.continued, o.continued);
      in = std::move(o.normal);
    }
    out.normal = std::move(in);
    return out;
  }

  /// A variable's value; -1, and the program invalid, when it is unbound.
  std::int8_t read(const state& s, int v) {
    if (v < 0 || s[static_cast<std::size_t>(v)] < 0) {
      t_.invalid = true;
      return -1;
    }
    return s[static_cast<std::size_t>(v)];
  }
  const std::vector<int>& elements(int tuple) const {
    return p_.variables[static_cast<std::size_t>(tuple)].elements;
  }
  /// The value of `v` read as `o`: t[k] reads the tuple's k-th element (-1, and the
  /// program invalid, when it has none).
  std::int8_t read(const state& s, int v, operand o) {
    if (o.how != form::element)
      return read(s, v);
    if (read(s, v) < 0 || o.index < 0 || o.index >= static_cast<int>(elements(v).size())) {
      t_.invalid = true;
      return -1;
    }
    return read(s, elements(v)[static_cast<std::size_t>(o.index)]);
  }
  /// The allocations an operand holds: every element of a whole tuple.
  std::uint64_t holds(const state& s, int v, operand o) {
    std::uint64_t m = 0;
    if (o.how == form::whole) {
      if (read(s, v) >= 0)
        for (int e : elements(v))
          if (const auto on = read(s, e); on >= 0)
            m |= std::uint64_t{1} << on;
      return m;
    }
    if (const auto on = read(s, v, o); on >= 0)
      m |= std::uint64_t{1} << on;
    return m;
  }
  /// Whether s passes a late variable (program.hpp) that is unbound in st.
  bool reads_unbound_late(const state& st, const statement& s) const {
    for (int v : s.arguments)
      if (v >= 0 && p_.variables[static_cast<std::size_t>(v)].late &&
          st[static_cast<std::size_t>(v)] < 0)
        return true;
    return false;
  }
  static operand form_of(const statement& s, std::size_t k) {
    return k < s.forms.size() ? s.forms[k] : operand{};
  }

  /// A loop of `count` iterations over s's body, `bind(state, k)` binding the loop's
  /// variable before iteration k: the states after it (broken out of, or run to the end).
  template <class Bind>
  states iterate(const statement& s, states in, std::size_t count, Bind&& bind) {
    states exits;
    for (std::size_t k = 0; k < count; ++k) {
      for (auto& st : in)
        bind(st, k);
      tidy(in);
      auto o = run(s.blocks[0], std::move(in));
      add(exits, o.broke);
      in = std::move(o.normal);
      add(in, o.continued);
    }
    add(exits, in);
    return exits;
  }

  outcome step(const statement& s, states in) {
    t_.executed[static_cast<std::size_t>(s.id)] = true;
    outcome out;
    const auto target = static_cast<std::size_t>(s.target);
    switch (s.kind) {
    case statement_kind::allocate:
      for (auto& st : in)
        st[target] = static_cast<std::int8_t>(t_.allocation_of[target]);
      break;
    case statement_kind::constant:
      for (auto& st : in)
        st[target] = static_cast<std::int8_t>(s.constant);
      break;
    case statement_kind::window: // a view of the buffer's allocation
    case statement_kind::copy:
      for (auto& st : in)
        st[target] = read(st, s.source);
      break;
    case statement_kind::parallel:
      for (auto& st : in) {
        std::vector<std::int8_t> values;
        for (int v : s.sources)
          values.push_back(read(st, v));
        for (std::size_t k = 0; k < values.size(); ++k)
          st[static_cast<std::size_t>(s.arguments[k])] = values[k];
      }
      break;
    case statement_kind::dispatch:
      for (auto& st : in) {
        // A guarded dispatch of a view not bound yet: the execution that runs it raises
        // NameError before the call, the other does not call.
        if (s.guarded && reads_unbound_late(st, s))
          continue;
        const std::int64_t device =
            s.device_variable < 0 ? s.constant : read(st, s.device_variable);
        if (device < 0 || device >= 64) {
          t_.invalid = true;
          continue;
        }
        // A guarded dispatch to a device the world lacks: the executions in which it runs
        // fault there; those in which it does not go on (smallest_world counts it not).
        if (s.guarded && device >= world_size_)
          continue;
        if (s.through_copy)
          st[static_cast<std::size_t>(p_.device_copy)] = static_cast<std::int8_t>(device);
        // A guarded dispatch runs in the executions where its condition holds: every
        // state here has one of each.
        world_->ran_on[static_cast<std::size_t>(s.id)] |= std::uint64_t{1} << device;
        for (std::size_t k = 0; k < s.arguments.size(); ++k) {
          const auto held = holds(st, s.arguments[k], form_of(s, k));
          for (std::size_t on = 0; on < 64; ++on)
            if (held >> on & 1)
              world_->dispatched[on] |= std::uint64_t{1} << device;
          t_.touched[static_cast<std::size_t>(s.id)] |= held;
          // By keyword: a dispatch gives its devices to its positional arguments only, so
          // a view passed so is refused (view-escapes), as a helper call's.
          if (s.keywords)
            t_.escaped[static_cast<std::size_t>(s.id)] |= held;
        }
        if (s.target >= 0) // what chipN returns: its x0
          st[target] = read(st, s.arguments[0]);
      }
      break;
    case statement_kind::derive: // a slice, a method call, an element: the same allocation
      for (auto& st : in)
        st[target] = read(st, s.source, s.from);
      break;
    case statement_kind::pack:
      for (auto& st : in) {
        const auto& e = elements(s.target);
        if (e.size() != s.sources.size()) {
          t_.invalid = true;
          continue;
        }
        for (std::size_t k = 0; k < e.size(); ++k)
          st[static_cast<std::size_t>(e[k])] = read(st, s.sources[k]);
        st[target] = 0; // bound
      }
      break;
    case statement_kind::unpack:
      for (auto& st : in) {
        if (read(st, s.source) < 0 || elements(s.source).size() != s.arguments.size()) {
          t_.invalid = true;
          continue;
        }
        std::vector<std::int8_t> values;
        for (int e : elements(s.source))
          values.push_back(read(st, e));
        for (std::size_t k = 0; k < values.size(); ++k)
          st[static_cast<std::size_t>(s.arguments[k])] = values[k];
      }
      break;
    case statement_kind::choose: { // both outcomes, in every state
      states both;
      for (const auto& st : in)
        for (int v : s.sources) {
          both.push_back(st);
          both.back()[target] = read(st, v);
        }
      in = std::move(both);
      break;
    }
    case statement_kind::escape:
      for (auto& st : in)
        for (std::size_t k = 0; k < s.arguments.size(); ++k)
          t_.escaped[static_cast<std::size_t>(s.id)] |= holds(st, s.arguments[k], form_of(s, k));
      break;
    case statement_kind::collective: {
      const auto& sh = shape(s.op);
      for (auto& st : in) {
        std::vector<int> on; // per argument: its allocation, or -1 for no window
        for (int a : s.arguments)
          on.push_back(a < 0 ? -1 : read(st, a));
        if (t_.invalid)
          return out;
        for (int e = 0; e < sh.edge_count; ++e) {
          const auto to = static_cast<std::size_t>(on[static_cast<std::size_t>(sh.edges[e].to)]);
          const auto from = std::uint64_t{1} << on[static_cast<std::size_t>(sh.edges[e].from)];
          world_->inherits[to] |= from;
          t_.passes.emplace_back(s.id, to, from);
        }
        bool alias = false;
        for (std::size_t i = 0; i < on.size(); ++i)
          for (std::size_t j = 0; j < i; ++j)
            alias |= on[i] >= 0 && on[i] == on[j];
        (alias ? t_.aliased : t_.not_aliased)[static_cast<std::size_t>(s.id)] = true;
        if (s.target >= 0)
          st[target] = static_cast<std::int8_t>(on[static_cast<std::size_t>(sh.result)]);
      }
      break;
    }
    case statement_kind::with_block:
      return run(s.blocks[0], std::move(in));
    case statement_kind::if_else: {
      for (const auto& branch : s.blocks) {
        auto o = run(branch, in);
        add(out.normal, o.normal);
        add(out.broke, o.broke);
        add(out.continued, o.continued);
      }
      if (!s.else_) // no branch runs
        add(out.normal, in);
      return out;
    }
    case statement_kind::for_world:
    case statement_kind::for_range: {
      std::vector<std::int64_t> values;
      if (s.kind == statement_kind::for_world)
        values = world_values(s, world_size_);
      else
        values = range_values(s);
      states exits = iterate(s, std::move(in), values.size(), [&](state& st, std::size_t k) {
        st[target] = static_cast<std::int8_t>(values[k]);
      });
      // The loop variable is read only inside its loop: forgetting it keeps states apart
      // only where they differ in what matters.
      for (auto& st : exits)
        st[target] = -1;
      tidy(exits);
      out.normal = std::move(exits);
      return out;
    }
    case statement_kind::for_items: {
      // The tuple's views in order (its body never packs it again: generate.hpp); the
      // last stays bound.
      const auto& items = elements(s.source);
      const bool reversed = s.repack == statement::repacking::reversed;
      states exits = iterate(s, std::move(in), items.size(), [&](state& st, std::size_t k) {
        const auto item = items[reversed ? items.size() - 1 - k : k];
        st[target] = read(st, s.source) < 0 ? std::int8_t{-1} : read(st, item);
      });
      tidy(exits);
      out.normal = std::move(exits);
      return out;
    }
    case statement_kind::while_loop: {
      states head = std::move(in), fresh = head, exits;
      while (!fresh.empty()) {
        auto o = run(s.blocks[0], fresh);
        add(exits, o.broke);
        states next = std::move(o.normal);
        add(next, o.continued);
        fresh.clear();
        std::set_difference(next.begin(), next.end(), head.begin(), head.end(),
                            std::back_inserter(fresh));
        add(head, fresh);
        tidy(head);
        if (t_.truncated && head.size() >= state_cap)
          break;
      }
      add(exits, head);
      out.normal = std::move(exits);
      return out;
    }
    case statement_kind::jump:
      (s.else_ ? out.continued : out.broke) = std::move(in);
      return out;
    case statement_kind::return_: // nothing after it runs
      return out;
    }
    tidy(in);
    out.normal = std::move(in);
    return out;
  }

  /// Coverage: what an allocation's dispatches give it, then what it inherits, to a fixed
  /// point (docs/semantics.md, step 4: transitive and order-independent).
  static void close(world_truth& w) {
    w.covered = w.dispatched;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t to = 0; to < w.covered.size(); ++to)
        for (std::size_t from = 0; from < w.covered.size(); ++from)
          if ((w.inherits[to] >> from & 1) && (w.covered[to] | w.covered[from]) != w.covered[to]) {
            w.covered[to] |= w.covered[from];
            changed = true;
          }
    }
  }

  const program& p_;
  truth& t_;
  world_truth* world_ = nullptr;
  std::int64_t world_size_ = 0;
};

/// The smallest world that can run the program: one more than the largest constant device
/// it may dispatch to (a constant, one bound to a device variable, or an element of a
/// constant range). docs/semantics.md, "Symbolic device sets", compares device sets for
/// worlds of at least this size. A dispatch guarded by a conditional expression counts
/// not: the host runs in a world without its device, in the executions where it does not
/// run (docs/semantics.md: it does not count towards W), so the worlds run may lack it.
inline std::int64_t smallest_world(const program& p) {
  std::int64_t w = 1;
  each_statement(p.body, [&](const statement& s, int) {
    if ((s.kind == statement_kind::dispatch && s.device_variable < 0 && !s.guarded) ||
        s.kind == statement_kind::constant)
      w = std::max(w, s.constant + 1);
    if (s.kind == statement_kind::for_range)
      for (auto v : range_values(s))
        w = std::max(w, v + 1);
  });
  return w;
}

/// Runs the program for `worlds` world sizes from the smallest one on.
inline truth execute(const program& p, int worlds) {
  truth t;
  t.executed.assign(static_cast<std::size_t>(p.statements), false);
  t.aliased = t.not_aliased = t.executed;
  t.touched.assign(t.executed.size(), 0);
  t.escaped.assign(t.executed.size(), 0);
  t.allocation_of.assign(p.variables.size(), -1);
  each_statement(p.body, [&](const statement& s, int) {
    if (s.kind == statement_kind::allocate)
      t.allocation_of[static_cast<std::size_t>(s.target)] = t.allocations++;
  });
  executor e(p, t);
  const auto w = smallest_world(p);
  for (int k = 0; k < worlds; ++k)
    e.run(w + k);
  std::sort(t.passes.begin(), t.passes.end());
  t.passes.erase(std::unique(t.passes.begin(), t.passes.end()), t.passes.end());
  return t;
}

} // namespace ground_truth
