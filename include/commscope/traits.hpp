// The traits contract: everything an IR adapter provides. This is the one include for an
// adapter. Each member is declared once, in the layer files below (contract/member.hpp
// says how a declaration gives the check, the message, the facade's call and the
// archetype); docs/adapter-guide.md has the table of members.
//
// An adapter is a class, usually a specialization of `commscope::ir_traits<Program>`.
// The entry points take an object of it: `analyze(program)` default-constructs
// `ir_traits<Program>`, `analyze(program, my_traits{&module})` passes a stateful one
// (a module that an index means nothing without; the one-argument form is then a compile
// error, unless the class says `static constexpr bool usable_by_default = true`, its state
// being an optional cache). The library calls every member through that object, as
// `t.member(...)` on a const object, so static member functions work unchanged and
// non-static ones must be const. A constexpr traits object runs the pass in the compiler
// (with variable_index: nothing hashes there). No ADL. What the pass computes:
// docs/semantics.md.
//
// The contract has four layers; each entry point asks only for the layers it uses and
// diagnoses the first unmet requirement of them (contract/entry_points.hpp), one message:
//   1. contract/core.hpp     the analysis core (`analyze`, `run`): six handle types, the
//                            readers of functions, statements and expressions, variable
//                            identity; optional control flow, parallel bindings, limits
//   2. contract/readers.hpp  the scope readers (`verify`; for `analyze`, what recognizes a
//                            body that is already materialized): all or none
//   3. contract/rewrite.hpp  the rewrite hooks (`materialize`, `run`), with an optional
//                            rewriter for an IR rebuilt on rewrite
//   4. contract/signals.hpp  signal synthesis (`synthesize_signals`)
// The values the members return and the specs the hooks receive are in
// contract/vocabulary.hpp.
//
// Ranges and lifetimes. A range may be any input range, returned by value (a prvalue
// vector, a view, a small struct with begin/end) or by reference to the IR; the library
// iterates it once, while the traits object and the IR are alive, and keeps no iterator;
// only a wide `children(s)` that can be indexed is asked for again, once per child
// (detail/walk.hpp), so it must give the same statements each time.
// The plan (plan.hpp) keeps handles and the string_views of names (describe, allocation
// names, scope names) and diagnostics keep subjects: they must stay valid as long as the
// IR is unchanged. A rewrite that rebuilds the IR (reference/) may release the old nodes:
// after `materialize` returns `rewritten`, use the plan's numbers, not its handles.
#pragma once

#include <commscope/contract/vocabulary.hpp>

#include <commscope/contract/core.hpp>
#include <commscope/contract/readers.hpp>
#include <commscope/contract/rewrite.hpp>
#include <commscope/contract/signals.hpp>

#include <commscope/contract/archetype.hpp>
#include <commscope/contract/entry_points.hpp>

// The container policy is no longer read; its names stay declared for one release.
#include <commscope/storage.hpp>
