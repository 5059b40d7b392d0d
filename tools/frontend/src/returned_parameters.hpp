// What a function of the module may return of what it is given (docs/commscope-opt.md,
// "What a chip function returns"): read from its tokens, since the front end parses only
// host bodies. A host that dispatches again, or stores, what a chip orchestrator returned
// of a view it was given uses that view: the analysis follows it there.
#pragma once

#include "module_scan.hpp"
#include "tokens.hpp"

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace commscope::frontend::detail {

/// A function's parameters, in order (a method's without its receiver), and which of them
/// its value may be (part of): bit k for the k-th, bit 63 for the 63rd and every later one.
struct returned_parameters {
  std::vector<std::string_view> names;
  std::uint64_t mask = ~std::uint64_t{0};
};

/// For the functions of the DSL the module defines, what each may return (any other
/// definition: any argument); computed when asked for, to a fixed point over the calls
/// among the function and those it calls.
class returned_parameter_table {
public:
  returned_parameter_table(const token_stream& ts, const module_scan& scan);
  /// Definition d's (an index into scan.definitions), read with the functions it calls
  /// the first time it is asked for.
  const returned_parameters& of(std::uint32_t d);

private:
  void parameters(std::uint32_t d);
  /// One evaluation of d's body with the callees' current answers: whether d's changed.
  bool evaluate(std::uint32_t d);
  /// Sets d's mask; whether it changed.
  bool set_mask(std::uint32_t d, std::uint64_t mask);
  /// Whether the statement [b, e) calls a method that keeps its argument on a name.
  [[nodiscard]] bool stores_into_call(std::uint32_t b, std::uint32_t e) const;
  /// Calls argument(b, e, kept) for each argument of the call whose '(' is at `open`:
  /// kept when `answer` (the callee's; none: an operation that makes a new value) may
  /// return what it is passed for. Returns the index of the ')'.
  template <class F>
  std::uint32_t split_arguments(std::uint32_t open, std::uint32_t end,
                                const returned_parameters* answer, F&& argument) const;
  /// The definition a call's callee names (`step`, `self.step`), or -1.
  [[nodiscard]] std::int32_t callee(std::uint32_t d, std::uint32_t b, std::uint32_t e) const;

  const token_stream& ts_;
  const module_scan& scan_;
  std::vector<returned_parameters> table_;
  std::vector<bool> variadic_; ///< takes *args or **kwargs: any argument may be returned
  enum : std::uint8_t { unread, pending, done };
  std::vector<std::uint8_t> state_;    ///< per definition: its answer's
  std::vector<std::uint32_t> closure_; ///< of(): the functions read to a fixed point
  /// The DSL functions by the name they are called by.
  std::unordered_multimap<std::string_view, std::uint32_t> by_name_;
};

} // namespace commscope::frontend::detail
