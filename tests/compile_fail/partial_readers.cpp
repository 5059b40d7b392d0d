// An adapter that gives two of the scope readers: without the rest it could not recognize
// a body it materialized, and a second run would wrap it again. `analyze` names the first
// reader missing instead of running without any.
#include "minimal_ir.hpp"

#include <span>
#include <string_view>

struct partial_traits : commscope::ir_traits<minimal::program> {
  static std::string_view scope_name(statement) { return {}; }
  static std::span<const std::int64_t> scope_devices(statement) { return {}; }
};

int main() {
  minimal::program p;
  const auto plan = commscope::analyze(p, partial_traits{});
  return plan.ok() ? 0 : 1;
}
