// What a rewrite did: the result of both rewriting entry points, `materialize`
// (materialize.hpp) and `synthesize` (synthesize.hpp).
#pragma once

#include <cstdint>

namespace commscope {

enum class rewrite_result : std::uint8_t {
  rejected,  ///< the plan has diagnostics: nothing changed
  unchanged, ///< nothing to write (no allocations, already materialized, no signal-less call)
  rewritten, ///< the hooks ran; an IR rebuilt on rewrite may have released the plan's nodes
};

/// The former name, kept for one release (CHANGELOG.md).
using materialized = rewrite_result;

} // namespace commscope
