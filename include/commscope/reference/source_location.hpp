// A place in the source a node was read from: what diagnostics point at.
#pragma once

#include <cstdint>

namespace commscope::reference {

struct source_location {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  friend constexpr bool operator==(source_location, source_location) = default;
};

} // namespace commscope::reference
