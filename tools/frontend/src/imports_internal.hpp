// The run's imported modules, as the parser asks for them: a name a file imports resolved
// to a DSL function or an integer constant of another module, following re-exports, each
// module read and scanned once (docs/commscope-opt.md, "Programs across modules").
#pragma once

#include "module_scan.hpp"
#include "tokens.hpp"

#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/imports.hpp>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace commscope::frontend::detail {

/// An imported function: what it contributes to the program that calls it.
struct imported_function {
  definition::dsl role = definition::dsl::none; ///< jit_host, jit_chip or jit_kernel
  std::vector<std::string> parameters;
  /// A chip orchestrator's: what it may return of its arguments (returned_parameters.hpp).
  std::vector<std::string> returned_names;
  std::uint64_t returned = ~std::uint64_t{0};
  std::uint32_t token = 0; ///< its name's token in its module
};

/// One module file, read, tokenized and scanned once; never parsed further.
struct scanned_module {
  std::string path;      ///< as found (a search directory joined with the module's path)
  std::string directory; ///< its package directory: where its relative imports start
  std::string source;
  token_stream ts;
  std::unique_ptr<module_scan> scan;
  std::optional<syntax_error> error; ///< unreadable or no valid Python: nothing else is set
  bool unreadable = false;
  std::unordered_map<std::string_view, imported_function> functions; ///< module level only

  /// The names the module binds at its level to something made from the DSL's decorators
  /// that is no plain alias of one (a factory `def host_kernel(f)`, a conditional),
  /// worked out when a decorator is first looked up in it.
  std::once_flag unread_decorators_once;
  std::unordered_set<std::string_view> unread_decorators;

  /// Constants already worked out (guarded: a module is shared by every thread).
  std::mutex constants_lock;
  std::unordered_map<std::string, std::optional<std::int64_t>> constants;
};

/// Where an import's module was looked for, and where it ended.
struct resolution {
  enum class status : std::uint8_t {
    found,          ///< `function` is set
    module_missing, ///< no file for the module
    no_function,    ///< the module has no such DSL function
    broken,         ///< the module (or one it re-exports from) is no valid Python
    stopped,        ///< an import cycle, or a chain of more than 16 modules
  };
  status what = status::module_missing;
  const imported_function* function = nullptr;
  /// A module on the way binds the name more than once at its level (`try: from .fast
  /// import f` / `except ImportError:` a def of its own): which binding is the function is
  /// not read, so a chip orchestrator found may return any argument.
  bool rebound = false;
  std::string module;                ///< the module named where the search ended
  std::string module_path;           ///< its file, when found
  std::vector<std::string> searched; ///< the directories looked in, for a missing module
  const scanned_module* broken = nullptr;
};

/// Where an import statement stands: the file and its package directory.
struct importer {
  std::string_view directory; ///< empty: no directory of its own (standard input)
  bool has_directory = false;
};

/// The words (identifiers) of a text, as a Bloom filter of a bit per byte of text (up to
/// 64 Ki bits): may_hold is false only for a word the text never spells.
struct word_filter {
  std::vector<std::uint64_t> bits; ///< empty: no text
  [[nodiscard]] static std::uint64_t hash(std::string_view word);
  /// `text`'s filter; with `keep`, the hashes of its words that `keep` may hold are
  /// appended to `kept` too.
  static word_filter of(std::string_view text, const word_filter* keep = nullptr,
                        std::vector<std::uint64_t>* kept = nullptr);
  /// Two bits of a word, in 64-bit words of a power-of-two count (`mask`: the count - 1).
  static void set(std::uint64_t* bits, std::size_t mask, std::uint64_t h) {
    bits[(h >> 6) & mask] |= std::uint64_t{1} << (h & 63);
    bits[(h >> 38) & mask] |= std::uint64_t{1} << ((h >> 32) & 63);
  }
  [[nodiscard]] static bool test(const std::uint64_t* bits, std::size_t mask, std::uint64_t h) {
    return (bits[(h >> 6) & mask] >> (h & 63) & 1) &&
           (bits[(h >> 38) & mask] >> ((h >> 32) & 63) & 1);
  }
  void add(std::uint64_t h) { set(bits.data(), bits.size() - 1, h); }
  [[nodiscard]] bool may_hold(std::uint64_t h) const {
    return !bits.empty() && test(bits.data(), bits.size() - 1, h);
  }
};

/// Where another input file of the run reaches a host orchestrator: a DSL function that
/// names it, or a use of it as a value outside one (`build = make`).
struct host_caller {
  std::string file; ///< as the run names it
  std::uint32_t line = 0;
  std::string function; ///< the DSL function; empty: a value outside one
};

struct loader_state {
  std::vector<std::string> include_dirs;
  std::vector<std::string> python_path;
  std::atomic<std::size_t> reads{0};

  /// The module `module` (with `level` leading dots) imported from `from`; null when no
  /// file is found (`searched` then lists the directories looked in).
  std::shared_ptr<scanned_module> find(const importer& from, std::string_view module,
                                       std::uint32_t level, std::vector<std::string>& searched);

  /// The DSL function `name` of module `module` (`level` leading dots) imported from
  /// `from`, re-exports followed.
  resolution function(const importer& from, std::string_view module, std::uint32_t level,
                      std::string_view name);

  /// What `from P import X` binds X to, P that package (`level` leading dots) seen from
  /// `from`, when P's `__init__.py` binds X itself: Python takes that attribute before
  /// the submodule P.X. The module it names (`from . import fast as X` there: `P.fast`)
  /// as a path from `from`; empty when P binds X to anything else; nothing when P does
  /// not bind X (then `P.X` is the submodule).
  std::optional<std::string> package_attribute(const importer& from, std::string_view package,
                                               std::uint32_t level, std::string_view name);

  /// Whether `from M import *` of that module may bind `name` in the importer (it exports
  /// a binding of the name, or its names cannot be read); false for a module not found
  /// (a library's, which binds none of the program's names).
  bool star_may_bind(const importer& from, std::string_view module, std::uint32_t level,
                     std::string_view name);

  /// What the name `name` of that module is as (the start of) a decorator, re-exports and
  /// star imports followed.
  struct decorator_lookup {
    enum class kind : std::uint8_t {
      none,    ///< no name of the DSL's (a plain function, a library's decorator)
      dsl,     ///< `spelling`: the DSL's name it is (`pl.jit.host`, `pl.jit`, `pl`)
      unread,  ///< `spelling`: why the front end cannot tell (a factory, a syntax error)
      missing, ///< no file for the module on the search path
    };
    kind what = kind::none;
    std::string spelling;
  };
  decorator_lookup decorator(const importer& from, std::string_view module, std::uint32_t level,
                             std::string_view name);

  /// The integer constant `name` of that module, re-exports followed.
  std::optional<std::int64_t> constant(const importer& from, std::string_view module,
                                       std::uint32_t level, std::string_view name,
                                       std::uint32_t chain = 0);

  /// Whether `name` of that module may be a function of the program (bound at its level
  /// by `def`, `class`, a lambda, or an alias or import of one, re-exports and star
  /// imports followed), which may dispatch chips when called. False for a module not
  /// found (a library's); true when its names cannot be read.
  bool binds_function(const importer& from, std::string_view module, std::uint32_t level,
                      std::string_view name);

  /// Whether a call of `name` of that module may return a function of the program: a
  /// def whose body makes one (a lambda, a nested def or class) or whose `return` or
  /// `yield` names one of the module's (or a module-level name bound to one), a class
  /// with `__call__` (its instance), re-exports followed. False for a module not found;
  /// true when its names cannot be read.
  bool returns_function(const importer& from, std::string_view module, std::uint32_t level,
                        std::string_view name);
  std::unordered_map<std::string, bool> returns_function_; ///< by star_key

  /// Whether `members`, attributes read one after another off `name` of that module (the
  /// last one called when `called`: `cfg.order`, `cfg.sub.key`, `Config().make(2)`), may
  /// hold a function of the program: where `name` is a class of the module or an instance
  /// of one, a method, a class attribute or what its methods set of `self`, its bases'
  /// and those of the instances they hold, re-exports followed. False for a module not
  /// found; true when its names cannot be read.
  bool member_holds_function(const importer& from, std::string_view module, std::uint32_t level,
                             std::string_view name, const std::vector<std::string_view>& members,
                             bool called);
  std::unordered_map<std::string, bool> member_holds_function_; ///< by star_key and members

  /// Whether the absolute module `module` is a file of the search path seen from `from`
  /// (one of the program's own modules, not a library's), without reading it.
  bool has_module(const importer& from, std::string_view module);

  /// A DSL function of another of the run's input files that names the host orchestrator
  /// `name` of the file at `path` through an import (`from M import name`, `M.name`, a
  /// star import, re-exports followed), or none.
  std::optional<host_caller> host_called_elsewhere(std::string_view path, std::string_view name);

  /// The run's input files (module_loader::set_run_files): as named, and their keys.
  struct run_file {
    std::string path;
    std::string key;
    /// The word an import of it spells: its stem, or its package's for `__init__.py`.
    std::uint64_t module_word = 0;
    /// The words its text spells anywhere (comments and strings too): a file that never
    /// spells a host's name cannot import it by that name.
    word_filter words;
    /// What it may import from: the run files whose module word it spells, and the
    /// packages (`__init__.py`) above it, which `from . import h` reaches unspelled.
    std::vector<std::uint32_t> imports_from;
    /// The imported host orchestrators its DSL functions name, each with the first that
    /// does: made when a search first finds a name in its text.
    std::once_flag indexed;
    std::vector<std::pair<const imported_function*, host_caller>> callers;
  };
  std::vector<std::unique_ptr<run_file>> run_files;
  /// The run files' words and imports_from, made once, at the first search.
  std::once_flag run_index_once;
  std::unordered_map<std::string, std::uint32_t> run_file_of; ///< by key
  void index_run();

  /// The directories a module imported from `from` is looked for in, in order.
  std::vector<std::string> search_path(const importer& from) const;

  /// For an absolute import the search path misses: the nearest directory above the
  /// importer's that holds the module (the root of its package, which Python finds
  /// through the current directory or PYTHONPATH), as a path to pass to -I, and the
  /// module's file there; empty if none.
  std::pair<std::string, std::string> found_above(const importer& from,
                                                  std::string_view module) const;

private:
  /// The file of `module` in the first of `dirs` that holds it; empty if none.
  std::string locate(const std::vector<std::string>& dirs, std::string_view module);
  std::shared_ptr<scanned_module> load(const std::string& path, const std::string& key);
  /// run_file::callers of `f`, scanned as `m`.
  void index_callers(const std::shared_ptr<scanned_module>& m, run_file& f);
  /// The modules and names a star import's search found nothing in, by star_key: star
  /// imports that meet again (a diamond of re-exports) are searched once.
  using exhausted_set = std::unordered_set<std::string>;
  /// Follows `name` of `module` through re-exports (`from .impl import make_key`), a
  /// bounded number of modules: `answer(m, reader, name)` is asked in each, -1 where the
  /// module does not define it; answers are kept in `cache` by star_key and `suffix`.
  /// False for a module not found; true where its names cannot be read or the chain is
  /// too long. (imports.cpp)
  template <class Answer>
  bool through_reexports(const importer& from, std::string_view module, std::uint32_t level,
                         std::string_view name, std::unordered_map<std::string, bool>& cache,
                         std::string_view suffix, Answer&& answer);
  static std::string star_key(const scanned_module* m, std::string_view name) {
    return std::to_string(reinterpret_cast<std::uintptr_t>(m)) + ':' + std::string(name);
  }
  resolution function_in(const std::shared_ptr<scanned_module>& m, std::string_view name,
                         std::vector<const scanned_module*>& chain, exhausted_set& exhausted);
  /// binds_function, `depth` imports down (16: may), `seen` the names searched already.
  bool function_binding(const importer& from, std::string_view module, std::uint32_t level,
                        std::string_view name, std::size_t depth, exhausted_set& seen);
  /// star_may_bind, `depth` star imports down (16: may), `seen` those searched already.
  bool star_binds(const importer& from, std::string_view module, std::uint32_t level,
                  std::string_view name, std::size_t depth, exhausted_set& seen);
  /// The modules and names a decorator's lookup has passed through.
  using decorator_chain = std::vector<std::pair<const scanned_module*, std::string>>;
  decorator_lookup decorator_in(const std::shared_ptr<scanned_module>& m, std::string_view name,
                                decorator_chain& chain, exhausted_set& exhausted);
  /// decorator() from the module `m` imports `module` of: the module's file not found
  /// there is no name of the DSL's (a library's), unless it is the program's own package
  /// above the search path.
  decorator_lookup decorator_from(const importer& from, std::string_view module,
                                  std::uint32_t level, std::string_view name,
                                  decorator_chain& chain, exhausted_set& exhausted);
  std::optional<std::int64_t> constant_in(const std::shared_ptr<scanned_module>& m,
                                          std::string_view name, std::uint32_t chain);

  std::mutex lock_;
  struct entry {
    std::once_flag once;
    std::shared_ptr<scanned_module> module;
  };
  std::unordered_map<std::string, std::shared_ptr<entry>> modules_; ///< by normalized path
  std::unordered_map<std::string, std::string> found_;              ///< (dir, module) -> path
  /// (dir, module) -> found_above's answer, for decorators: most name a library's module,
  /// which a file's many decorators ask about again and again.
  std::unordered_map<std::string, std::pair<std::string, std::string>> above_;
};

/// Gives each definition of `scan` that a decorator imported from a module of the search
/// path makes a DSL function (`from compat import host_jit`, where compat.py binds
/// `host_jit = pl.jit.host`) its role (module_scan::adopt). A decorator that such a module
/// makes from the DSL's decorators in a way the front end does not read is reported in
/// `out` (unknown-decorator): the function would drop out of the check.
void adopt_imported_decorators(const token_stream& ts, module_scan& scan, loader_state& loader,
                               const importer& from, std::vector<front_end_diagnostic>& out);

/// Whether an import is of the DSL's own modules (`pypto` and below).
inline bool imports_the_dsl(const import_record& r) {
  const std::string_view m = r.module;
  return r.level == 0 && (m == "pypto" || m.starts_with("pypto."));
}

/// The import that binds `name` seen from `scope` outward (class bodies skipped), or null;
/// `only_scope`: in that scope alone.
const import_record* import_of(const module_scan& scan, std::string_view name, std::int32_t scope,
                               bool only_scope = false);

/// The module a dotted use `root.a1...an` names when `root` is bound by `imp` (`extra`
/// leading attributes a1..a(n-1) given): `import P.Q as m` -> `P.Q`, `from P import m` ->
/// `P.m`.
std::string module_of_use(const import_record& imp);

/// The key of a file in the run's caches: its absolute, normalized path.
std::string file_key(const std::filesystem::path& p);

/// The importer of a file at `path` (empty: none of its own).
importer importer_of(std::string_view path, std::string& directory_storage);

} // namespace commscope::frontend::detail
