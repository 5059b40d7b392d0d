// The name the rewrite gives the scope of a domain: `comm_d<index>`.
#pragma once

#include <commscope/detail/numbered_name.hpp>

#include <cstddef>

namespace commscope::detail {

/// The name of domain `index`'s scope: "comm_d<index>". The one place it is spelled.
struct domain_name : numbered_name<32> {
  constexpr explicit domain_name(std::size_t index) : numbered_name<32>("comm_d", index) {}
};

} // namespace commscope::detail
