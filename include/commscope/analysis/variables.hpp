// Per-variable bookkeeping of one function, flow-sensitive (pass.md, "Resolution of a
// variable to a view" and "Rebinding"): every binding is a definition of its own, and a
// use is recorded as the definition that reaches it in the walk. Where several can reach
// a use (a binding inside a loop or a branch), a merge definition stands for them, as
// a phi does in SSA construction:
//   - a loop that reads a variable bound before it reads a merge of the value before the
//     loop and the value at the end of its body (the next iteration), created at the first
//     read and dropped at the loop's end if the body never rebinds the variable;
//   - after a statement with children (loop, branch, block) that rebinds a variable, the
//     variable is a merge of its value before and after the statement.
// A merge resolves to a view (or a constant, an allocation) only when every definition
// it merges resolves to the same one; "not bound yet" merges as nothing.
//
// The tables live outside the IR, keyed by a dense id: the adapter's variable_index when it
// has one, else an interned key. Resolution is iterative (Tarjan's strongly connected
// components over copies and merges, memoized): a chain of a million copies resolves in
// linear total time without growing the call stack, and a cycle of merges resolves to
// what enters it.
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/plan.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <unordered_map>

namespace commscope::detail {

/// What one definition binds a variable to.
struct binding {
  enum class kind : std::uint8_t {
    unbound,           ///< no definition reaches (a parameter, a value from outside)
    copy,              ///< x = y: ref = the definition of y that reached
    integer,           ///< x = N: value
    world_size,        ///< x = world_size()
    loop,              ///< the variable of for loop `ref`
    allocation,        ///< x = alloc_window_buffer(...): ref = allocation index
    window,            ///< x = window(ptr, ...): ref = ptr's definition; value = view or -1
    collective_result, ///< x = allreduce(a, ...) etc.: ref = the definition of a
    opaque,            ///< bound to something the pass does not follow
    merge,             ///< ref and value: the two definitions merged
  };
  kind what = kind::unbound;
  std::uint32_t ref = no_index;
  std::int64_t value = 0;
};

template <class Adapter> class variable_table {
  using storage = typename Adapter::storage;
  template <class T> using vec = typename storage::template vector<T>;
  using variable = typename Adapter::variable;
  static constexpr bool dense = Adapter::dense_variables;
  static constexpr std::uint32_t unknown = no_index - 1;
  static constexpr std::uint32_t top = no_index - 2;    ///< reaches nothing yet
  static constexpr std::uint32_t bottom = no_index - 3; ///< reaches two different things

public:
  constexpr variable_table(const Adapter& a, const typename Adapter::program& p) : a_(a) {
    if constexpr (dense)
      vars_.resize(a.variable_bound(p));
  }

  /// Forget the previous function: O(1) for the variables (entries of an older
  /// generation read as unbound), linear in the previous function's definitions.
  constexpr void reset() {
    ++generation_;
    defs_.clear();
    resolutions_.clear();
    on_stack_.clear();
    frames_.clear();
    records_.clear();
    if constexpr (!dense) {
      ids_.clear();
      vars_.clear();
    }
  }

  [[nodiscard]] constexpr std::uint32_t id(variable v) {
    if constexpr (dense) {
      const auto i = a_.variable_index(v);
      if (i >= vars_.size())
        vars_.resize(i + 1); // an adapter whose bound was low: stay correct
      return static_cast<std::uint32_t>(i);
    } else {
      auto [it, fresh] =
          ids_.try_emplace(a_.variable_key(v), static_cast<std::uint32_t>(vars_.size()));
      if (fresh)
        vars_.emplace_back();
      return it->second;
    }
  }

  // ---- during the walk

  /// The definition of variable x that reaches this point of the walk (no_index: none).
  [[nodiscard]] constexpr std::uint32_t use(std::uint32_t x) {
    const std::uint32_t d = current(x);
    if (frames_.empty() || (d != no_index && d >= frames_.back().first_def))
      return d;
    return reach(x, d, false);
  }

  /// A new definition of variable x; returns it.
  constexpr std::uint32_t bind(std::uint32_t x, binding b) {
    const std::uint32_t d = current(x);
    // A first binding needs no merge: "not bound yet" merges as nothing.
    if (!frames_.empty() && d != no_index && d < frames_.back().first_def)
      reach(x, d, true);
    const auto def = make(b);
    vars_[x] = {def, generation_};
    return def;
  }

  /// A statement with children begins (`loop`: its body may run again).
  constexpr void open(bool loop) {
    frames_.emplace_back(frame{static_cast<std::uint32_t>(defs_.size()),
                               static_cast<std::uint32_t>(records_.size()), loop});
  }

  /// The statement ends: its merges get their second definition.
  constexpr void close() {
    const auto depth = static_cast<std::uint32_t>(frames_.size() - 1);
    auto keep = frames_.back().records_begin;
    for (auto r = keep; r < records_.size(); ++r) {
      const record rec = records_[r];
      if (rec.depth != depth) { // an outer statement's: kept for its end
        records_[keep++] = rec;
        continue;
      }
      auto& m = defs_[rec.def];
      const std::uint32_t end = current(rec.variable);
      if (end == rec.def) { // read in a loop that never rebinds it: its entry value
        m = {binding::kind::copy, m.ref, 0};
        vars_[rec.variable] = {m.ref, generation_};
      } else {
        m.value = end;
        vars_[rec.variable] = {rec.def, generation_};
      }
    }
    records_.resize(keep);
    frames_.pop_back();
  }

  // ---- after the walk

  /// Frees the definitions and their resolutions once nothing resolves any more (the
  /// variables' entries stay: they are sized to the program, not the function).
  constexpr void release_definitions() {
    vec<binding>().swap(defs_);
    vec<resolution>().swap(resolutions_);
    vec<std::uint8_t>().swap(on_stack_);
  }

  [[nodiscard]] constexpr const binding& at(std::uint32_t def) const {
    return def < defs_.size() ? defs_[def] : unbound_;
  }
  /// A window definition found to be a view gets its view's index.
  constexpr void set_view(std::uint32_t def, std::uint32_t view) { defs_[def].value = view; }

  /// Follows copies and merges to the one definition they start from, or no_index.
  [[nodiscard]] constexpr std::uint32_t root(std::uint32_t d) {
    if (d == no_index)
      return no_index;
    const auto& b = defs_[d];
    if (b.what != binding::kind::copy && b.what != binding::kind::merge)
      return d;
    const auto r = resolve(d, root_mode);
    return r == top || r == bottom ? no_index : r;
  }

  /// The allocation a window's pointer names (through copies), or no_index.
  [[nodiscard]] constexpr std::uint32_t allocation_of(std::uint32_t d) {
    const auto& b = at(root(d));
    return b.what == binding::kind::allocation ? b.ref : no_index;
  }

  /// The view (index into the function plan's views) a definition resolves to, through
  /// copies, merges and collective results, or no_index.
  [[nodiscard]] constexpr std::uint32_t view_of(std::uint32_t d) {
    if (d == no_index)
      return no_index;
    if (!followed(defs_[d], view_mode)) {
      const auto s = source(d, view_mode);
      return s == bottom ? no_index : s;
    }
    const auto r = resolve(d, view_mode);
    return r == top || r == bottom ? no_index : r;
  }

private:
  enum mode : std::uint8_t { root_mode = 0, view_mode = 1 };

  struct variable_entry {
    std::uint32_t def = no_index;
    std::uint32_t generation = 0;
  };
  /// What resolution keeps per definition, in a table of its own: made only once the
  /// walk is over and a resolution is asked for, so that the walk's definitions stay small.
  /// The flags that say a memo holds a visit index live apart (on_stack_): beside the
  /// memo they would pad each entry from 8 bytes to 12.
  struct resolution {
    std::uint32_t memo[2]{unknown, unknown}; ///< a result; on the stack: the visit index
  };
  struct frame {
    std::uint32_t first_def;
    std::uint32_t records_begin;
    bool loop;
  };
  struct record { ///< a merge to complete when the statement at `depth` ends
    std::uint32_t variable, def, depth;
  };

  constexpr std::uint32_t current(std::uint32_t x) const {
    const auto& v = vars_[x];
    return v.generation == generation_ ? v.def : no_index;
  }

  constexpr std::uint32_t make(binding b) {
    defs_.emplace_back(b);
    return static_cast<std::uint32_t>(defs_.size() - 1);
  }

  /// x is read or bound inside statements that began after its definition d: each of
  /// them gets its merge (loops on a read; any statement on a binding), outermost first.
  /// Returns what the innermost statement sees.
  constexpr std::uint32_t reach(std::uint32_t x, std::uint32_t d, bool binding_it) {
    auto k = frames_.size();
    while (k > 0 && (d == no_index || frames_[k - 1].first_def > d))
      --k;
    std::uint32_t entry = d;
    for (auto i = k; i < frames_.size(); ++i) {
      if (!frames_[i].loop && !binding_it)
        continue; // a read in a branch sees the value before it
      const auto m = make({binding::kind::merge, entry, static_cast<std::int64_t>(no_index)});
      records_.emplace_back(record{x, m, static_cast<std::uint32_t>(i)});
      if (frames_[i].loop) // the loop's reads see the merge; a branch's see the entry
        entry = m;
    }
    vars_[x] = {entry, generation_};
    return entry;
  }

  static constexpr bool followed(const binding& b, mode m) {
    return b.what == binding::kind::copy || b.what == binding::kind::merge ||
           (m == view_mode && b.what == binding::kind::collective_result);
  }
  constexpr std::uint32_t source(std::uint32_t d, mode m) const {
    if (m == root_mode)
      return d;
    const auto& b = defs_[d];
    return b.what == binding::kind::window && b.value >= 0 ? static_cast<std::uint32_t>(b.value)
                                                           : bottom;
  }
  static constexpr std::uint32_t meet(std::uint32_t a, std::uint32_t b) {
    return a == top ? b : b == top ? a : a == b ? a : bottom;
  }
  /// The i-th definition a followed definition leads to, or false past the last.
  constexpr bool edge(std::uint32_t d, std::uint8_t i, std::uint32_t& to) const {
    const auto& b = defs_[d];
    if (i == 0) {
      to = b.ref;
      return true;
    }
    if (i == 1 && b.what == binding::kind::merge) {
      to = static_cast<std::uint32_t>(b.value);
      return true;
    }
    return false;
  }

  /// The meet of every source reachable from d along followed definitions, by an
  /// iterative Tarjan walk: a strongly connected component shares one result.
  constexpr std::uint32_t resolve(std::uint32_t d, mode m) {
    if (resolutions_.size() < defs_.size()) {
      resolutions_.resize(defs_.size());
      on_stack_.resize(defs_.size(), 0);
    }
    auto& res = resolutions_;
    if (res[d].memo[m] != unknown && !(on_stack_[d] & (1u << m)))
      return res[d].memo[m];
    const auto bit = static_cast<std::uint8_t>(1u << m);
    std::uint32_t counter = 0;
    dfs_.clear();
    component_.clear();
    const auto push = [&](std::uint32_t x) {
      res[x].memo[m] = counter;
      on_stack_[x] = static_cast<std::uint8_t>(on_stack_[x] | bit);
      dfs_.emplace_back(visit{x, 0, counter, top});
      component_.emplace_back(x);
      ++counter;
    };
    push(d);
    while (!dfs_.empty()) {
      auto& f = dfs_.back();
      std::uint32_t w = no_index;
      if (edge(f.def, f.next++, w)) {
        if (w == no_index || w >= defs_.size())
          continue; // nothing bound: merges as nothing
        const auto& e = res[w];
        if (!followed(defs_[w], m))
          f.acc = meet(f.acc, source(w, m));
        else if (on_stack_[w] & bit)
          f.low = std::min(f.low, e.memo[m]);
        else if (e.memo[m] != unknown)
          f.acc = meet(f.acc, e.memo[m]);
        else
          push(w); // f is not used after this
        continue;
      }
      const visit done = f;
      dfs_.pop_back();
      if (done.low == res[done.def].memo[m]) { // the root of its component
        for (;;) {
          const auto x = component_.back();
          component_.pop_back();
          res[x].memo[m] = done.acc;
          on_stack_[x] = static_cast<std::uint8_t>(on_stack_[x] & ~bit);
          if (x == done.def)
            break;
        }
      }
      if (!dfs_.empty()) {
        auto& parent = dfs_.back();
        parent.acc = meet(parent.acc, done.acc);
        parent.low = std::min(parent.low, done.low);
      }
    }
    return res[d].memo[m];
  }

  struct visit {
    std::uint32_t def;
    std::uint8_t next;
    std::uint32_t low;
    std::uint32_t acc;
  };

  static constexpr binding unbound_{};
  Adapter a_;
  vec<variable_entry> vars_;
  vec<binding> defs_;
  vec<resolution> resolutions_; ///< by definition, once resolution begins
  vec<std::uint8_t> on_stack_;  ///< by definition: bit m, on the stack of mode m
  vec<frame> frames_;
  vec<record> records_;
  vec<visit> dfs_;
  vec<std::uint32_t> component_;
  std::uint32_t generation_ = 1; ///< entries start at 0: unbound
  template <class T, bool Dense> struct interning {
    using type = std::uint8_t; // unused: the adapter numbers its variables
  };
  template <class T> struct interning<T, false> {
    using key = std::remove_cvref_t<decltype(std::declval<const T&>().variable_key(
        std::declval<variable>()))>;
    using type = std::unordered_map<key, std::uint32_t>;
  };
  typename interning<Adapter, dense>::type ids_{};
};

} // namespace commscope::detail
