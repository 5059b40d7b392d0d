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

  /// Forget the previous function's variables: O(1), entries of an older generation
  /// read as fresh (no list of touched variables to keep and clear).
  constexpr void reset() {
    ++generation_;
    if constexpr (!dense) {
      ids_.clear();
      entries_.clear();
      count_ = 0;
    }
  }

  [[nodiscard]] constexpr std::uint32_t id(variable v) {
    if constexpr (dense) {
      auto i = static_cast<std::size_t>(Traits::variable_index(v));
      if (i >= entries_.size())
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
    auto& e = slot(v);
    e.b = e.b.what == binding::kind::unbound ? b : binding{binding::kind::ambiguous};
  }
  [[nodiscard]] constexpr const binding& at(std::uint32_t v) const { return read(v); }
  constexpr void retarget(std::uint32_t v, binding b) { slot(v).b = b; }

  /// Follows plain copies to the variable they start from. A copy cycle (a = b; b = a)
  /// has no start: it yields v itself, whose binding is a copy, which every caller
  /// treats as "resolves to nothing". (Returning no_index here would make the callers
  /// index their tables out of bounds.)
  [[nodiscard]] constexpr std::uint32_t root(std::uint32_t v) {
    // Most variables are no copy, or a copy of one that is not: nothing to remember.
    const auto& b = read(v);
    if (b.what != binding::kind::copy)
      return v;
    if (read(b.ref).what != binding::kind::copy)
      return b.ref;
    return root_of_chain(v);
  }

  /// The allocation a window's pointer names (through copies), or no_index.
  [[nodiscard]] constexpr std::uint32_t allocation_of(std::uint32_t v) {
    const auto& b = read(root(v));
    return b.what == binding::kind::allocation ? b.ref : no_index;
  }

  /// The view (index into the function plan's views) a variable resolves to, through
  /// copies and collective results, or no_index.
  [[nodiscard]] constexpr std::uint32_t view_of(std::uint32_t v) {
    const auto step = [&](std::uint32_t x, std::uint32_t& next) {
      const auto& b = read(root(x));
      if (b.what == binding::kind::window && b.value >= 0)
        return static_cast<std::uint32_t>(b.value); // set once the window is a view
      if (b.what == binding::kind::collective_result) {
        next = b.ref;
        return unknown;
      }
      return no_index;
    };
    std::uint32_t next = no_index;
    if (const auto r = step(v, next); r != unknown)
      return r; // no collective result on the way: nothing to remember
    return follow(v, memo_view, step);
  }

private:
  enum memo_slot : std::uint8_t { memo_root = 0, memo_view = 1 };

  /// One record per variable: a resolution reads the binding, the memo and the marks
  /// together.
  struct entry {
    binding b{};
    std::uint32_t memo[2]{unknown, unknown};
    std::uint32_t generation = 0; ///< the reset() it belongs to; older reads as fresh
    std::uint8_t state = 0;       ///< bit m: on the path of memo slot m
  };

  /// A binding, read without refreshing a stale entry: resolutions read far more than
  /// they write.
  constexpr const binding& read(std::uint32_t v) const {
    const auto& e = entries_[v];
    return e.generation == generation_ ? e.b : unbound_;
  }
  static constexpr binding unbound_{};

  constexpr entry& slot(std::uint32_t v) {
    auto& e = entries_[v];
    if (e.generation != generation_)
      e = {{}, {unknown, unknown}, generation_, 0};
    return e;
  }

  /// root() of a chain of two or more copies (or of a cycle): memoized. Kept out of
  /// line (as is follow()) so that the common cases of root() and view_of() inline
  /// into their callers without paying this path's register saves.
  [[gnu::noinline]] constexpr std::uint32_t root_of_chain(std::uint32_t v) {
    const auto r = follow(v, memo_root, [&](std::uint32_t x, std::uint32_t& next) {
      const auto& b = read(x);
      if (b.what == binding::kind::copy) {
        next = b.ref;
        return unknown;
      }
      return x;
    });
    return r == no_index ? v : r;
  }

  /// Iterative, memoized, cycle-safe chain following. `step(x, next)` returns a result,
  /// or `unknown` after setting `next` to continue with.
  /// Each memo slot has its own path: view_of's step calls root(), which must not
  /// clobber the path view_of is still building (it would memoize the wrong variables
  /// and leave view_of's "on the path" marks set, so that a later resolution of a
  /// collective result reported a false cycle).
  template <class Step>
  [[gnu::noinline]] constexpr std::uint32_t follow(std::uint32_t v, memo_slot m, Step step) {
    auto& path = paths_[m];
    path.clear();
    std::uint32_t result = no_index;
    for (std::uint32_t x = v;;) {
      auto& e = slot(x);
      if (e.memo[m] != unknown) {
        result = e.memo[m];
        break;
      }
      if (e.state & (1u << m)) { // on the current path: a cycle resolves to nothing
        result = no_index;
        break;
      }
      e.state = static_cast<std::uint8_t>(e.state | (1u << m));
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
      auto& e = entries_[x]; // on the path: of this generation already
      e.memo[m] = result;
      e.state = static_cast<std::uint8_t>(e.state & ~(1u << m));
    }
    return result;
  }

  constexpr void grow(std::size_t n) {
    if (n > entries_.size())
      entries_.resize(n);
  }

  vec<entry> entries_;
  std::uint32_t generation_ = 1; ///< entries start at 0: fresh
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
