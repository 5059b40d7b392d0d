// Layer 3, the rewrite hooks: what `materialize` and `run` need on top of the core. The
// hooks are called only once the whole program is known to be valid, so an in-place IR
// is never left half-changed; a hook must not fail. For each rewritten function:
// make_window_buffer per allocation and retype_view per view, then wrap_body.
#pragma once

#include <commscope/contract/core.hpp>
#include <commscope/contract/readers.hpp>

#include <concepts>
#include <span>

namespace commscope {

namespace contract {

/// Optional, for an IR rebuilt on rewrite: per-program rewrite state. The hooks then take
/// it first; without it they take none.
COMMSCOPE_HANDLE(rewrite, optional, rewriter, detail::any_type, "per-program rewrite state");
/// With `using rewriter`: the state of one rewrite.
COMMSCOPE_OPTIONAL(rewrite, begin_rewrite, (program&), rewriter, { return rewriter(); });
/// With `using rewriter`: publishes the result.
COMMSCOPE_OPTIONAL(rewrite, commit, (rewriter&, program&), anything, {});
COMMSCOPE_RULE(rewriter_members,
               "`using rewriter` needs `rewriter begin_rewrite(program&)` and "
               "`void commit(rewriter&, program&)`",
               !rewriter::declared<T> || (begin_rewrite::given<T> && commit::given<T>));

/// The rewrite makes window buffers: it needs the handle (readers.hpp).
COMMSCOPE_RULE(window_buffer_to_make,
               "the rewrite needs `using window_buffer = ...;` (a copyable, "
               "default-constructible, equality-comparable handle)",
               window_buffer::given<T>);

/// One window buffer per allocation; the spec holds the allocation's statement,
/// location, base variable, size and name, so the object can be built in one step.
COMMSCOPE_HOOK(rewrite, make_window_buffer, rewriter, (const window_buffer_spec<Traits>&),
               window_buffer);
/// Points the view's type at spec.window_buffer (in place: record it on the view's op).
/// The spec also names the view's assignment: an IR that rebinds variables types the
/// binding, not the variable.
COMMSCOPE_HOOK(rewrite, retype_view, rewriter, (const view_spec<Traits>&), anything);
/// Wraps the body in the scopes, outermost first; an IR rebuilt on rewrite also
/// substitutes the retyped views here.
COMMSCOPE_HOOK(rewrite, wrap_body, rewriter, (function, std::span<const scope_spec<Traits>>),
               anything);

/// The rewrite hooks, in the order of their diagnosis.
using rewrite_hooks = records<window_buffer_to_make, rewriter, begin_rewrite, commit,
                              rewriter_members, make_window_buffer, retype_view, wrap_body>;

} // namespace contract

template <class T> using rewriter_t = typename contract::names<T>::rewriter;

} // namespace commscope
