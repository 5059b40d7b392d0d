// Scope readers whose window_buffer handle has no order: `verify` says so, instead of an
// error from inside std::less.
#include "minimal_ir.hpp"

struct handle {
  int id = 0;
  friend bool operator==(handle, handle) = default;
};

struct readers : commscope::ir_traits<minimal::program> {
  using window_buffer = handle;
  static std::string_view scope_name(statement) { return {}; }
  static std::vector<std::int64_t> scope_devices(statement) { return {}; }
  static std::vector<handle> scope_slots(statement) { return {}; }
  static std::optional<handle> view_window_buffer(statement, variable) { return std::nullopt; }
  static std::string_view window_buffer_name(handle) { return {}; }
  static variable window_buffer_base(handle) { return 0; }
  static expression window_buffer_size(handle) { return nullptr; }
};

int main() {
  minimal::program p;
  const auto findings = commscope::verify(p, readers{});
  return findings.empty() ? 0 : 1;
}
