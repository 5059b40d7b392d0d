// A byte count as commscope-opt prints it, in pictures and in text: `1,024 B`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace commscope::opt {

/// `n` bytes with its thousands separated by commas: `0 B`, `1,024 B`, `-4,096 B` (a
/// size that folds to a negative number is shown as it folds, for its diagnostic).
inline std::string bytes_text(std::int64_t n) {
  // The magnitude as unsigned: that of the smallest int64 does not fit an int64.
  const bool negative = n < 0;
  std::uint64_t m = static_cast<std::uint64_t>(n);
  if (negative)
    m = ~m + 1;
  // Digits from the last, a comma before every third; 20 digits and 6 commas at most.
  char reversed[32] = {};
  int length = 0;
  int digits = 0;
  do {
    if (digits != 0 && digits % 3 == 0)
      reversed[length++] = ',';
    reversed[length++] = static_cast<char>('0' + m % 10);
    ++digits;
    m /= 10;
  } while (m != 0);
  std::string out;
  out.reserve(static_cast<std::size_t>(length) + 3);
  if (negative)
    out += '-';
  while (length > 0)
    out += reversed[--length];
  out += " B";
  return out;
}

/// A size as written with the bytes it folds to (`256 * 4 = 1,024 B`): the bytes alone
/// when the size is that very number (`8 = 8 B` would say it twice), the size alone when
/// it does not fold.
inline std::string size_with_bytes(std::string_view size, std::optional<std::int64_t> bytes) {
  if (!bytes)
    return std::string(size);
  std::string shown = bytes_text(*bytes);
  if (size.empty() || size == std::to_string(*bytes))
    return shown;
  return std::string(size) + " = " + shown;
}

} // namespace commscope::opt
