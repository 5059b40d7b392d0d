// Layer 4, signal synthesis (`plan_signals`, `synthesize_signals`,
// `run(p, traits, with_signal_synthesis)`; docs/semantics.md, "The companion pass"): its
// analysis needs the core and names_in_use; its rewrite one hook more, called only when
// the whole program is valid. `statement_kind::return_` is optional: without it an
// allreduce that is a returned value counts as nested in an expression.
#pragma once

#include <commscope/contract/core.hpp>

#include <cstdint>
#include <string_view>

namespace commscope {

namespace contract {

/// Every name the program uses (variables, parameters, functions, globals); fresh names
/// are chosen outside it.
COMMSCOPE_REQUIRED(signals, names_in_use, (const program&), range_of<std::string_view>);
/// An allreduce's core_num=, 1 when absent, <= 0 when it is no positive integer constant.
/// Default: always 1.
COMMSCOPE_OPTIONAL(signals, core_num_of, (expression), std::int64_t, { return std::int64_t{1}; });

/// Optional, for an IR rebuilt on rewrite: the state of signal insertion. insert_signal
/// then takes it first; without it, none.
COMMSCOPE_HANDLE(signals, optional, signal_rewriter, detail::any_type,
                 "the state of signal insertion");
/// With `using signal_rewriter`: the state of one insertion.
COMMSCOPE_OPTIONAL(signals, begin_signals, (program&), signal_rewriter,
                   { return signal_rewriter(); });
/// With `using signal_rewriter`: publishes the result.
COMMSCOPE_OPTIONAL(signals, commit_signals, (signal_rewriter&, program&), anything, {});
COMMSCOPE_RULE(signal_rewriter_members,
               "`using signal_rewriter` needs `signal_rewriter begin_signals(program&)` and "
               "`void commit_signals(signal_rewriter&, program&)`",
               !signal_rewriter::declared<T> ||
                   (begin_signals::given<T> && commit_signals::given<T>));

/// Binds, immediately before spec.statement, the spec's three names to world_size(), an
/// allocation of `world_size * cores * 4` bytes and an INT32 window [world_size, cores]
/// of it; then makes the signal window the second positional argument of spec.call.
COMMSCOPE_HOOK(signals, insert_signal, signal_rewriter, (const signal_spec<Traits>&), anything);

/// What signal synthesis' analysis needs on top of the core.
using signal_analysis = records<names_in_use, core_num_of>;
/// What its rewrite needs more.
using signal_rewrite =
    records<signal_rewriter, begin_signals, commit_signals, signal_rewriter_members, insert_signal>;

} // namespace contract

template <class T> using signal_rewriter_t = typename contract::names<T>::signal_rewriter;

} // namespace commscope
