// Device inference: the `device=` expression of one dispatch -> a descriptor or an error
// (docs/semantics.md, "Device descriptors"). Constant loops are judged arithmetically, so
// `range(4000000000)` is rejected without enumerating it.
#pragma once

#include <commscope/detail/collect.hpp>
#include <commscope/detail/variables.hpp>
#include <commscope/detail/vector.hpp>
#include <commscope/device_set.hpp>
#include <commscope/diagnostics.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace commscope::detail {

struct descriptor {
  enum class status : std::uint8_t { devices, empty, error };
  status what = status::devices;
  device_set devices;
  error_code code{};
  std::int64_t number = 0;
  /// The loop that gave the set, or whose variable could not give one, if any.
  std::uint32_t loop = no_index;
  reason why = reason::none; ///< error: what of the device= the pass could not follow
};

/// A loop bound or device value after following copies and constant temporaries.
struct bound {
  enum class kind : std::uint8_t { unknown, integer, world_size };
  kind what = kind::unknown;
  std::int64_t value = 0; ///< world_size: the C of `world_size() - C`
};

/// The error `c`; `n` the number its message names (a device), if any.
constexpr descriptor error_descriptor(error_code c, std::int64_t n = 0, reason why = reason::none) {
  return {descriptor::status::error, {}, c, n, no_index, why};
}

/// range(start, stop, step) over constants, devices below `limit`: the exact set, judged
/// before enumeration.
[[gnu::noinline]] constexpr descriptor range_descriptor_impl(std::int64_t start, std::int64_t stop,
                                                             std::int64_t step,
                                                             std::int64_t limit) {
  if (step == 0)
    return error_descriptor(error_code::unsupported_device, 0, reason::device_loop_step);
  const bool up = step > 0;
  if (up ? start >= stop : start <= stop)
    return {descriptor::status::empty, {}, {}, 0};
  // Unsigned arithmetic: the distance of two int64 always fits in uint64.
  const std::uint64_t stride =
      up ? static_cast<std::uint64_t>(step) : std::uint64_t{0} - static_cast<std::uint64_t>(step);
  const std::uint64_t span =
      up ? static_cast<std::uint64_t>(stop) - static_cast<std::uint64_t>(start)
         : static_cast<std::uint64_t>(start) - static_cast<std::uint64_t>(stop);
  const std::uint64_t count = (span - 1) / stride + 1;
  const std::uint64_t reach = (count - 1) * stride; // < span: no overflow
  const std::int64_t last = static_cast<std::int64_t>(
      up ? static_cast<std::uint64_t>(start) + reach : static_cast<std::uint64_t>(start) - reach);
  const std::int64_t lo = up ? start : last;
  const std::int64_t hi = up ? last : start;
  if (lo < 0)
    return error_descriptor(error_code::negative_device, lo);
  if (hi >= limit)
    return error_descriptor(error_code::device_out_of_range, hi);
  device_set::builder b;
  if (stride == 1) {
    b.add(device_interval{lo, hi});
  } else {
    for (std::int64_t d = lo;; d += static_cast<std::int64_t>(stride)) {
      b.add(device_interval{d, d});
      if (hi - d < static_cast<std::int64_t>(stride))
        break;
    }
  }
  return {descriptor::status::devices, b.finish(), {}, 0};
}
constexpr descriptor range_descriptor(std::int64_t start, std::int64_t stop, std::int64_t step,
                                      std::int64_t limit) {
  COMMSCOPE_RUN_COMPILED(range_descriptor(start, stop, step, limit));
  return range_descriptor_impl(start, stop, step, limit);
}

/// The descriptor of a for loop's range from its resolved bounds; `symbolic`: whether
/// `range(start, world_size() - C, step)` is a progression (else only the whole world is).
[[gnu::noinline]] constexpr descriptor loop_descriptor_impl(bound start, bound stop, bound step,
                                                            bool symbolic, std::int64_t limit) {
  using K = bound::kind;
  if (stop.what == K::world_size) {
    if (start.what != K::integer || step.what != K::integer)
      return error_descriptor(error_code::unsupported_device, 0, reason::device_loop_bounds);
    if (start.value == 0 && step.value == 1 && stop.value == 0)
      return {descriptor::status::devices, device_set::all(), {}, 0};
    if (symbolic && start.value >= 0 && step.value >= 1 && stop.value >= 0) {
      if (start.value >= limit)
        return error_descriptor(error_code::device_out_of_range, start.value);
      return {descriptor::status::devices,
              device_set::progression({start.value, step.value, stop.value}),
              {},
              0};
    }
    return error_descriptor(error_code::partial_world_range, 0);
  }
  if (start.what != K::integer || stop.what != K::integer || step.what != K::integer)
    return error_descriptor(error_code::unsupported_device, 0, reason::device_loop_bounds);
  return range_descriptor(start.value, stop.value, step.value, limit);
}
constexpr descriptor loop_descriptor(bound start, bound stop, bound step, bool symbolic,
                                     std::int64_t limit) {
  COMMSCOPE_RUN_COMPILED(loop_descriptor(start, stop, step, symbolic, limit));
  return loop_descriptor_impl(start, stop, step, symbolic, limit);
}

template <class Adapter> class device_inference {
  using expression = typename Adapter::expression;
  static constexpr std::int64_t limit = Adapter::device_limit;

public:
  constexpr device_inference(const Adapter& a, variable_table<Adapter>& vars,
                             const function_facts<Adapter>& facts)
      : a_(a), vars_(vars), facts_(facts),
        loops_(std::min<std::size_t>(facts.loops.size(), cached_loops)) {}

  /// The descriptor of one dispatch, valid until the next call.
  [[nodiscard]] constexpr const descriptor& infer(const dispatch_site<Adapter>& d) {
    switch (d.form) { // judged by the walk (collect.hpp, device_form)
    case device_form::small_integer:
      return constant(d.device_def);
    case device_form::integer:
      return constant(a_.integer_value(*a_.device_of(d.call)));
    case device_form::variable:
      break;
    case device_form::other:
    case device_form::reported: // never inferred (function_analysis.hpp)
      return unsupported(reason::device_expression);
    }
    const auto root = vars_.root(d.device_def);
    if (root == no_index && d.device_def != no_index)
      return merged(d);
    return of_binding(vars_.at(root), d);
  }

  /// The descriptor of a device variable bound to b.
  [[nodiscard]] constexpr const descriptor& of_binding(const binding& b,
                                                       const dispatch_site<Adapter>& d) {
    if (b.what == binding::kind::integer)
      return constant(b.value);
    if (b.what != binding::kind::loop)
      return unsupported(reason::device_variable);
    const auto& loop = facts_.loops[b.ref];
    if (!loop.counted || !(loop.begin < d.order && d.order < loop.end))
      return unsupported(reason::device_loop_ended, b.ref); // not an enclosing for loop
    // Every dispatch inside one loop gets the loop's descriptor: judge it once.
    auto& cached = loops_[b.ref % loops_.size()];
    if (cached.loop != b.ref) {
      cached.loop = b.ref;
      cached.desc = of_loop(loop.bounds);
      cached.desc.loop = b.ref;
    }
    return cached.desc;
  }

  // This and the descriptors below are out of line: inlined into infer(), they were
  // compiled again in each of its callers, and the analysis ran no faster for it.

  /// A device variable that several bindings reach (docs/semantics.md, "Rebinding and
  /// control flow"): the union of their descriptors; the first error of one is the
  /// dispatch's.
  [[nodiscard, gnu::noinline]] constexpr const descriptor& merged(const dispatch_site<Adapter>& d) {
    merged_ = {descriptor::status::empty, {}, {}, 0};
    bool failed = false;
    vars_.sources(d.device_def, [&](std::uint32_t src) {
      if (failed)
        return;
      const auto& one =
          src == no_index ? unsupported(reason::device_variable) : of_binding(vars_.at(src), d);
      switch (one.what) {
      case descriptor::status::error:
        failed = true;
        merged_ = one;
        return;
      case descriptor::status::empty:
        return;
      case descriptor::status::devices:
        merged_.what = descriptor::status::devices;
        merged_.devices.accumulate(one.devices);
        if (merged_.loop == no_index)
          merged_.loop = one.loop;
        return;
      }
    });
    if (merged_.what == descriptor::status::devices)
      merged_.devices.normalize();
    return merged_;
  }

  /// The descriptor of `for r in range(start, stop, step)`, for a dispatch inside it.
  [[nodiscard]] constexpr descriptor of_loop(const loop_bounds<operand_site<Adapter>>& bounds) {
    return loop_descriptor(resolve(bounds.start), resolve(bounds.stop), resolve(bounds.step),
                           Adapter::symbolic, limit);
  }

  /// Follows a bound through copies to a constant, world_size() or (symbolic only)
  /// `world_size() - C`.
  [[nodiscard]] constexpr bound resolve(const operand_site<Adapter>& o) {
    if (o.form == operand_form::small_integer)
      return {bound::kind::integer, o.def};
    if (o.form == operand_form::wide_integer)
      return {bound::kind::integer, facts_.wide_integers[o.def]};
    const expression e = o.expression;
    switch (a_.expression_kind_of(e)) {
    case expression_kind::integer:
      return {bound::kind::integer, a_.integer_value(e)};
    case expression_kind::call:
      return is_world_size(e) ? bound{bound::kind::world_size, 0} : bound{};
    case expression_kind::variable: {
      const binding& b = vars_.at(vars_.root(o.def));
      if (b.what == binding::kind::integer)
        return {bound::kind::integer, b.value};
      if (b.what == binding::kind::world_size)
        return {bound::kind::world_size, 0};
      if (b.what == binding::kind::world_offset &&
          (b.ref == no_index || vars_.at(vars_.root(b.ref)).what == binding::kind::world_size))
        return {bound::kind::world_size, b.value};
      return {};
    }
    case expression_kind::other:
      if constexpr (Adapter::symbolic) // `y - C`: o.def is y's definition
        if (const auto d = a_.minus_constant(e)) {
          const auto k = a_.expression_kind_of(d->first);
          if ((k == expression_kind::call && is_world_size(d->first)) ||
              (k == expression_kind::variable &&
               vars_.at(vars_.root(o.def)).what == binding::kind::world_size))
            return {bound::kind::world_size, d->second};
        }
      return {};
    }
    return {};
  }

  [[nodiscard]] constexpr bool is_world_size(expression e) const {
    const call_target t = a_.call_target_of(e);
    return t.what == call_target::kind::operation && t.op == operation::world_size &&
           count_of(a_.arguments(e)) == 0;
  }

private:
  /// A device the pass cannot follow, in scratch_; `why` says what of it, `loop` the loop
  /// its variable comes from, if one.
  [[gnu::noinline]] constexpr const descriptor& unsupported(reason why,
                                                            std::uint32_t loop = no_index) {
    scratch_ = error_descriptor(error_code::unsupported_device, 0, why);
    scratch_.loop = loop;
    return scratch_;
  }
  /// A constant device, written into scratch_ in place: most dispatches of a program
  /// name one, and a fresh set per dispatch would be built and moved each time.
  [[gnu::noinline]] constexpr const descriptor& constant(std::int64_t v) {
    if (v < 0)
      return scratch_ = error_descriptor(error_code::negative_device, v);
    if (v >= limit)
      return scratch_ = error_descriptor(error_code::device_out_of_range, v);
    scratch_.what = descriptor::status::devices;
    scratch_.devices.assign(device_interval{v, v});
    scratch_.code = {};
    scratch_.number = 0;
    scratch_.loop = no_index;
    scratch_.why = reason::none;
    return scratch_;
  }

  /// Loops' descriptors, direct-mapped by loop index: a loop's dispatches come one after
  /// another in source order, so that a loop is judged about once, in room that does not
  /// grow past 64 entries (an entry per loop was 9 bytes per allocation at the analysis'
  /// peak on the benchmarks' programs), and none for a function without loops.
  static constexpr std::size_t cached_loops = 64;
  struct cached_loop {
    std::uint32_t loop = no_index;
    descriptor desc;
  };

  const Adapter& a_;
  variable_table<Adapter>& vars_;
  const function_facts<Adapter>& facts_;
  vec<cached_loop> loops_;
  descriptor scratch_;
  descriptor merged_; ///< merged()'s
};

/// W of docs/semantics.md, "Symbolic device sets": the smallest world that can run a host
/// orchestrator. A dispatch bounds it only when it runs whenever the function does (a
/// guarded `if world_size() > 10: f(device=10)` says nothing of smaller worlds), and then
/// by the least device it may use (its device may be one of several). The analysis and
/// the verifier both take it from the dispatches, so they judge canonical forms alike.
struct smallest_world {
  device_id value = 1;
  template <class Site> constexpr void widen(const Site& dispatch, const descriptor& d) {
    if (!dispatch.surely_runs || d.what != descriptor::status::devices)
      return;
    const auto ids = d.devices.intervals();
    if (!ids.empty() && !d.devices.has_progressions() && ids.front().first >= value)
      value = ids.front().first + 1;
  }
};

/// W for the function whose facts are `facts` (collected into `vars`).
template <class Adapter>
constexpr device_id smallest_world_of(const Adapter& a, variable_table<Adapter>& vars,
                                      const function_facts<Adapter>& facts) {
  device_inference<Adapter> infer(a, vars, facts);
  smallest_world w;
  for (const auto& d : facts.dispatches)
    if (d.form != device_form::reported && d.surely_runs)
      w.widen(d, infer.infer(d));
  return w.value;
}

} // namespace commscope::detail
