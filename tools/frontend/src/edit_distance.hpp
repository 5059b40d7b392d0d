// How far apart two spellings are, for the suggestions of diagnostics (`did you mean`).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace commscope::frontend::detail {

/// The optimal string alignment distance of `a` and `b` (insertions, deletions,
/// substitutions, and transpositions of adjacent characters), or `limit + 1` when it is
/// more than `limit`. Bytes, not code points: names of the DSL are ASCII. Spellings far
/// longer than a name are not compared (limit + 1), so the table stays small.
[[nodiscard]] inline std::size_t edit_distance(std::string_view a, std::string_view b,
                                               std::size_t limit) {
  const std::size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : m - n) > limit || n > 256 || m > 256)
    return limit + 1;
  // Three rows of the table: the one before the previous one serves transpositions.
  std::vector<std::size_t> two(m + 1), one(m + 1), row(m + 1);
  for (std::size_t j = 0; j <= m; ++j)
    one[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    row[0] = i;
    std::size_t best = row[0];
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      std::size_t d = std::min({one[j] + 1, row[j - 1] + 1, one[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d = std::min(d, two[j - 2] + 1);
      row[j] = d;
      best = std::min(best, d);
    }
    if (best > limit)
      return limit + 1;
    std::swap(two, one);
    std::swap(one, row);
  }
  return std::min(one[m], limit + 1);
}

} // namespace commscope::frontend::detail
