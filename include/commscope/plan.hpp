// The analysis result: a value the caller inspects before (or instead of) rewriting.
// It holds IR handles and names, so it lives no longer than the IR it describes
// unchanged (traits.hpp, "Ranges and lifetimes").
#pragma once

#include <commscope/adapter.hpp>
#include <commscope/device_set.hpp>
#include <commscope/diagnostics.hpp>
#include <commscope/traits.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace commscope {

inline constexpr std::uint32_t no_index = 0xffffffffu;

template <class Traits> struct allocation {
  typename Traits::statement statement{}; ///< the allocation's assignment
  typename Traits::variable base{};
  typename Traits::expression size{};
  std::string_view name;
  typename Traits::location where{};
  device_set devices; ///< merged coverage, inheritance included
  std::uint32_t domain = no_index;
  /// Its views: `view_count` of them in function_plan::views, from `first_view` on along
  /// view::next (function_plan::views_of). A list threaded through the views costs the
  /// allocation 8 bytes, where a vector of indices cost 32.
  std::uint32_t first_view = no_index;
  std::uint32_t view_count = 0;
  /// For a function that was already materialized: the existing window buffer.
  window_buffer_t<Traits> existing{};
};

template <class Traits> struct view {
  typename Traits::statement statement{}; ///< the window's assignment
  typename Traits::variable variable{};
  std::uint32_t allocation = no_index;
  std::uint32_t next = no_index; ///< the allocation's next view, in source order
};

/// The views of one allocation in source order, as indices into function_plan::views.
template <class Traits> class view_list {
public:
  class iterator {
  public:
    using value_type = std::uint32_t;
    using difference_type = std::ptrdiff_t;
    constexpr iterator() = default;
    constexpr iterator(const view<Traits>* views, std::uint32_t at) : views_(views), at_(at) {}
    [[nodiscard]] constexpr std::uint32_t operator*() const { return at_; }
    constexpr iterator& operator++() {
      at_ = views_[at_].next;
      return *this;
    }
    constexpr iterator operator++(int) {
      auto old = *this;
      ++*this;
      return old;
    }
    friend constexpr bool operator==(const iterator& x, const iterator& y) {
      return x.at_ == y.at_;
    }

  private:
    const view<Traits>* views_ = nullptr;
    std::uint32_t at_ = no_index;
  };

  constexpr view_list(const view<Traits>* views, std::uint32_t first, std::uint32_t count)
      : views_(views), first_(first), count_(count) {}
  [[nodiscard]] constexpr iterator begin() const { return {views_, first_}; }
  [[nodiscard]] constexpr iterator end() const { return {views_, no_index}; }
  [[nodiscard]] constexpr std::size_t size() const { return count_; }
  [[nodiscard]] constexpr bool empty() const { return count_ == 0; }
  [[nodiscard]] constexpr std::uint32_t front() const { return first_; }

private:
  const view<Traits>* views_;
  std::uint32_t first_;
  std::uint32_t count_;
};

template <class Traits> struct domain {
  device_set devices;
  std::vector<std::uint32_t> slots; ///< allocation indices, in order
  std::string_view name; ///< as read back from the IR; empty means comm_d<index>
};

/// One contribution to an allocation's descriptor, recorded when the analysis is asked
/// for evidence (`analyze(p, traits, with_evidence)`): what `commscope-opt --explain`
/// prints (docs/commscope-opt.md, "Explaining the plan").
template <class Traits> struct contribution {
  enum class kind : std::uint8_t {
    dispatch,  ///< a dispatch passed a view of the allocation
    inherited, ///< a collective passed on the coverage of allocation `from`
  };
  kind what = kind::dispatch;
  std::uint32_t receiver = no_index;    ///< the allocation it explains
  std::uint64_t order = 0;              ///< the call's position: source order
  std::string_view callee;              ///< the dispatched function, or the collective
  typename Traits::location where{};    ///< the call
  device_set devices;                   ///< dispatch: the dispatch's own descriptor
  std::uint32_t passed_view = no_index; ///< dispatch: the view it passed (function_plan::views)
  std::uint32_t from = no_index;        ///< inherited: the allocation passing coverage
  bool from_loop = false;               ///< dispatch: its device is a loop variable
  typename Traits::location loop{};     ///< ... of this loop
};

template <class Traits> struct function_plan {
  enum class state : std::uint8_t {
    analyzed,             ///< allocations found: the rewrite will wrap it
    analysed = analyzed,  ///< the former spelling, kept for one release (CHANGELOG.md)
    no_allocations,       ///< left as the very same object
    already_materialized, ///< its body is a scope: read back, left unchanged
  };
  typename Traits::function function{};
  std::string_view name;
  state status = state::no_allocations;
  std::vector<allocation<Traits>> allocations;
  std::vector<view<Traits>> views;
  std::vector<domain<Traits>> domains;
  /// Recorded only on request; ordered by allocation, then source order.
  std::vector<contribution<Traits>> evidence;

  /// The views of allocation `a`, in source order.
  [[nodiscard]] constexpr view_list<Traits> views_of(std::uint32_t a) const {
    const auto& al = allocations[a];
    return {views.data(), al.first_view, al.view_count};
  }

  /// The evidence of allocation `a`, in source order (empty unless recorded).
  [[nodiscard]] constexpr std::span<const contribution<Traits>> evidence_of(std::uint32_t a) const {
    const auto* first = evidence.data();
    const auto* last = first + evidence.size();
    const auto* lo = std::lower_bound(
        first, last, a, [](const auto& e, std::uint32_t x) { return e.receiver < x; });
    const auto* hi = std::upper_bound(
        lo, last, a, [](std::uint32_t x, const auto& e) { return x < e.receiver; });
    return {lo, static_cast<std::size_t>(hi - lo)};
  }
};

} // namespace commscope

/// A view_list only points into the plan's views: its iterators outlive it (so that
/// `std::ranges::find(fp.views_of(a), v)` gives an iterator, not `dangling`).
template <class Traits>
inline constexpr bool std::ranges::enable_borrowed_range<commscope::view_list<Traits>> = true;

namespace commscope {

/// Asks `analyze` to record evidence (plan.hpp, `evidence`); without it nothing is
/// recorded and nothing is paid.
struct with_evidence_t {
  explicit constexpr with_evidence_t() = default;
};
inline constexpr with_evidence_t with_evidence{};

/// What an entry point that needs the records Needs returns as diagnostics for adapter T:
/// over T's location, or after an unmet requirement the stand-in's (contract/archetype.hpp).
template <class T, class Needs>
using diagnostics_of = std::vector<diagnostic<typename contract::checked<T, Needs>::location>>;

template <class Traits> struct plan {
  std::vector<function_plan<Traits>> functions; ///< host orchestrators
  std::vector<diagnostic<typename Traits::location>> diagnostics;

  [[nodiscard]] constexpr bool ok() const { return diagnostics.empty(); }
};

} // namespace commscope
