// The DSL front end: reads whole Python modules (docs/commscope-opt.md, "The text form:
// Python modules") into the reference IR.
//
// Three steps: tokenize the file, walk its block structure once to find the DSL
// (`@pl.program` classes and `@pl.jit` groups at any depth), the imports and the bindings
// of every Python scope, then parse the DSL functions: host orchestrator bodies into the
// IR, the other functions' signatures only. Code outside the DSL is never parsed beyond
// its block structure.
//
// Nothing here throws, aborts or recurses without bound, whatever the bytes: blocks and
// brackets are capped as in Python, and so is the recursion of the expression parser.
#pragma once

#include <commscope/reference/ir.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::frontend {

class module_loader;

struct module_options {
  std::string_view stem = "module"; ///< names a module-level `@pl.jit` group
  std::vector<std::pair<std::string, std::int64_t>> defines; ///< -D NAME=INT
  /// The file's own path: its directory is searched first for the modules it imports
  /// (empty: standard input or the built-in example, which have none).
  std::string_view path;
  /// The run's imported modules; null: no name the file imports is resolved.
  module_loader* imports = nullptr;
};

struct syntax_error {
  std::uint32_t line = 1;
  std::uint32_t column = 1;
  std::string message;
};

/// A finding of the front end that is no syntax error but rejects a program, with a code
/// of docs/semantics.md (a malformed `pld.comm_domain`, an unknown dtype).
struct front_end_diagnostic {
  std::string code;
  std::string message;
  reference::source_location where{};
  /// Another file the diagnostic is located in (a syntax error in an imported module);
  /// empty: the module being read.
  std::string file;
  /// Places in the module being read that explain it (the import that needed the file).
  std::vector<std::pair<std::string, reference::source_location>> notes;
  /// How to fix it, when the front end knows (`did you mean 'pl.jit.host'?`); empty
  /// otherwise.
  std::string help;
};

/// Where a rewritten host orchestrator body goes in the source (docs/commscope-opt.md,
/// "The rewritten file").
struct body_span {
  const reference::function* fn = nullptr;
  std::uint32_t begin = 0; ///< byte range of the body's lines, without the last line end
  std::uint32_t end = 0;
  std::string indent;       ///< the body's indentation as written
  bool inline_body = false; ///< `def f(): stmt` on one line: begin is after the ':'
  /// How many comm-domain scopes can wrap the body in a file Python still compiles: a
  /// function nests at most 20 blocks (each `with` item, a loop, a `try` body or a
  /// `finally` one; an `except` clause two) and a file 99 indentation levels.
  std::uint32_t scope_room = 0;
};

/// One DSL program of a module.
struct program_unit {
  std::string name;
  std::uint32_t line = 0; ///< the line of its first decorator
  reference::program_ptr program;
  std::vector<body_span> bodies; ///< every host orchestrator's body
  std::vector<front_end_diagnostic> diagnostics;
  /// Names left open that a `device=` depends on, by the location of that call: the
  /// driver names them in the `unsupported-device` message and suggests `-D`.
  std::vector<std::pair<reference::source_location, std::string>> open_names;
  /// The file may rebind its module's names where no statement names them (through
  /// `globals()`, `exec` or `sys.modules`): none of them is a constant, and the driver
  /// says why.
  bool dynamic_globals = false;
  /// Names in a `device=` that a comprehension or a lambda binds (`[f(device=r) for r in
  /// ...]`), by the location of that call: the driver says so instead of suggesting `-D`.
  std::vector<std::pair<reference::source_location, std::string>> local_device_names;
  /// Names in a `device=` inside a lambda or a generator expression that the function
  /// binds again below it (`lambda: f(device=d)`, then `d = 3`), by the location of that
  /// call: the body reads what they hold when it runs, which the analysis does not follow.
  std::vector<std::pair<reference::source_location, std::string>> late_device_names;
  /// Functions a `device=` calls by a name the file does not bind (`int(r)`, `min(r, 3)`),
  /// by the location of that call: device= evaluates no call, and `-D` would not bind a
  /// function, so the driver says so instead of suggesting it.
  std::vector<std::pair<reference::source_location, std::string>> device_calls;
  /// A call of a dotted name whose root the file binds to no value (a module's function:
  /// `pl.cast(v)`, `np.asarray(v)`), as written, by the location of the call: the IR keeps
  /// the callee's last attribute, and the driver names it in full where a view escapes
  /// into it.
  struct dotted_call {
    reference::source_location where;
    std::string spelled;
    /// A function of a library (the DSL's modules, a module no file of the search path
    /// holds), not of the program's own modules: there is no inlining it, and the driver
    /// says what to do instead.
    bool library = false;
  };
  std::vector<dotted_call> dotted_calls;
  /// Calls with device= whose arguments are unpacked (`chip(*views, device=r)`): a view
  /// among them is view-escapes there, which the driver words for unpacking.
  std::vector<reference::source_location> unpacked_dispatches;
  /// The file's name for `pypto.language.distributed` (`pld`, an alias such as `dist`, or
  /// a path such as `pl.distributed`): what the rewritten file spells its scopes with.
  std::string distributed_module = "pld";
  /// Where the rewritten file binds `pld` itself, when it reaches the module by no name
  /// (it imports names from it only): an empty range at the end of its first top-level
  /// import, which `; import pypto.language.distributed as pld` follows (ir.py's line
  /// numbers stay). Empty when no such binding is needed, or there is no such import.
  std::optional<body_span> distributed_import;
  /// Integer literals beyond 64 bits in a `device=`, by the location of that call: read
  /// as the nearest 64-bit value, and named as written in the message.
  std::vector<std::pair<reference::source_location, std::string>> huge_devices;
  /// The yields of host orchestrators that another DSL function of the file calls (whose
  /// values reach that caller, as a return's do), by location, with the host's name: a
  /// view among them is view-escapes there, which the driver words as a returned one.
  std::vector<std::pair<reference::source_location, std::string>> yields_to_callers;
  /// Method calls on a value given a function of the program's code (`views.sort(key=f)`),
  /// by location: the method may call the function with its object, so a view in that
  /// object is view-escapes there, which the driver words so.
  struct callback_method {
    reference::source_location where;
    std::string method;   ///< as written: `views.sort`
    std::string function; ///< as the message names it: "a lambda", 'key'
  };
  std::vector<callback_method> callback_methods;
  /// Host orchestrators of the file that a DSL function of another input file of the run
  /// imports and calls, or that such a file holds as a value (`build = make`, which any
  /// of its functions may call; module_loader::set_run_files): what they return reaches
  /// them.
  struct outside_caller {
    std::string host; ///< the host orchestrator of this file
    std::string file; ///< the other file, as the run names it
    std::uint32_t line = 0;
    std::string function; ///< the DSL function there that names it; empty: a value
  };
  std::vector<outside_caller> called_from_other_files;
  /// Why a `device=` call of an imported name found no function, by the location of
  /// that call: the driver adds it to the `malformed-op` message.
  std::vector<std::pair<reference::source_location, std::string>> unresolved_callees;
  /// A name left open in a `device=` (as in `open_names`) that is probably a typo of a
  /// name in scope at that call: a name within two edits bound before the call in the
  /// function (a parameter, a local, a loop variable), or in an enclosing scope of the
  /// file (a constant). The nearest first; on a tie the most recent binding in the
  /// innermost scope. At most one per open name and call.
  struct name_suggestion {
    reference::source_location call{}; ///< the call whose `device=` names it
    std::string name;                  ///< the open name as written
    std::string suggestion;            ///< the name in scope
  };
  std::vector<name_suggestion> name_suggestions;
  /// A view passed by name to a chip orchestrator in a call without `device=`: such a
  /// call dispatches nothing, which is why the view's allocation may have no coverage.
  /// Matched by variable (the argument is the variable the view statement binds), not
  /// by spelling.
  struct undispatched_view {
    reference::source_location view{}; ///< the view's statement: the library's view note
    reference::source_location call{}; ///< the call of the chip orchestrator
    std::string callee;                ///< the callee as written (`chip`, `mod.chip`)
  };
  std::vector<undispatched_view> undispatched_views;
  /// The byte count of each `pld.alloc_window_buffer(...)` of a host orchestrator whose
  /// size folds to an integer: integer literals, constants of the file, -D and imported
  /// constants (as `device=` resolves them), `+ - * // % **`, parentheses and unary
  /// minus, with Python's semantics; anything else, or a step that overflows 64 bits,
  /// leaves the allocation out. Each with the allocation's statement, which is the
  /// location the plan reports (`commscope::allocation::where`), and the id of the
  /// variable it is bound to (`commscope::allocation::base`), both ascending: in source
  /// order.
  struct allocation_size {
    reference::source_location where;
    std::uint32_t variable = 0;
    std::int64_t bytes = 0;
  };
  std::vector<allocation_size> allocation_bytes;
};

/// The folded byte count of the allocation the plan locates at `where`
/// (program_unit::allocation_bytes); nullopt when its size does not fold.
[[nodiscard]] std::optional<std::int64_t> allocation_bytes_at(const program_unit& unit,
                                                              reference::source_location where);
/// The same, of the allocation bound to `base`: for a body read back from its scopes,
/// where the plan locates an allocation at its scope (`commscope::allocation::existing`).
[[nodiscard]] std::optional<std::int64_t> allocation_bytes_of(const program_unit& unit,
                                                              const reference::variable& base);

struct module_result {
  std::vector<program_unit> programs;
  /// Findings that belong to no program (an unknown `@pl.` decorator on a function no
  /// program holds): each rejects the file as a rejected program would. In source order.
  std::vector<front_end_diagnostic> diagnostics;
  std::optional<syntax_error> error; ///< the first syntax error; no programs then
  std::string newline = "\n";        ///< the file's line end (CRLF files keep theirs)
  explicit operator bool() const { return !error; }
};

/// Reads a whole module. Never throws.
[[nodiscard]] module_result parse_module(std::string_view text, const module_options& options = {});

struct parse_result {
  reference::program_ptr program;    ///< null when `error` is set
  std::optional<syntax_error> error; ///< the first syntax error
  explicit operator bool() const { return program != nullptr; }
};

/// Reads a module that holds one program (tests, the fuzz target): its first program;
/// an error when it has none.
[[nodiscard]] parse_result parse(std::string_view text);

/// Whether `n` reads back as a name: an ASCII identifier that is not a reserved word.
[[nodiscard]] bool is_plain_name(std::string_view n);

/// The nearest of `candidates` within two edits of `name` (the first on a tie), or empty:
/// the `did you mean` of a misspelled decorator, and of the driver's own warnings.
[[nodiscard]] std::string_view nearest_spelling(std::string_view name,
                                                std::span<const std::string_view> candidates);

} // namespace commscope::frontend
