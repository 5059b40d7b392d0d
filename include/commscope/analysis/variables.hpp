// Per-variable bookkeeping of one function: what each variable is bound to, and the
// resolutions of pass.md ("Resolution of a variable to a view"; the copies and constant
// temporaries of "Device descriptors"). The tables live outside the IR, keyed by a
// dense id: the adapter's variable_index when it has one, else an interned key.
//
// Every resolution is iterative and memoized, so a chain of a million copies resolves in
// linear total time without growing the call stack, and a cycle resolves to nothing.
#pragma once

#include <commscope/concepts.hpp>
#include <commscope/plan.hpp>

#include <cstdint>
#include <type_traits>
#include <unordered_map>

namespace commscope::analysis {

/// What an assignment (or a for loop) bound a variable to.
struct binding {
  enum class kind : std::uint8_t {
    unbound,           ///< no binding seen (a parameter, a value from outside)
    copy,              ///< x = y: ref = y's id
    integer,           ///< x = N: value
    world_size,        ///< x = world_size()
    loop,              ///< the variable of for loop `ref`
    allocation,        ///< x = alloc_window_buffer(...): ref = allocation index
    window,            ///< x = window(ptr, ...): ref = ptr's id when ptr is a variable
    collective_result, ///< x = allreduce(a, ...) etc.: ref = the id it resolves through
    opaque,            ///< bound to something the pass does not follow
    ambiguous,         ///< bound more than once: followed no further
  };
  kind what = kind::unbound;
  std::uint32_t ref = no_index;
  std::int64_t value = 0;
};

template <class Traits>
class variable_table {
  using storage = storage_t<Traits>;
  template <class T>
  using vec = typename storage::template vector<T>;
  using variable = typename Traits::variable;
  static constexpr bool dense = numbers_variables<Traits>;
  static constexpr std::uint32_t unknown = no_index - 1;

public:
  constexpr explicit variable_table(const typename Traits::program& p) {
    if constexpr (dense)
      grow(static_cast<std::size_t>(Traits::variable_bound(p)));
  }

  /// Forget the previous function's variables (cost proportional to what it touched).
  constexpr void reset() {
    if constexpr (dense) {
      for (auto id : touched_)
        clear(id);
      touched_.clear();
    } else {
      ids_.clear();
      bindings_.clear();
      memo_.clear();
      state_.clear();
      count_ = 0;
    }
  }

  [[nodiscard]] constexpr std::uint32_t id(variable v) {
    if constexpr (dense) {
      auto i = static_cast<std::size_t>(Traits::variable_index(v));
      if (i >= bindings_.size())
        grow(i + 1); // an adapter whose bound was low: stay correct
      return static_cast<std::uint32_t>(i);
    } else {
      auto [it, fresh] = ids_.try_emplace(Traits::variable_key(v), count_);
      if (fresh) {
        ++count_;
        grow(count_);
      }
      return it->second;
    }
  }

  /// Records a binding; a second binding of the same variable makes it ambiguous.
  constexpr void bind(std::uint32_t v, binding b) {
    touch(v);
    auto& slot = bindings_[v];
    slot = slot.what == binding::kind::unbound ? b : binding{binding::kind::ambiguous};
  }
  [[nodiscard]] constexpr const binding& at(std::uint32_t v) const { return bindings_[v]; }
  constexpr void retarget(std::uint32_t v, binding b) { bindings_[v] = b; }

  /// Follows plain copies to the variable they start from. A copy cycle (a = b; b = a)
  /// has no start: it yields v itself, whose binding is a copy, which every caller
  /// treats as "resolves to nothing". (Returning no_index here would make the callers
  /// index their tables out of bounds.)
  [[nodiscard]] constexpr std::uint32_t root(std::uint32_t v) {
    const auto r = follow(v, memo_root, [&](std::uint32_t x, std::uint32_t& next) {
      const auto& b = bindings_[x];
      if (b.what == binding::kind::copy) {
        next = b.ref;
        return unknown;
      }
      return x;
    });
    return r == no_index ? v : r;
  }

  /// The allocation a window's pointer names (through copies), or no_index.
  [[nodiscard]] constexpr std::uint32_t allocation_of(std::uint32_t v) {
    const auto& b = bindings_[root(v)];
    return b.what == binding::kind::allocation ? b.ref : no_index;
  }

  /// The view (index into the function plan's views) a variable resolves to, through
  /// copies and collective results, or no_index.
  [[nodiscard]] constexpr std::uint32_t view_of(std::uint32_t v) {
    return follow(v, memo_view, [&](std::uint32_t x, std::uint32_t& next) {
      const auto& b = bindings_[root(x)];
      if (b.what == binding::kind::window && b.value >= 0)
        return static_cast<std::uint32_t>(b.value); // set once the window is a view
      if (b.what == binding::kind::collective_result) {
        next = b.ref;
        return unknown;
      }
      return no_index;
    });
  }

private:
  enum memo_slot : std::uint8_t { memo_root = 0, memo_view = 1 };

  /// Iterative, memoized, cycle-safe chain following. `step(x, next)` returns a result,
  /// or `unknown` after setting `next` to continue with.
  /// Each memo slot has its own path: view_of's step calls root(), which must not
  /// clobber the path view_of is still building (it would memoize the wrong variables
  /// and leave view_of's "on the path" marks set, so that a later resolution of a
  /// collective result reported a false cycle).
  template <class Step>
  constexpr std::uint32_t follow(std::uint32_t v, memo_slot m, Step step) {
    auto& path = paths_[m];
    path.clear();
    std::uint32_t result = no_index;
    for (std::uint32_t x = v;;) {
      auto& memo = memo_[x][m];
      if (memo != unknown) {
        result = memo;
        break;
      }
      const auto st = state_[x];
      if (st & (1u << m)) { // on the current path: a cycle resolves to nothing
        result = no_index;
        break;
      }
      state_[x] = static_cast<std::uint8_t>(st | (1u << m));
      path.push_back(x);
      std::uint32_t next = no_index;
      auto r = step(x, next);
      if (r != unknown) {
        result = r;
        break;
      }
      x = next;
    }
    for (auto x : path) {
      touch(x);
      memo_[x][m] = result;
      state_[x] = static_cast<std::uint8_t>(state_[x] & ~(1u << m));
    }
    return result;
  }

  constexpr void grow(std::size_t n) {
    if (n <= bindings_.size())
      return;
    bindings_.resize(n);
    memo_.resize(n, {unknown, unknown});
    state_.resize(n, 0);
  }
  static constexpr std::uint8_t in_touched = 4;
  constexpr void touch(std::uint32_t x) {
    if constexpr (dense)
      if (!(state_[x] & in_touched)) {
        state_[x] = static_cast<std::uint8_t>(state_[x] | in_touched);
        touched_.push_back(x);
      }
  }
  constexpr void clear(std::uint32_t id) {
    bindings_[id] = {};
    memo_[id] = {unknown, unknown};
    state_[id] = 0;
  }

  struct memo_pair {
    std::uint32_t slot[2];
    constexpr std::uint32_t& operator[](std::size_t i) { return slot[i]; }
  };

  vec<binding> bindings_;
  vec<memo_pair> memo_;
  vec<std::uint8_t> state_;
  vec<std::uint32_t> touched_;
  vec<std::uint32_t> paths_[2];
  template <class T, bool Dense>
  struct interning {
    using type = std::uint8_t; // unused: the adapter numbers its variables
  };
  template <class T>
  struct interning<T, false> {
    using key = std::remove_cvref_t<decltype(T::variable_key(std::declval<variable>()))>;
    using type = std::unordered_map<key, std::uint32_t>;
  };
  typename interning<Traits, dense>::type ids_{};
  std::uint32_t count_ = 0;
};

} // namespace commscope::analysis
