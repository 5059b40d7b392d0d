// After an unmet requirement the entry points return real results over the stand-in
// (contract/archetype.hpp): every field of the plan and of its records is read, every
// member of the plan, of its device sets and of its diagnostics is called, and every
// entry point is called on them, and the contract's message stays the only error.
#include "minimal_ir.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

struct incomplete_traits : commscope::ir_traits<minimal::program> {
  // hides the base's: no allocation_name(expression)
  struct nothing {};
  static nothing allocation_name;
};

std::size_t use(const commscope::device_set& s) {
  std::size_t n = s.size() + (s.is_all() ? 1 : 0) + (s.is_bottom() ? 1 : 0);
  n += s.has_progressions() ? 1 : 0;
  n += s.contains(3) ? 1 : 0;
  n += s.contains(3, 8) ? 1 : 0;
  n += s.at_world(8).size();
  for (const auto& i : s.intervals())
    n += static_cast<std::size_t>(i.last - i.first);
  for (const commscope::device_progression p : s.progressions())
    n += p.holds(2) ? 1 : 0;
  s.for_each([&](commscope::device_id d) { n += static_cast<std::size_t>(d); });
  n += s.includes(commscope::device_set::single(2), 8) ? 1 : 0;
  n += s.canonical(4).size();
  commscope::device_set t = s;
  n += t.join(s) ? 1 : 0;
  n += t.canonicalize(4) ? 1 : 0;
  return n + (t == s ? 1 : 0);
}

template <class Diagnostics> std::size_t use_diagnostics(const Diagnostics& diagnostics) {
  std::size_t n = 0;
  for (const auto& d : diagnostics) {
    n += d.message().size() + d.subject.size() + d.object.size() + d.order;
    n += static_cast<std::size_t>(d.code) + static_cast<std::size_t>(d.why);
    n += static_cast<std::size_t>(d.device + d.limit + d.depth + d.arity + d.expected_arity +
                                  d.argument + d.other_argument + d.more);
    n += d.help().size();
    for (const auto& note : d.notes)
      n += note.message().size() + note.subject.size() + static_cast<std::size_t>(note.what);
  }
  return n;
}

int main() {
  minimal::program p;
  const incomplete_traits traits;
  auto plan = commscope::analyze(p, traits);
  std::size_t n = plan.ok() ? 0 : use_diagnostics(plan.diagnostics);
  for (const auto& fp : plan.functions) {
    n += fp.name.size() + static_cast<std::size_t>(fp.status);
    n += fp.allocations.size() + fp.views.size() + fp.domains.size() + fp.evidence.size();
    for (const auto& a : fp.allocations) {
      n += a.name.size() + a.domain + a.first_view + a.view_count + use(a.devices);
      const auto copy = a;
      n += copy.statement == a.statement ? 1 : 0;
      n += copy.base == a.base && copy.size == a.size && copy.existing == a.existing ? 1 : 0;
    }
    for (const auto& v : fp.views)
      n += v.allocation + v.next + (v.variable == fp.views[0].variable ? 1 : 0);
    for (const auto& d : fp.domains) {
      n += d.name.size() + d.slots.size() + use(d.devices);
      for (auto s : d.slots)
        n += s;
    }
    for (const auto& e : fp.evidence)
      n += e.receiver + e.order + e.callee.size() + use(e.devices) + e.passed_view + e.from +
           (e.from_loop ? 1 : 0) + static_cast<std::size_t>(e.what);
    const auto views = fp.views_of(0);
    n += views.size() + views.front() + (views.empty() ? 1 : 0);
    for (auto v : views)
      n += v;
    n += fp.evidence_of(0).size();
  }
  const auto done = commscope::materialize(p, plan, traits);
  n += use_diagnostics(commscope::run(p, traits));
  n += use_diagnostics(commscope::verify(p, traits));
  auto signals = commscope::plan_signals(p, traits);
  for (const auto& site : signals.sites)
    n += static_cast<std::size_t>(site.cores) + site.index;
  n += commscope::synthesize(p, signals, traits) == commscope::rewrite_result::rejected ? 1 : 0;
  n += use_diagnostics(commscope::synthesize_signals(p, traits));
  n += use_diagnostics(commscope::run(p, traits, commscope::with_signal_synthesis));
  return static_cast<int>(n) + (done == commscope::rewrite_result::rejected ? 1 : 0);
}
