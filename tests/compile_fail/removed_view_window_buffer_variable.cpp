// Scope readers whose view_window_buffer takes the variable alone, which the contract no
// longer reads: the error names the (statement, variable) form.
#include "minimal_ir.hpp"

#include <optional>
#include <string_view>
#include <vector>

struct readers : commscope::ir_traits<minimal::program> {
  using window_buffer = int;
  static std::string_view scope_name(statement) { return {}; }
  static std::vector<std::int64_t> scope_devices(statement) { return {}; }
  static std::vector<int> scope_slots(statement) { return {}; }
  static std::optional<int> view_window_buffer(variable) { return std::nullopt; }
  static std::string_view window_buffer_name(int) { return {}; }
  static variable window_buffer_base(int) { return 0; }
  static expression window_buffer_size(int) { return nullptr; }
};

int main() {
  minimal::program p;
  const auto findings = commscope::verify(p, readers{});
  return findings.empty() ? 0 : 1;
}
