// Names the passes make up from a stem and a number (`comm_d3`,
// `__allreduce_signal_buf_2`), in fixed buffers: they are made in constant evaluation
// too, where clang 19 with libstdc++ 12 cannot build a std::string.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace commscope::detail {

/// `stem` followed by the decimal digits of `n`; a stem longer than the room left for
/// twenty digits is cut.
template <std::size_t Capacity> class numbered_name {
  static_assert(Capacity > 20, "room for the digits of any 64-bit number");

public:
  constexpr numbered_name(std::string_view stem, std::uint64_t n) {
    for (std::size_t i = 0; i < stem.size() && size_ < Capacity - 20; ++i)
      text_[size_++] = stem[i];
    std::array<char, 20> digits{};
    std::size_t k = 0;
    do {
      digits[k++] = static_cast<char>('0' + n % 10);
      n /= 10;
    } while (n != 0);
    while (k > 0)
      text_[size_++] = digits[--k];
  }
  [[nodiscard]] constexpr std::string_view view() const { return {text_.data(), size_}; }

private:
  std::array<char, Capacity> text_{};
  std::size_t size_ = 0;
};

} // namespace commscope::detail
