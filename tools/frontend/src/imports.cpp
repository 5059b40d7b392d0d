// The run's imported modules: found as Python finds them, read and scanned once each.
#include "imports_internal.hpp"
#include "returned_parameters.hpp"

#include <commscope/frontend/imports.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace commscope::frontend {

module_loader::module_loader(std::vector<std::string> include_dirs,
                             std::vector<std::string> python_path)
    : state_(std::make_unique<detail::loader_state>()) {
  state_->include_dirs = std::move(include_dirs);
  state_->python_path = std::move(python_path);
}

module_loader::~module_loader() = default;

std::vector<std::string> module_loader::split_path_list(const std::string& value) {
  std::vector<std::string> dirs;
  std::size_t b = 0;
  while (b <= value.size()) {
    auto e = value.find(':', b);
    if (e == std::string::npos)
      e = value.size();
    if (e > b)
      dirs.push_back(value.substr(b, e - b));
    b = e + 1;
  }
  return dirs;
}

std::size_t module_loader::files_read() const { return state_->reads.load(); }

namespace detail {
/// The key of a file in the run's caches: its absolute, normalized path (as given if
/// that cannot be made).
std::string file_key(const std::filesystem::path& p) {
  std::error_code ec;
  const auto abs = std::filesystem::absolute(p, ec);
  return (ec ? p : abs).lexically_normal().string();
}
} // namespace detail

void module_loader::set_run_files(const std::vector<std::string>& files) {
  state_->run_files.clear();
  for (const auto& f : files) {
    if (f.empty() || f == "-")
      continue;
    auto r = std::make_unique<detail::loader_state::run_file>();
    r->path = f;
    r->key = detail::file_key(f);
    state_->run_files.push_back(std::move(r));
  }
}

namespace detail {

namespace fs = std::filesystem;

namespace {

/// A chain of imports longer than this ends the search (docs/commscope-opt.md, "Programs
/// across modules").
constexpr std::size_t max_chain = 16;

/// Where the imports of module `m` start: its own directory.
importer importer_in(const scanned_module& m) {
  importer here;
  here.directory = m.directory;
  here.has_directory = true;
  return here;
}

/// How many bindings of `name` the module's level holds.
std::size_t module_bindings(const scanned_module& m, std::string_view name) {
  std::size_t n = 0;
  if (m.scan && !m.scan->scopes.empty())
    for (const auto& r : m.scan->scopes[0].records)
      n += m.ts.text(m.ts.tokens[r.name]) == name ? 1 : 0;
  return n;
}

/// Whether `from M import *` binds `name` in the importer, M scanned as `m`: M's
/// `__all__` when it lists string literals, else its module-level names that do not start
/// with '_'. Nothing when that cannot be read (`__all__` computed or bound twice, or M
/// binding its names where no statement shows them). `by_all`, if given, tells whether
/// an `__all__` decided it.
std::optional<bool> star_exports(const scanned_module& m, std::string_view name,
                                 bool* by_all = nullptr) {
  if (!m.scan || m.scan->dynamic_globals)
    return std::nullopt;
  const auto& t = m.ts.tokens;
  const py_scope::record* all = nullptr;
  bool bound = false;
  for (const auto& r : m.scan->scopes[0].records) {
    const std::string_view n = m.ts.text(t[r.name]);
    if (n == "__all__") {
      if (all)
        return std::nullopt;
      all = &r;
    }
    bound = bound || n == name;
  }
  if (by_all)
    *by_all = all != nullptr;
  if (!all)
    return bound && !name.starts_with('_');
  if (all->rhs_end == 0)
    return std::nullopt;
  bool listed = false;
  for (std::uint32_t k = all->rhs_begin; k < all->rhs_end; ++k) {
    const std::string_view x = m.ts.text(t[k]);
    if (t[k].kind() == tok::string) {
      if (x.size() < 2 || (x.front() != '"' && x.front() != '\'') || x.front() != x.back() ||
          x.starts_with("\"\"\"") || x.starts_with("'''"))
        return std::nullopt;
      listed = listed || x.substr(1, x.size() - 2) == name;
    } else if (!(t[k].is_op("[") || t[k].is_op("]") || t[k].is_op("(") || t[k].is_op(")") ||
                 t[k].is_op(","))) {
      return std::nullopt;
    }
  }
  return listed;
}

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

/// `P.Q` as the relative path `P/Q`.
fs::path module_path(std::string_view module) {
  fs::path p;
  std::size_t b = 0;
  while (b <= module.size()) {
    auto e = module.find('.', b);
    if (e == std::string_view::npos)
      e = module.size();
    p /= std::string(module.substr(b, e - b));
    b = e + 1;
  }
  return p;
}

/// The file of module `module` under `dir`: `dir/P/Q.py` or `dir/P/Q/__init__.py`.
std::optional<fs::path> module_file(const fs::path& dir, std::string_view module) {
  if (module.empty()) {
    if (auto p = dir / "__init__.py"; is_file(p))
      return p;
    return std::nullopt;
  }
  // A package before a module of the same name in one directory, as Python's finder
  // looks (a stale `config.py` beside the package `config/` is not what is imported).
  const fs::path rel = module_path(module);
  if (auto p = dir / rel / "__init__.py"; is_file(p))
    return p;
  fs::path file = dir / rel;
  file += ".py";
  if (is_file(file))
    return file;
  return std::nullopt;
}

/// The whole file in one read of its size (a module is read once: no stream buffering).
bool read_file(const std::string& path, std::string& out) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f)
    return false;
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  out.resize(ec ? std::size_t{1} << 14 : static_cast<std::size_t>(size) + 1);
  std::size_t used = 0;
  bool failed = false;
  while (true) {
    used += std::fread(out.data() + used, 1, out.size() - used, f);
    if (used < out.size()) {
      failed = std::ferror(f) != 0;
      break;
    }
    out.resize(out.size() * 2);
  }
  std::fclose(f);
  out.resize(used);
  return !failed;
}

/// A word's hash (FNV-1a), as word_filter keeps it.
constexpr std::uint64_t word_hash_step(std::uint64_t h, unsigned char c) {
  return (h ^ c) * 0x100000001b3ull;
}
constexpr std::uint64_t word_hash_start = 0xcbf29ce484222325ull;

/// 1: a letter, `_` or any byte of a non-ASCII character; 2: a digit.
constexpr std::array<std::uint8_t, 256> word_bytes = [] {
  std::array<std::uint8_t, 256> a{};
  for (unsigned c = 0; c < 256; ++c)
    a[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80 ? 1
           : c >= '0' && c <= '9'                                                    ? 2
                                                                                     : 0;
  return a;
}();

} // namespace

std::uint64_t word_filter::hash(std::string_view word) {
  std::uint64_t h = word_hash_start;
  for (const char c : word)
    h = word_hash_step(h, static_cast<unsigned char>(c));
  return h;
}

word_filter word_filter::of(std::string_view text, const word_filter* keep,
                            std::vector<std::uint64_t>* kept) {
  word_filter f;
  f.bits.assign(std::bit_ceil(std::clamp<std::size_t>(text.size() / 64, 16, 1024)), 0);
  // Locals, so that the stores into the bits are not taken to move the vectors.
  std::uint64_t* const bits = f.bits.data();
  const std::size_t mask = f.bits.size() - 1;
  const std::uint64_t* const keep_bits = keep && !keep->bits.empty() ? keep->bits.data() : nullptr;
  const std::size_t keep_mask = keep_bits ? keep->bits.size() - 1 : 0;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* const end = p + text.size();
  while (p < end) {
    if (word_bytes[*p] != 1) {
      ++p;
      continue;
    }
    std::uint64_t h = word_hash_start;
    for (; p < end; ++p) {
      const unsigned char c = *p;
      if (word_bytes[c] == 0)
        break;
      h = word_hash_step(h, c);
    }
    set(bits, mask, h);
    if (keep_bits && test(keep_bits, keep_mask, h))
      kept->push_back(h);
  }
  return f;
}

importer importer_of(std::string_view path, std::string& directory_storage) {
  importer r;
  if (path.empty())
    return r;
  const fs::path parent = fs::path(std::string(path)).parent_path();
  directory_storage = parent.empty() ? std::string(".") : parent.string();
  r.directory = directory_storage;
  r.has_directory = true;
  return r;
}

std::string module_of_use(const import_record& imp) {
  if (imp.name.empty())
    return imp.module;
  return imp.module.empty() ? imp.name : imp.module + "." + imp.name;
}

const import_record* import_of(const module_scan& scan, std::string_view name, std::int32_t scope,
                               bool only_scope) {
  for (std::int32_t s = scope; s >= 0;) {
    const auto& sc = scan.scopes[static_cast<std::size_t>(s)];
    if (sc.what != py_scope::kind::class_body || s == scope) {
      const import_record* found = nullptr;
      for (const auto& r : scan.imports) // the last import of the name in the scope binds it
        if (r.scope == s && r.local == name)
          found = &r;
      if (found)
        return found;
    }
    if (only_scope)
      break;
    s = sc.parent;
  }
  return nullptr;
}

std::vector<std::string> loader_state::search_path(const importer& from) const {
  std::vector<std::string> dirs;
  if (from.has_directory)
    dirs.emplace_back(from.directory);
  dirs.insert(dirs.end(), include_dirs.begin(), include_dirs.end());
  dirs.insert(dirs.end(), python_path.begin(), python_path.end());
  return dirs;
}

std::pair<std::string, std::string> loader_state::found_above(const importer& from,
                                                              std::string_view module) const {
  if (!from.has_directory || module.empty())
    return {};
  std::error_code ec;
  fs::path dir = fs::absolute(fs::path(std::string(from.directory)), ec).lexically_normal();
  if (ec)
    return {};
  // As the input was named: relative to the current directory, or absolute.
  const bool absolute = fs::path(std::string(from.directory)).is_absolute();
  // A bounded climb: only a hint on an error's path, never a search of the whole disk.
  for (int k = 0; k < 32 && dir.has_relative_path(); ++k) {
    dir = dir.parent_path();
    if (const auto file = module_file(dir, module)) {
      const auto shown = [&](const fs::path& p) {
        std::error_code e;
        const fs::path r = absolute ? p : fs::proximate(p, e);
        return e || r.empty() ? p.string() : r.string();
      };
      return {shown(dir), shown(*file)};
    }
  }
  return {};
}

std::shared_ptr<scanned_module> loader_state::find(const importer& from, std::string_view module,
                                                   std::uint32_t level,
                                                   std::vector<std::string>& searched) {
  searched.clear();
  if (level > 0) {
    if (!from.has_directory)
      return nullptr;
    fs::path base(std::string(from.directory));
    for (std::uint32_t k = 1; k < level; ++k)
      base = base.parent_path().empty() ? base / ".." : base.parent_path();
    searched.push_back(base.string());
    if (auto f = module_file(base, module))
      return load(f->lexically_normal().string(), file_key(*f));
    return nullptr;
  }
  searched = search_path(from);
  const std::string path = locate(searched, module);
  if (path.empty())
    return nullptr;
  return load(path, file_key(path));
}

bool loader_state::has_module(const importer& from, std::string_view module) {
  return !locate(search_path(from), module).empty();
}

std::string loader_state::locate(const std::vector<std::string>& dirs, std::string_view module) {
  for (const auto& dir : dirs) {
    std::string key = dir;
    key += '\0';
    key += module;
    std::string path;
    {
      std::lock_guard<std::mutex> g(lock_);
      if (auto it = found_.find(key); it != found_.end())
        path = it->second;
    }
    if (path.empty()) {
      auto f = module_file(dir, module);
      path = f ? f->lexically_normal().string() : std::string(1, '\0');
      std::lock_guard<std::mutex> g(lock_);
      found_.emplace(key, path);
    }
    if (path[0] != '\0')
      return path;
  }
  return {};
}

std::shared_ptr<scanned_module> loader_state::load(const std::string& path,
                                                   const std::string& key) {
  std::shared_ptr<entry> e;
  {
    std::lock_guard<std::mutex> g(lock_);
    auto& slot = modules_[key];
    if (!slot)
      slot = std::make_shared<entry>();
    e = slot;
  }
  std::call_once(e->once, [&] {
    auto m = std::make_shared<scanned_module>();
    m->path = path;
    const fs::path parent = fs::path(path).parent_path();
    m->directory = parent.empty() ? std::string(".") : parent.string();
    ++reads;
    if (!read_file(path, m->source)) {
      m->unreadable = true;
      e->module = std::move(m);
      return;
    }
    try {
      m->ts = tokenize(m->source);
      m->scan = std::make_unique<module_scan>(m->ts);
      m->scan->run();
      std::optional<returned_parameter_table> returned;
      for (const auto& d : m->scan->definitions) {
        using r = definition::dsl;
        if (d.scope != 0 || d.is_class ||
            (d.role != r::jit_host && d.role != r::jit_chip && d.role != r::jit_kernel))
          continue;
        imported_function f;
        f.role = d.role;
        f.token = d.name;
        if (d.own_scope >= 0)
          for (const auto& rec : m->scan->scopes[static_cast<std::size_t>(d.own_scope)].records)
            if (rec.name < d.colon)
              f.parameters.emplace_back(m->ts.text(m->ts.tokens[rec.name]));
        if (d.role == r::jit_chip) {
          if (!returned)
            returned.emplace(m->ts, *m->scan);
          const auto& answer =
              returned->of(static_cast<std::uint32_t>(&d - m->scan->definitions.data()));
          f.returned = answer.mask;
          f.returned_names.assign(answer.names.begin(), answer.names.end());
        }
        const auto name = m->ts.text(m->ts.tokens[d.name]);
        // Defined twice (in the branches of an `if`): which one runs is not read, so a
        // chip may return any argument.
        if (d.role == r::jit_chip && m->functions.contains(name))
          f.returned = ~std::uint64_t{0};
        m->functions.insert_or_assign(name, std::move(f));
      }
    } catch (const syntax_failure& f) {
      m->scan.reset();
      m->functions.clear();
      if (m->ts.line_starts.size() <= 1) { // failed while tokenizing: lines of its own
        m->ts.source = m->source;
        m->ts.line_starts.assign(1, 0);
        for (std::size_t i = 0; i < m->source.size(); ++i)
          if (m->source[i] == '\n' ||
              (m->source[i] == '\r' && (i + 1 >= m->source.size() || m->source[i + 1] != '\n')))
            m->ts.line_starts.push_back(static_cast<std::uint32_t>(i + 1));
      }
      const auto at = m->ts.where_offset(f.offset);
      m->error = syntax_error{at.line, at.column, f.message};
    } catch (const std::exception& x) {
      m->scan.reset();
      m->functions.clear();
      m->error = syntax_error{1, 1, std::string("cannot be read: ") + x.what()};
    }
    e->module = std::move(m);
  });
  return e->module;
}

resolution loader_state::function(const importer& from, std::string_view module,
                                  std::uint32_t level, std::string_view name) {
  resolution r;
  r.module = std::string(level, '.') + std::string(module);
  auto m = find(from, module, level, r.searched);
  if (!m)
    return r;
  std::vector<const scanned_module*> chain;
  exhausted_set exhausted;
  auto sub = function_in(m, name, chain, exhausted);
  if (sub.what == resolution::status::module_missing && sub.module.empty()) {
    sub.module = r.module;
    sub.searched = std::move(r.searched);
  }
  return sub;
}

std::optional<std::string> loader_state::package_attribute(const importer& from,
                                                           std::string_view package,
                                                           std::uint32_t level,
                                                           std::string_view name) {
  std::vector<std::string> searched;
  const auto m = find(from, package, level, searched);
  if (!m || !fs::path(m->path).filename().string().starts_with("__init__."))
    return std::nullopt;
  if (m->unreadable || m->error || m->scan->dynamic_globals)
    return std::string();
  const std::size_t bindings = module_bindings(*m, name);
  if (bindings == 0)
    return std::nullopt;
  // `from . import fast as X` (or `from .sub import fast as X`), bound once: the
  // package's module, as a path from the importer.
  const import_record* imp = import_of(*m->scan, name, 0, true);
  if (bindings != 1 || !imp || imp->level != 1 || imp->name.empty())
    return std::string();
  std::string module(package);
  if (!imp->module.empty())
    module += "." + imp->module;
  return module + "." + imp->name;
}

bool loader_state::star_may_bind(const importer& from, std::string_view module, std::uint32_t level,
                                 std::string_view name) {
  exhausted_set seen;
  return star_binds(from, module, level, name, 0, seen);
}

bool loader_state::star_binds(const importer& from, std::string_view module, std::uint32_t level,
                              std::string_view name, std::size_t depth, exhausted_set& seen) {
  std::vector<std::string> searched;
  const auto m = find(from, module, level, searched);
  if (!m)
    return false;
  if (m->unreadable || m->error || depth >= max_chain)
    return true;
  if (!seen.insert(star_key(m.get(), name)).second)
    return false; // searched already, on another path of a diamond
  bool by_all = false;
  const auto exported = star_exports(*m, name, &by_all);
  if (!exported || *exported)
    return true;
  if (by_all)
    return false; // its __all__ lists what it exports
  // Not its own: its star imports' exports.
  const importer here = importer_in(*m);
  for (const auto& [next, next_level] : m->scan->star_modules)
    if (star_binds(here, next, next_level, name, depth + 1, seen))
      return true;
  return false;
}

bool loader_state::binds_function(const importer& from, std::string_view module,
                                  std::uint32_t level, std::string_view name) {
  exhausted_set seen;
  return function_binding(from, module, level, name, 0, seen);
}

bool loader_state::function_binding(const importer& from, std::string_view module,
                                    std::uint32_t level, std::string_view name, std::size_t depth,
                                    exhausted_set& seen) {
  std::vector<std::string> searched;
  const auto m = find(from, module, level, searched);
  if (!m)
    return false;
  if (m->unreadable || m->error || m->scan->dynamic_globals || depth >= max_chain)
    return true;
  if (!seen.insert(star_key(m.get(), name)).second)
    return false; // searched already, on another path
  const auto& t = m->ts.tokens;
  const importer here = importer_in(*m);
  bool bound = false;
  // Every binding at its level counts: which one holds when the host calls is not read.
  // An alias (`by_rank = rank_order`) is looked up again in the same module.
  std::vector<std::string_view> names{name};
  for (std::size_t k = 0; k < names.size() && k <= max_chain; ++k)
    for (const auto& r : m->scan->scopes[0].records) {
      if (m->ts.text(t[r.name]) != names[k])
        continue;
      bound = true;
      const record_meaning meaning = meaning_of(t, r);
      if (meaning.what == record_meaning::kind::function)
        return true;
      if (meaning.what == record_meaning::kind::alias &&
          std::find(names.begin(), names.end(), m->ts.text(t[meaning.alias])) == names.end())
        names.push_back(m->ts.text(t[meaning.alias]));
    }
  for (const auto n : names)
    if (const import_record* imp = import_of(*m->scan, n, 0, true);
        imp && !imp->name.empty() &&
        function_binding(here, imp->module, imp->level, imp->name, depth + 1, seen))
      return true;
  if (bound)
    return false;
  for (const auto& [next, next_level] : m->scan->star_modules)
    if (star_may_bind(here, next, next_level, name) &&
        function_binding(here, next, next_level, name, depth + 1, seen))
      return true;
  return false;
}

namespace {
/// What a module's own code says of its functions: the module-level names that are (or
/// are bound to) one, and whether some tokens, a name or a def's returns may give one.
class module_functions {
public:
  explicit module_functions(const scanned_module& m) : m_(m), t_(m.ts.tokens) {
    for (const auto& r : m.scan->scopes[0].records)
      if (meaning_of(t_, r).what == record_meaning::kind::function)
        functions_.insert(text(r.name));
  }

  /// Classes to read, each once.
  struct class_queue {
    std::vector<const definition*> order;
    std::unordered_set<const definition*> seen;
    void add(const definition* c) {
      if (c && seen.insert(c).second)
        order.push_back(c);
    }
  };
  [[nodiscard]] std::string_view text(std::uint32_t k) const { return m_.ts.text(t_[k]); }

  /// A lambda among a call's arguments is the call's to use (`sorted(x, key=lambda ...)`),
  /// and its value no function; a function's name there may be (`partial(f, 2)`).
  [[nodiscard]] bool mentions(std::uint32_t from_token, std::uint32_t to_token) const {
    std::vector<bool> call; // the open brackets: a call's?
    for (std::uint32_t k = from_token; k < to_token && k < t_.size(); ++k) {
      if (t_[k].kind() == tok::op) {
        const int step = bracket_nesting(t_[k].flags());
        if (step > 0)
          call.push_back(t_[k].is_op("(") && k > 0 &&
                         (t_[k - 1].kind() == tok::name || t_[k - 1].is_op(")")));
        else if (step < 0 && !call.empty())
          call.pop_back();
        continue;
      }
      if (t_[k].is_keyword("lambda") && std::find(call.begin(), call.end(), true) == call.end())
        return true;
      if (t_[k].kind() == tok::name && (k == 0 || !t_[k - 1].is_op(".")) &&
          functions_.contains(text(k)))
        return true;
    }
    return false;
  }

  /// A module-level name: its value, or what a statement that begins with its method or
  /// item puts into it (`HANDLERS["order"] = _order`, `HANDLERS.update(...)`), anywhere.
  [[nodiscard]] bool names_function(std::string_view n) const {
    if (functions_.contains(n))
      return true;
    for (const auto& r : m_.scan->scopes[0].records)
      if (text(r.name) == n && mentions(r.rhs_begin, r.rhs_end))
        return true;
    return given_function(n);
  }

  /// Whether a statement that begins with name `n`'s method, item or attribute puts a
  /// function into it (`HANDLERS["order"] = _order`, `cfg.key = _order`), anywhere.
  [[nodiscard]] bool given_function(std::string_view n) const {
    for (std::uint32_t k = 0; k + 1 < t_.size(); ++k)
      if (changes_name(t_, k) && text(k) == n && mentions(k, statement_end(t_, k)))
        return true;
    return false;
  }

  /// Whether a call of def `d` may return a function: one its body makes (nested defs and
  /// classes, names bound to a lambda or to a module's function) that a return or yield
  /// gives, or a lambda or a module's function given there.
  [[nodiscard]] bool def_returns_function(const definition& d) const {
    std::unordered_set<std::string_view> made;
    for (std::uint32_t k = d.body_begin; k + 1 < d.body_end && k + 1 < t_.size(); ++k)
      if (t_[k].is_keyword("def") || t_[k].is_keyword("class"))
        made.insert(text(k + 1));
    for (std::uint32_t k = d.body_begin; k + 2 < d.body_end && k + 2 < t_.size(); ++k) {
      if (t_[k].kind() != tok::name || !t_[k + 1].is_op("=") || !separates_statements(t_, k - 1))
        continue;
      const std::uint32_t e = std::min(statement_end(t_, k + 2), d.body_end);
      bool holds = mentions(k + 2, e);
      for (std::uint32_t j = k + 2; j < e && !holds; ++j)
        holds = t_[j].kind() == tok::name && !t_[j - 1].is_op(".") && made.contains(text(j));
      if (holds)
        made.insert(text(k));
    }
    for (std::uint32_t k = d.body_begin; k < d.body_end && k < t_.size(); ++k) {
      if (!t_[k].is_keyword("return") && !t_[k].is_keyword("yield"))
        continue;
      for (std::uint32_t e = k + 1;
           e < d.body_end && e < t_.size() && t_[e].kind() != tok::newline && !t_[e].is_op(";");
           ++e)
        if (t_[e].is_keyword("lambda") ||
            (t_[e].kind() == tok::name && !t_[e - 1].is_op(".") &&
             (made.contains(text(e)) || names_function(text(e))) && !plain_instance(e)))
          return true;
    }
    return false;
  }

  /// The class the module defines at its level as `n`, if any.
  [[nodiscard]] const definition* class_named(std::string_view n) const {
    index();
    const auto it = classes_.find(n);
    return it == classes_.end() ? nullptr : it->second;
  }

  /// Whether token k makes an instance of a class of the module without `__call__`
  /// (`Config(...)`), which is no function.
  [[nodiscard]] bool plain_instance(std::uint32_t k) const {
    if (k + 1 >= t_.size() || !t_[k + 1].is_op("("))
      return false;
    const definition* cls = class_named(text(k));
    return cls && !names_call(m_.ts, *cls);
  }

  /// The defs and classes of a class body.
  [[nodiscard]] const std::vector<const definition*>& defined_in(std::int32_t scope) const {
    index();
    static const std::vector<const definition*> none;
    const auto it = defined_in_.find(scope);
    return it == defined_in_.end() ? none : it->second;
  }

  /// The class that tokens [b, e) make an instance of, all of them a call of it
  /// (`Config(...)`), if the module defines it.
  [[nodiscard]] const definition* instance_of(std::uint32_t b, std::uint32_t e) const {
    if (b + 2 >= e || e > t_.size() || t_[b].kind() != tok::name || !t_[b + 1].is_op("(") ||
        !t_[e - 1].is_op(")"))
      return nullptr;
    int nesting = 0;
    for (std::uint32_t k = b + 1; k + 1 < e; ++k)
      if (t_[k].kind() == tok::op && (nesting += bracket_nesting(t_[k].flags())) == 0)
        return nullptr; // `C(a)(b)`, `C(a) or f`
    return class_named(text(b));
  }

  /// What a value [b, e) may hold: a function, or an instance of a class of the module
  /// (added to `classes`), whose arguments may pass one.
  [[nodiscard]] bool holds_function(std::uint32_t b, std::uint32_t e, class_queue& classes) const {
    const definition* cls = instance_of(b, e);
    if (!cls)
      return mentions(b, e);
    classes.add(cls);
    return mentions(b + 2, e - 1);
  }

  /// Whether what def `d` returns may hold a function, or members (as below) read off it:
  /// an instance of a class of the module its returns make.
  [[nodiscard]] bool returns_hold_function(const definition& d,
                                           const std::vector<std::string_view>& members,
                                           bool called) const {
    class_queue classes;
    for (std::uint32_t k = d.body_begin; k < d.body_end && k < t_.size(); ++k)
      if ((t_[k].is_keyword("return") || t_[k].is_keyword("yield")) &&
          holds_function(k + 1, std::min(statement_end(t_, k), d.body_end), classes))
        return true;
    for (const definition* cls : classes.order)
      if (members_hold_function(*cls, members, called))
        return true;
    return false;
  }

  /// Whether members (attributes read one after another off an instance of class `cls`,
  /// the last one called when `called`) may hold a function: a method of the class or of
  /// a base the module defines (called: what it returns), a class attribute or what a
  /// method sets of `self` given a function, or an instance of another class of the
  /// module whose members do.
  [[nodiscard]] bool members_hold_function(const definition& cls,
                                           const std::vector<std::string_view>& members,
                                           bool called) const {
    class_queue classes;
    classes.add(&cls);
    for (std::size_t c = 0; c < classes.order.size(); ++c) {
      const definition& d = *classes.order[c];
      // Its bases of the module's own.
      if (d.keyword + 2 < d.colon && t_[d.keyword + 2].is_op("("))
        for (std::uint32_t k = d.keyword + 3; k < d.colon; ++k)
          if (t_[k].kind() == tok::name && !t_[k - 1].is_op(".") && !t_[k + 1].is_op(".") &&
              !t_[k + 1].is_op("="))
            classes.add(class_named(text(k)));
      for (const definition* in_body : defined_in(d.own_scope)) {
        const definition& method = *in_body;
        if (method.is_class)
          continue;
        // Any attribute may be what `__getattr__` makes.
        const std::string_view name = text(method.keyword + 1);
        if ((name == "__getattr__" || name == "__getattribute__") && def_returns_function(method))
          return true;
        // An attribute set by name (`setattr(self, name, f)`) may be any.
        for (std::uint32_t k = method.body_begin; k + 1 < method.body_end; ++k)
          if (t_[k].kind() == tok::name && text(k) == "setattr" && t_[k + 1].is_op("(") &&
              !t_[k - 1].is_op(".") && mentions(k + 2, statement_end(t_, k)))
            return true;
      }
      for (std::size_t i = 0; i < members.size(); ++i) {
        const std::string_view member = members[i];
        // A method (called: what it returns) or a property (what its getter returns).
        for (const definition* in_body : defined_in(d.own_scope)) {
          const definition& method = *in_body;
          if (text(method.keyword + 1) != member)
            continue;
          if (i + 1 < members.size() || method.is_class)
            return true;
          if (is_property(m_.ts, method) ? called || def_returns_function(method)
                                         : !called || def_returns_function(method))
            return true;
        }
        for (const auto& r : m_.scan->scopes[static_cast<std::size_t>(d.own_scope)].records)
          if (text(r.name) == member && holds_function(r.rhs_begin, r.rhs_end, classes))
            return true;
        // `self.member = ...` in its methods, whatever their first parameter is called.
        for (const definition* in_body : defined_in(d.own_scope)) {
          const definition& method = *in_body;
          const std::uint32_t self = method.keyword + 3;
          if (method.is_class || self >= method.colon || t_[self].kind() != tok::name)
            continue;
          for (std::uint32_t k = method.body_begin; k + 3 < method.body_end && k + 3 < t_.size();
               ++k)
            if (t_[k].kind() == tok::name && text(k) == text(self) && t_[k + 1].is_op(".") &&
                separates_statements(t_, k - 1) &&
                ((text(k + 2) == member && t_[k + 3].is_op("=") &&
                  holds_function(k + 4, std::min(statement_end(t_, k), method.body_end),
                                 classes)) ||
                 (text(k + 2) == "__dict__" && mentions(k, statement_end(t_, k)))))
              return true;
        }
      }
    }
    return false;
  }

private:
  /// Fills classes_ and defined_in_, once.
  void index() const {
    if (indexed_)
      return;
    indexed_ = true;
    for (const definition& d : m_.scan->definitions) {
      if (d.is_class && d.scope == 0 && d.own_scope >= 0)
        classes_.insert_or_assign(text(d.keyword + 1), &d); // the last binds it
      defined_in_[d.scope].push_back(&d);
    }
  }

  const scanned_module& m_;
  const std::vector<token>& t_;
  std::unordered_set<std::string_view> functions_;
  mutable bool indexed_ = false;
  mutable std::unordered_map<std::string_view, const definition*> classes_;
  mutable std::unordered_map<std::int32_t, std::vector<const definition*>> defined_in_;
};

} // namespace

template <class Answer>
bool loader_state::through_reexports(const importer& from, std::string_view module,
                                     std::uint32_t level, std::string_view name,
                                     std::unordered_map<std::string, bool>& cache,
                                     std::string_view suffix, Answer&& answer) {
  importer at = from;
  std::string current_module(module), current(name);
  std::uint32_t current_level = level;
  for (std::size_t depth = 0; depth < max_chain; ++depth) {
    std::vector<std::string> searched;
    const auto m = find(at, current_module, current_level, searched);
    if (!m)
      return false;
    if (m->unreadable || m->error || m->scan->dynamic_globals)
      return true;
    // Asked for each argument of a method: each is read once.
    std::string key = star_key(m.get(), current);
    key += suffix;
    if (const auto it = cache.find(key); it != cache.end())
      return it->second;
    const module_functions reader(*m);
    if (const int here = answer(*m, reader, std::string_view(current)); here >= 0) {
      cache.emplace(key, here == 1);
      return here == 1;
    }
    const import_record* imp = import_of(*m->scan, current, 0, true);
    if (!imp || imp->name.empty())
      return false;
    at = importer_in(*m);
    current_module = imp->module;
    current = imp->name;
    current_level = imp->level;
  }
  return true;
}

bool loader_state::returns_function(const importer& from, std::string_view module,
                                    std::uint32_t level, std::string_view name) {
  return through_reexports(
      from, module, level, name, returns_function_, "",
      [](const scanned_module& m, const module_functions& reader, std::string_view current) {
        for (const definition& d : m.scan->definitions) {
          if (d.scope != 0 || reader.text(d.keyword + 1) != current)
            continue;
          if (d.is_class)
            return names_call(m.ts, d) ? 1 : 0;
          return reader.def_returns_function(d) ? 1 : 0;
        }
        return -1; // not defined here
      });
}

bool loader_state::member_holds_function(const importer& from, std::string_view module,
                                         std::uint32_t level, std::string_view name,
                                         const std::vector<std::string_view>& members,
                                         bool called) {
  std::string suffix;
  for (const std::string_view member : members)
    (suffix += '.') += member;
  if (called)
    suffix += "()";
  return through_reexports(
      from, module, level, name, member_holds_function_, suffix,
      [&](const scanned_module& m, const module_functions& reader, std::string_view current) {
        // The class itself (`Config.order`, `Config().hook`), or an instance the module
        // binds the name to (`cfg = Config()`), whose class is read.
        if (const definition* cls = reader.class_named(current))
          return reader.members_hold_function(*cls, members, called) ? 1 : 0;
        // A def (`settings.make_config().key`): the instances its returns make, or a
        // function they give.
        for (const definition* d : reader.defined_in(0))
          if (!d->is_class && reader.text(d->keyword + 1) == current)
            return reader.returns_hold_function(*d, members, called) ? 1 : 0;
        int bound = -1; // not bound here
        for (const auto& r : m.scan->scopes[0].records) {
          if (reader.text(r.name) != current)
            continue;
          bound = 0;
          module_functions::class_queue classes;
          if (meaning_of(m.ts.tokens, r).what == record_meaning::kind::function ||
              reader.holds_function(r.rhs_begin, r.rhs_end, classes) ||
              (!classes.order.empty() &&
               reader.members_hold_function(*classes.order.front(), members, called)))
            return 1;
        }
        // What the module puts into it afterwards (`cfg.key = f`).
        if (bound == 0 && reader.given_function(current))
          return 1;
        return bound;
      });
}

loader_state::decorator_lookup loader_state::decorator(const importer& from,
                                                       std::string_view module, std::uint32_t level,
                                                       std::string_view name) {
  decorator_chain chain;
  exhausted_set exhausted;
  return decorator_from(from, module, level, name, chain, exhausted);
}

loader_state::decorator_lookup
loader_state::decorator_from(const importer& from, std::string_view module, std::uint32_t level,
                             std::string_view name, decorator_chain& chain,
                             exhausted_set& exhausted) {
  using kind = decorator_lookup::kind;
  std::vector<std::string> searched;
  const auto m = find(from, module, level, searched);
  if (m)
    return decorator_in(m, name, chain, exhausted);
  // The program's own package, imported absolutely from inside it (`from models.compat
  // import host_jit` in models/llama.py): Python finds it from where it runs.
  if (level != 0)
    return {kind::missing, {}};
  std::string key(from.directory);
  key += '\0';
  key += module;
  std::pair<std::string, std::string> above;
  bool known = false;
  {
    std::lock_guard<std::mutex> g(lock_);
    if (const auto it = above_.find(key); it != above_.end()) {
      above = it->second;
      known = true;
    }
  }
  if (!known) {
    above = found_above(from, module);
    std::lock_guard<std::mutex> g(lock_);
    above_.emplace(std::move(key), above);
  }
  if (!above.first.empty())
    return {kind::unread, "module '" + std::string(module) +
                              "' is not on the search path (add -I " + above.first +
                              " to read it from " + above.second + ")"};
  return {kind::missing, {}};
}

loader_state::decorator_lookup loader_state::decorator_in(const std::shared_ptr<scanned_module>& m,
                                                          std::string_view name,
                                                          decorator_chain& chain,
                                                          exhausted_set& exhausted) {
  using kind = decorator_lookup::kind;
  if (m->unreadable)
    return {kind::unread, "its module " + m->path + " cannot be read"};
  if (m->error)
    return {kind::unread, "its module " + m->path + " has a syntax error on line " +
                              std::to_string(m->error->line) + ": " + m->error->message};
  for (const auto& [module, n] : chain)
    if (module == m.get() && n == name)
      return {}; // a cycle, which Python does not finish either
  if (chain.size() >= max_chain)
    return {kind::unread, "it is imported through a chain of more than " +
                              std::to_string(max_chain) + " modules"};
  chain.emplace_back(m.get(), std::string(name));
  const module_scan& scan = *m->scan;
  const auto& t = m->ts.tokens;
  const auto& records = scan.scopes[0].records;
  const std::size_t bindings = module_bindings(*m, name);
  const auto unread_here = [&] {
    return decorator_lookup{kind::unread, "module " + m->path + " makes '" + std::string(name) +
                                              "' from the DSL's decorators in a way the front "
                                              "end does not read"};
  };
  // An alias of the DSL's names, or an import of them (`host_jit = pl.jit.host`, `from
  // pypto.language import jit`).
  std::string canonical = scan.names.canonical(name);
  if (canonical == "pl" || canonical.starts_with("pl.")) {
    if (bindings > 1)
      return {kind::unread,
              "module " + m->path + " binds '" + std::string(name) + "' more than once"};
    return {kind::dsl, std::move(canonical)};
  }
  std::call_once(m->unread_decorators_once, [&] {
    // The findings of the check a file of its own gets (a reference to pl.jit.host that
    // decorates nothing, a wrapping it cannot read), each charged to the module-level
    // bindings of the statement it lies in: those of the line of the last binding that
    // starts at or above it (`a, b = pl.jit.host, pl.jit` binds both).
    std::vector<std::uint32_t> lines; // of the records, which are in source order
    lines.reserve(records.size());
    for (const auto& rec : records)
      lines.push_back(m->ts.where_offset(t[rec.name].begin).line);
    for (const auto& f : unknown_decorators(m->ts, scan)) {
      const auto past = std::upper_bound(lines.begin(), lines.end(), f.diagnostic.where.line);
      if (past == lines.begin())
        continue;
      for (auto k = std::lower_bound(lines.begin(), past, *std::prev(past)); k != past; ++k)
        m->unread_decorators.insert(
            m->ts.text(t[records[static_cast<std::size_t>(k - lines.begin())].name]));
    }
    // And a binding to a value made of such a name (`host_jit = D.host` of a class D
    // whose body holds `host = pl.jit.host`), in turn: each round adds one or ends.
    for (bool grew = !m->unread_decorators.empty(); grew;) {
      grew = false;
      for (const auto& rec : records) {
        const std::string_view n = m->ts.text(t[rec.name]);
        if (rec.rhs_end == 0 || m->unread_decorators.contains(n))
          continue;
        for (std::uint32_t k = rec.rhs_begin; k < rec.rhs_end && !grew; ++k)
          grew = t[k].kind() == tok::name && !(k > 0 && t[k - 1].is_op(".")) &&
                 m->unread_decorators.contains(m->ts.text(t[k]));
        if (grew)
          m->unread_decorators.insert(n);
      }
    }
  });
  if (m->unread_decorators.contains(name))
    return unread_here();
  const importer here = importer_in(*m);
  if (const import_record* imp = import_of(scan, name, 0, true)) {
    if (imp->name.empty() || imports_the_dsl(*imp))
      return {}; // a module (read by the caller through its path), or the DSL's own
    auto found = decorator_from(here, imp->module, imp->level, imp->name, chain, exhausted);
    return found.what == kind::missing ? decorator_lookup{} : found;
  }
  if (bindings == 1)
    for (const auto& rec : records)
      if (rec.rhs_end != 0 && m->ts.text(t[rec.name]) == name) {
        // `star_host = host_jit` of a name that reaches the DSL's: the dotted name it is, or
        // a value made of such names, which the front end does not read.
        const bool dotted = !dotted_name(m->ts, rec.rhs_begin, rec.rhs_end).empty();
        for (std::uint32_t q = rec.rhs_begin; q < rec.rhs_end; ++q) {
          if (t[q].kind() != tok::name || t[q].is_reserved() || (q > 0 && t[q - 1].is_op(".")) ||
              m->ts.text(t[q]) == name)
            continue;
          auto branch = chain;
          auto found = decorator_in(m, m->ts.text(t[q]), branch, exhausted);
          if (found.what == kind::none || found.what == kind::missing)
            continue;
          if (dotted && found.what == kind::dsl) {
            for (std::uint32_t a = q + 2; a < rec.rhs_end; a += 2) {
              found.spelling += '.';
              found.spelling += m->ts.text(t[a]);
            }
            return found;
          }
          return found.what == kind::dsl ? unread_here() : found;
        }
      }
  if (bindings > 0)
    return {}; // a def, a class or a value of its own, with nothing of the DSL's in it
  // The last star import whose module exports it, as in Python.
  for (auto it = scan.star_modules.rbegin(); it != scan.star_modules.rend(); ++it) {
    std::vector<std::string> searched;
    auto next = find(here, it->first, it->second, searched);
    if (!next)
      continue;
    const auto exported = next->scan ? star_exports(*next, name) : std::optional<bool>();
    if (exported && !*exported && next->scan->star_modules.empty())
      continue;
    std::string key = star_key(next.get(), name);
    decorator_lookup found;
    if (!exhausted.contains(key)) {
      auto branch = chain;
      found = decorator_in(next, name, branch, exhausted);
      if (found.what == kind::none)
        exhausted.insert(std::move(key));
    }
    if (found.what != kind::none || !exported || *exported)
      return found;
  }
  return {};
}

void adopt_imported_decorators(const token_stream& ts, module_scan& scan, loader_state& loader,
                               const importer& from, std::vector<front_end_diagnostic>& out) {
  using kind = loader_state::decorator_lookup::kind;
  const auto& t = ts.tokens;
  struct found_decorator {
    std::string module;    ///< where it was looked up, as the file names it
    std::string canonical; ///< the DSL's spelling of the whole dotted name
    std::string why;       ///< or: why the front end cannot tell what it is
  };
  // What the dotted name [b, end) seen from `scope` spells of the DSL's, when its first
  // name reaches another module of the program: an import (`host_jit` of `from compat
  // import host_jit`, `compat.jit.host` of `import compat`, `compat.host_jit` of `from pkg
  // import compat`), a star import that exports it, or a name the file binds once to such
  // a dotted name (`host_jit = compat.host_jit`).
  const auto imported = [&](std::uint32_t b, std::uint32_t end, std::int32_t scope, auto&& self,
                            int depth) -> std::optional<found_decorator> {
    if (t[b].kind() != tok::name || depth > 4)
      return std::nullopt;
    std::vector<std::string_view> attrs; // after the first name
    std::uint32_t k = b + 1;
    for (; k + 1 < end && t[k].is_op(".") && t[k + 1].kind() == tok::name; k += 2)
      attrs.push_back(ts.text(t[k + 1]));
    if (k != end)
      return std::nullopt; // no dotted name
    const std::string_view root = ts.text(t[b]);
    const auto extend = [](std::string& spelling, std::span<const std::string_view> rest) {
      for (const auto a : rest) {
        spelling += '.';
        spelling += a;
      }
    };
    // The module and name to look up first, then the attributes left after them.
    const auto finish =
        [&](loader_state::decorator_lookup found, std::string module,
            std::span<const std::string_view> rest) -> std::optional<found_decorator> {
      if (found.what == kind::unread)
        return found_decorator{std::move(module), {}, std::move(found.spelling)};
      if (found.what != kind::dsl)
        return std::nullopt;
      extend(found.spelling, rest);
      return found_decorator{std::move(module), std::move(found.spelling), {}};
    };
    if (const import_record* imp = import_of(scan, root, scope)) {
      if (imports_the_dsl(*imp))
        return std::nullopt;
      // The path of names from the module: `M.X.a.b` for `from M import X` and `X.a.b`;
      // a prefix of it names a module, the longest found first, and the name after it is
      // looked up there.
      std::vector<std::string_view> path;
      if (!imp->name.empty())
        path.push_back(imp->name);
      path.insert(path.end(), attrs.begin(), attrs.end());
      for (std::size_t j = path.size(); j-- > 0;) {
        std::string module = imp->module;
        for (std::size_t q = 0; q < j; ++q) {
          if (!module.empty())
            module += '.';
          module += path[q];
        }
        if (module.empty())
          continue;
        auto found = loader.decorator(from, module, imp->level, path[j]);
        if (found.what == kind::missing)
          continue;
        return finish(std::move(found), std::string(imp->level, '.') + module,
                      std::span(path).subspan(j + 1));
      }
      return std::nullopt;
    }
    // A name the file binds once, in the scopes around, to a dotted name.
    for (std::int32_t s = scope; s >= 0;) {
      const auto& sc = scan.scopes[static_cast<std::size_t>(s)];
      const py_scope::record* only = nullptr;
      std::size_t count = 0;
      if (s == scope || sc.what != py_scope::kind::class_body)
        for (const auto& r : sc.records)
          if (ts.text(t[r.name]) == root) {
            ++count;
            only = &r;
          }
      if (count > 0) {
        if (count != 1 || only->rhs_end == 0)
          return std::nullopt;
        auto found = self(only->rhs_begin, only->rhs_end, s, self, depth + 1);
        if (found && !found->canonical.empty())
          extend(found->canonical, attrs);
        return found;
      }
      s = sc.parent;
    }
    // Bound nowhere in the file: a star import's.
    for (auto it = scan.star_modules.rbegin(); it != scan.star_modules.rend(); ++it) {
      auto found = loader.decorator(from, it->first, it->second, root);
      if (found.what == kind::none || found.what == kind::missing)
        continue;
      return finish(std::move(found), std::string(it->second, '.') + it->first, attrs);
    }
    return std::nullopt;
  };
  const auto report = [&](std::uint32_t at, std::string message, std::string help) {
    front_end_diagnostic fd;
    fd.code = "unknown-decorator";
    const auto where = ts.where_offset(t[at].begin);
    fd.where = {where.line, where.column};
    fd.message = std::move(message);
    fd.help = std::move(help);
    out.push_back(std::move(fd));
  };
  // Adopting appends to the definitions' programs only: the list itself does not move.
  for (std::size_t i = 0; i < scan.definitions.size(); ++i) {
    if (scan.definitions[i].role != definition::dsl::none)
      continue;
    const definition& d = scan.definitions[i];
    for (const auto& [b, e] : d.decorators) {
      std::uint32_t end = b;
      while (end < e && !t[end].is_op("("))
        ++end;
      const auto found = imported(b, end, d.scope, imported, 0);
      if (!found)
        continue;
      const std::string spelled = dotted_name(ts, b, end);
      if (found->canonical.empty()) {
        report(b,
               "cannot read '@" + spelled + "': " + found->why +
                   ", so the function it decorates would drop out of the check",
               "decorate the function with the DSL's decorator itself ('@pl.jit.host'), or "
               "bind the name once in a module of the program as a plain alias of it "
               "('host_jit = pl.jit.host')");
        break;
      }
      if (module_scan::role_of(found->canonical, d.is_class) != definition::dsl::none) {
        scan.adopt(i, found->canonical, b);
        break;
      }
      if (names_dsl_decorator(found->canonical)) {
        report(b,
               "unknown decorator '" + spelled + "' (the DSL's '" + found->canonical +
                   "', through module '" + found->module + "'): the DSL has no such decorator",
               "decorate the function with one of the DSL's decorators ('@pl.jit.host', "
               "'@pl.jit', '@pl.function(...)')");
        break;
      }
    }
  }
  // `host = host_jit(host_impl)` through such a name: the scan reads a wrapping by the
  // DSL's own spellings alone, so the function it makes would go unseen. Most bindings of
  // a call call no imported name: they are passed over before any lookup.
  std::unordered_set<std::string_view> imported_names;
  for (const auto& imp : scan.imports)
    if (!imports_the_dsl(imp))
      imported_names.insert(imp.local);
  for (std::size_t sc = 0; sc < scan.scopes.size(); ++sc)
    for (const auto& r : scan.scopes[sc].records) {
      if (r.rhs_end < r.rhs_begin + 3 || t[r.rhs_begin].kind() != tok::name ||
          !t[r.rhs_end - 1].is_op(")") ||
          (scan.star_modules.empty() && !imported_names.contains(ts.text(t[r.rhs_begin]))))
        continue;
      std::uint32_t end = r.rhs_begin;
      while (end < r.rhs_end && !t[end].is_op("("))
        ++end;
      const auto found = imported(r.rhs_begin, end, static_cast<std::int32_t>(sc), imported, 0);
      if (!found || (!found->canonical.empty() && !names_dsl_decorator(found->canonical)))
        continue;
      // One the front end cannot tell for the DSL's is taken for a wrapping only in the
      // form of one: a call on a name alone (`host = make_host(host_impl)`).
      if (found->canonical.empty() &&
          !(end + 3 == r.rhs_end && t[end + 1].kind() == tok::name && !t[end + 1].is_reserved()))
        continue;
      const std::string spelled = dotted_name(ts, r.rhs_begin, end);
      report(r.rhs_begin,
             "cannot read '" + std::string(ts.text(t[r.name])) + " = " + spelled + "(...)': '" +
                 spelled + "', through module '" + found->module + "', " +
                 (found->canonical.empty() ? "may make DSL functions (" + found->why + ")"
                                           : "is the DSL's " + found->canonical) +
                 ", and the function this call makes would drop out of the check",
             found->canonical.empty()
                 ? std::string("decorate the def with the DSL's decorator itself ('@pl.jit.host')")
                 : "decorate the def with '@" + spelled + "' instead");
    }
}

resolution loader_state::function_in(const std::shared_ptr<scanned_module>& m,
                                     std::string_view name,
                                     std::vector<const scanned_module*>& chain,
                                     exhausted_set& exhausted) {
  resolution r;
  r.module_path = m->path;
  if (m->unreadable) {
    r.what = resolution::status::module_missing;
    r.searched.push_back(m->path + " (unreadable)");
    r.module = m->path;
    return r;
  }
  if (m->error) {
    r.what = resolution::status::broken;
    r.broken = m.get();
    return r;
  }
  if (std::find(chain.begin(), chain.end(), m.get()) != chain.end() || chain.size() >= max_chain) {
    r.what = resolution::status::stopped;
    return r;
  }
  chain.push_back(m.get());
  const std::size_t bindings = module_bindings(*m, name);
  if (auto it = m->functions.find(name); it != m->functions.end()) {
    r.what = resolution::status::found;
    r.function = &it->second;
    // Bound again: by a second binding, through globals() or exec, or by a star import
    // below the def that may bind the name (`from fastk import *`).
    r.rebound = bindings > 1 || m->scan->dynamic_globals;
    const auto& stars = m->scan->star_tokens;
    const importer here = importer_in(*m);
    for (std::size_t k = 0; k < stars.size() && !r.rebound; ++k) {
      const auto& [module, level] = m->scan->star_modules[k];
      r.rebound = stars[k] > it->second.token && star_may_bind(here, module, level, name);
    }
    return r;
  }
  const import_record* imp = import_of(*m->scan, name, 0, true);
  const importer here = importer_in(*m);
  if (!imp) {
    // A package's `from .kernels import *` re-exports the DSL functions of that module:
    // the last star import that exports the name binds it, as in Python. One that binds
    // it to something else, or may, ends the search: the name is that, no DSL function.
    for (auto it = m->scan->star_modules.rbegin(); it != m->scan->star_modules.rend(); ++it) {
      std::vector<std::string> searched;
      auto next = find(here, it->first, it->second, searched);
      if (!next)
        continue;
      const auto exported = next->error ? std::optional<bool>(true) : star_exports(*next, name);
      if (exported && !*exported && next->scan && next->scan->star_modules.empty())
        continue;
      std::string key = star_key(next.get(), name);
      if (!exhausted.contains(key)) {
        auto branch = chain;
        auto sub = function_in(next, name, branch, exhausted);
        if (sub.what == resolution::status::found || sub.what == resolution::status::broken) {
          sub.rebound = sub.rebound || bindings > 1;
          return sub;
        }
        exhausted.insert(std::move(key));
      }
      if (!exported || *exported) {
        r.what = resolution::status::no_function;
        return r;
      }
    }
  }
  if (!imp || imp->name.empty()) {
    r.what = resolution::status::no_function;
    return r;
  }
  std::vector<std::string> searched;
  auto next = find(here, imp->module, imp->level, searched);
  if (!next) {
    r.what = resolution::status::module_missing;
    r.module = std::string(imp->level, '.') + imp->module;
    r.searched = std::move(searched);
    return r;
  }
  auto sub = function_in(next, imp->name, chain, exhausted);
  sub.rebound = sub.rebound || bindings > 1;
  return sub;
}

void loader_state::index_run() {
  word_filter module_words;
  module_words.bits.assign(std::bit_ceil(std::max<std::size_t>(16, run_files.size() / 2)), 0);
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> named; // module word -> files
  for (std::uint32_t i = 0; i < run_files.size(); ++i) {
    auto& f = *run_files[i];
    const fs::path p(f.key);
    const bool package = p.filename() == "__init__.py";
    f.module_word = word_filter::hash((package ? p.parent_path().filename() : p.stem()).string());
    module_words.add(f.module_word);
    named[f.module_word].push_back(i);
    run_file_of.emplace(f.key, i);
  }
  std::vector<std::uint64_t> kept;
  for (std::uint32_t i = 0; i < run_files.size(); ++i) {
    auto& f = *run_files[i];
    // Only its words are kept: a library's texts would all stay in memory otherwise.
    std::string text;
    kept.clear();
    if (read_file(f.path, text))
      f.words = word_filter::of(text, &module_words, &kept);
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    for (const auto h : kept)
      if (const auto it = named.find(h); it != named.end())
        for (const auto j : it->second)
          if (j != i)
            f.imports_from.push_back(j);
    // The packages above it, up to the first directory that is none.
    fs::path dir = fs::path(f.key).parent_path();
    if (fs::path(f.key).filename() == "__init__.py")
      dir = dir.parent_path();
    for (int depth = 0; depth < 64 && dir.has_relative_path(); ++depth) {
      const auto it = run_file_of.find((dir / "__init__.py").string());
      if (it == run_file_of.end())
        break;
      f.imports_from.push_back(it->second);
      dir = dir.parent_path();
    }
  }
}

std::optional<host_caller> loader_state::host_called_elsewhere(std::string_view path,
                                                               std::string_view name) {
  if (run_files.size() < 2 || path.empty() || name.empty())
    return std::nullopt;
  const std::string key = file_key(std::string(path));
  std::call_once(run_index_once, [&] { index_run(); });
  const auto self_at = run_file_of.find(key);
  if (self_at == run_file_of.end())
    return std::nullopt;
  const std::uint32_t self_index = self_at->second;
  const std::uint64_t spelled = word_filter::hash(name);
  std::shared_ptr<scanned_module> self;
  const imported_function* target = nullptr;
  // Whether file `from` may import the host's file: along imports_from, the files whose
  // module word it spells (a re-export on the way) and the packages above it.
  std::vector<std::uint32_t> seen, work; // made for the first file that spells the name
  std::uint32_t stamp = 0;
  const auto reaches = [&](std::uint32_t from) {
    if (seen.empty())
      seen.assign(run_files.size(), 0);
    ++stamp;
    work.assign(1, from);
    seen[from] = stamp;
    while (!work.empty()) {
      const auto i = work.back();
      work.pop_back();
      for (const auto j : run_files[i]->imports_from) {
        if (j == self_index)
          return true;
        if (seen[j] != stamp) {
          seen[j] = stamp;
          work.push_back(j);
        }
      }
    }
    return false;
  };
  for (std::uint32_t i = 0; i < run_files.size(); ++i) {
    run_file& f = *run_files[i];
    // Only a file that spells the name itself, and may import its module, is scanned.
    if (i == self_index || !f.words.may_hold(spelled) || !reaches(i))
      continue;
    if (!self) {
      self = load(std::string(path), key);
      const auto it = self->scan ? self->functions.find(name) : self->functions.end();
      if (it == self->functions.end() || it->second.role != definition::dsl::jit_host)
        return std::nullopt;
      target = &it->second;
    }
    std::call_once(f.indexed, [&] { index_callers(load(f.path, f.key), f); });
    for (const auto& [callee, caller] : f.callers)
      if (callee == target)
        return caller;
  }
  return std::nullopt;
}

void loader_state::index_callers(const std::shared_ptr<scanned_module>& m, run_file& f) {
  if (!m || !m->scan)
    return;
  const auto& ts = m->ts;
  const auto& t = ts.tokens;
  const module_scan& scan = *m->scan;
  const importer from = importer_in(*m);
  // The DSL function a name of a module is, resolved once per file.
  std::map<std::tuple<std::string, std::uint32_t, std::string>, const imported_function*> resolved;
  const auto dsl_function = [&](const std::string& module, std::uint32_t level,
                                std::string_view n) -> const imported_function* {
    auto [it, fresh] = resolved.try_emplace({module, level, std::string(n)}, nullptr);
    if (fresh) {
      resolution r = function(from, module, level, n);
      // An absolute import of the library's own package, which Python finds from the
      // directory it runs in: a caller even where the search path misses it.
      if (r.what == resolution::status::module_missing && level == 0)
        if (const auto [dir, file] = found_above(from, module); !dir.empty()) {
          importer above;
          above.directory = dir;
          above.has_directory = true;
          r = function(above, module, 0, n);
        }
      if (r.what == resolution::status::found)
        it->second = r.function;
    }
    return it->second;
  };
  // One caller per host and file: the first the file names it in.
  const auto add = [&](const imported_function* callee, const definition* d, std::uint32_t k) {
    if (!callee || callee->role != definition::dsl::jit_host)
      return;
    for (const auto& c : f.callers)
      if (c.first == callee)
        return;
    f.callers.emplace_back(
        callee, host_caller{f.path, ts.line(t[k]), d ? std::string(ts.text(t[d->name])) : ""});
  };
  // The import that binds a name used outside the DSL functions: the module's, else that
  // of any function of the file (where a use is, the scan does not say: wider is sound).
  const auto import_outside = [&](std::string_view n) -> const import_record* {
    if (const import_record* rec = import_of(scan, n, 0))
      return rec;
    for (const auto& r : scan.imports)
      if (r.local == n && !imports_the_dsl(r))
        return &r;
    return nullptr;
  };
  // The DSL functions' bodies in source order: any use there counts. Outside them, as in
  // the host's own file (names_used_as_values), a name held as a value (`build = make`,
  // `HOSTS = {"m": stages.make}`) may reach a DSL function anywhere, while a call is the
  // runtime's, a binding rebinds the name and an import statement only binds it.
  std::vector<const definition*> bodies;
  for (const auto& d : scan.definitions)
    if (d.role != definition::dsl::none && !d.is_class)
      bodies.push_back(&d);
  std::sort(bodies.begin(), bodies.end(),
            [](const definition* a, const definition* b) { return a->body_begin < b->body_begin; });
  std::size_t next_body = 0;
  bool statement_start = true, in_import = false;
  for (std::uint32_t k = 0; k < t.size(); ++k) {
    const token& x = t[k];
    const bool starts = statement_start;
    statement_start = x.kind() == tok::newline || x.kind() == tok::indent ||
                      x.kind() == tok::dedent || x.is_op(";");
    if (statement_start) {
      in_import = false;
      continue;
    }
    if (starts && (x.is_keyword("import") || x.is_keyword("from")))
      in_import = true;
    if (x.kind() != tok::name || x.is_reserved() || (k > 0 && t[k - 1].is_op(".")))
      continue;
    while (next_body < bodies.size() && bodies[next_body]->body_end <= k)
      ++next_body;
    const definition* d = next_body < bodies.size() && bodies[next_body]->body_begin <= k
                              ? bodies[next_body]
                              : nullptr;
    if (!d && (in_import || (k + 1 < t.size() && (t[k + 1].is_op("(") || t[k + 1].is_op("=")))))
      continue;
    const std::string_view n = ts.text(x);
    const import_record* rec =
        d ? import_of(scan, n, d->own_scope >= 0 ? d->own_scope : d->scope) : import_outside(n);
    if (!rec) { // `from M import *`: the last star module that has the name
      for (auto s = scan.star_modules.rbegin(); s != scan.star_modules.rend(); ++s)
        if (const auto* callee = dsl_function(s->first, s->second, n)) {
          add(callee, d, k);
          break;
        }
      continue;
    }
    if (imports_the_dsl(*rec))
      continue;
    if (!rec->name.empty()) // `from M import h [as n]`
      add(dsl_function(rec->module, rec->level, rec->name), d, k);
    // `m.h` or `P.Q.h`, where the import binds `m` or `P`; outside the bodies not where
    // it is called or bound.
    std::string module = module_of_use(*rec);
    for (std::uint32_t a = k + 1;
         a + 1 < t.size() && t[a].is_op(".") && t[a + 1].kind() == tok::name; a += 2) {
      const std::string_view attr = ts.text(t[a + 1]);
      if (d || a + 2 >= t.size() || !(t[a + 2].is_op("(") || t[a + 2].is_op("=")))
        add(dsl_function(module, rec->level, attr), d, k);
      module += '.';
      module += attr;
    }
  }
}

namespace {
/// What the constants of an imported module need to follow its own imports.
struct constant_context {
  loader_state* loader;
  const scanned_module* module;
  std::uint32_t chain;
};
} // namespace

std::optional<std::int64_t> loader_state::constant(const importer& from, std::string_view module,
                                                   std::uint32_t level, std::string_view name,
                                                   std::uint32_t chain) {
  std::vector<std::string> searched;
  auto m = find(from, module, level, searched);
  if (!m)
    return std::nullopt;
  return constant_in(m, name, chain);
}

std::optional<std::int64_t> loader_state::constant_in(const std::shared_ptr<scanned_module>& m,
                                                      std::string_view name, std::uint32_t chain) {
  if (!m->scan || chain >= max_chain)
    return std::nullopt;
  {
    std::lock_guard<std::mutex> g(m->constants_lock);
    if (auto it = m->constants.find(std::string(name)); it != m->constants.end())
      return it->second;
  }
  static const module_options no_defines;
  constants c(m->ts, *m->scan, no_defines);
  constant_context context{this, m.get(), chain};
  c.import_constants(
      [](void* ctx, std::string_view n, std::int32_t scope) -> std::optional<std::int64_t> {
        auto& cc = *static_cast<constant_context*>(ctx);
        const import_record* imp = import_of(*cc.module->scan, n, scope, true);
        if (!imp || imp->name.empty())
          return std::nullopt;
        return cc.loader->constant(importer_in(*cc.module), imp->module, imp->level, imp->name,
                                   cc.chain + 1);
      },
      &context);
  const auto v = c.resolve(name, 0);
  if (v || chain == 0) { // an open name deep in a chain may be a constant seen from nearer
    std::lock_guard<std::mutex> g(m->constants_lock);
    m->constants.emplace(std::string(name), v);
  }
  return v;
}

} // namespace detail
} // namespace commscope::frontend
