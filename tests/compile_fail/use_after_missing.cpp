// With a member missing, the contract's message is the only error even when the caller
// goes on to use the plan as a plan: its fields, its records, materialize, run, verify.
#include "minimal_ir.hpp"

#include <cstddef>
#include <string>

struct incomplete_traits : commscope::ir_traits<minimal::program> {
  // hides the base's: a type that is no function_info
  struct nothing {};
  static nothing allocation_name;
};

int main() {
  minimal::program p;
  const incomplete_traits traits;
  auto plan = commscope::analyze(p, traits);
  std::size_t n = plan.functions.size() + plan.diagnostics.size();
  for (const auto& fp : plan.functions) {
    n += fp.allocations.size() + fp.views.size() + fp.domains.size();
    for (const auto& a : fp.allocations)
      n += a.devices.is_all() ? 1 : a.view_count;
    for (auto v : fp.views_of(0))
      n += v;
    if (fp.name == "host" && fp.allocations[0].name.size() > 0)
      ++n;
  }
  if (!plan.ok() && !plan.diagnostics.empty()) {
    const std::string message = plan.diagnostics[0].message();
    n += message.size() + static_cast<std::size_t>(plan.diagnostics[0].where);
  }
  const auto done = commscope::materialize(p, plan, traits);
  return static_cast<int>(n) + (done == commscope::rewrite_result::rejected ? 1 : 0);
}
