#include "config.hpp"

#include <commscope/frontend/frontend.hpp>

#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <system_error>
#include <tuple>

namespace commscope::opt {

namespace fs = std::filesystem;

namespace {

// ---- globs ------------------------------------------------------------------------------

constexpr std::size_t npos = std::string_view::npos;

// One token of a glob segment. A class keeps its body (between `[` or `[!` and `]`),
// read again for each character it is tested against: the body is short, and a glob is
// tested against few characters.
struct glob_token {
  enum class kind : unsigned char { literal, any, star, cls };
  kind k = kind::literal;
  char c = 0;
  bool negated = false;
  std::string_view body;

  static glob_token of(kind k, char c = 0) {
    glob_token t;
    t.k = k;
    t.c = c;
    return t;
  }
};

std::vector<glob_token> tokenize(std::string_view p) {
  std::vector<glob_token> r;
  for (std::size_t i = 0; i < p.size();) {
    const char t = p[i];
    if (t == '*') {
      if (r.empty() || r.back().k != glob_token::kind::star) // `**` inside a segment is `*`
        r.push_back(glob_token::of(glob_token::kind::star));
      ++i;
    } else if (t == '?') {
      r.push_back(glob_token::of(glob_token::kind::any));
      ++i;
    } else if (t == '\\' && i + 1 < p.size()) {
      r.push_back(glob_token::of(glob_token::kind::literal, p[i + 1]));
      i += 2;
    } else if (t == '[') {
      std::size_t j = i + 1;
      const bool negated = j < p.size() && (p[j] == '!' || p[j] == '^');
      if (negated)
        ++j;
      // A ']' first in the class is a member, not the end.
      const std::size_t close = j < p.size() ? p.find(']', j + 1) : npos;
      if (close == npos) { // no closing ']': the '[' is itself
        r.push_back(glob_token::of(glob_token::kind::literal, t));
        ++i;
      } else {
        glob_token c = glob_token::of(glob_token::kind::cls);
        c.negated = negated;
        c.body = p.substr(j, close - j);
        r.push_back(c);
        i = close + 1;
      }
    } else {
      r.push_back(glob_token::of(glob_token::kind::literal, t));
      ++i;
    }
  }
  return r;
}

bool token_matches(const glob_token& t, char c) {
  switch (t.k) {
  case glob_token::kind::literal:
    return t.c == c;
  case glob_token::kind::any:
    return true;
  case glob_token::kind::star:
    return false; // handled by the caller
  case glob_token::kind::cls:
    break;
  }
  const std::string_view b = t.body;
  bool in = false;
  for (std::size_t j = 0; j < b.size() && !in;) {
    if (j + 2 < b.size() && b[j + 1] == '-') { // a range; a '-' last is itself
      in = b[j] <= c && c <= b[j + 2];
      j += 3;
    } else {
      in = b[j] == c;
      ++j;
    }
  }
  return in != t.negated;
}

// One segment against one name: the two-pointer match, which retries only from the last
// `*`, so it tests at most |p| * |s| tokens.
bool segment_matches(const std::vector<glob_token>& p, std::string_view s) {
  std::size_t pi = 0, si = 0, star_p = npos, star_s = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi].k == glob_token::kind::star) {
      star_p = ++pi;
      star_s = si;
      continue;
    }
    if (pi < p.size() && token_matches(p[pi], s[si])) {
      ++pi;
      ++si;
      continue;
    }
    if (star_p == npos)
      return false;
    pi = star_p;
    si = ++star_s;
  }
  while (pi < p.size() && p[pi].k == glob_token::kind::star)
    ++pi;
  return pi == p.size();
}

std::vector<std::string_view> split_path(std::string_view s) {
  std::vector<std::string_view> r;
  while (!s.empty()) {
    const std::size_t slash = s.find('/');
    const std::string_view seg = s.substr(0, slash);
    if (!seg.empty() && seg != ".")
      r.push_back(seg);
    if (slash == npos)
      break;
    s.remove_prefix(slash + 1);
  }
  return r;
}

// A glob segment: `**`, or the tokens of one name.
struct glob_segment {
  bool any_segments = false;
  std::vector<glob_token> tokens;
};

// The same two-pointer match one level up: `**` is the star, every other glob segment
// matches exactly one path segment.
bool segments_match(const std::vector<glob_segment>& g, const std::vector<std::string_view>& s) {
  std::size_t gi = 0, si = 0, star_g = npos, star_s = 0;
  while (si < s.size()) {
    if (gi < g.size() && g[gi].any_segments) {
      star_g = ++gi;
      star_s = si;
      continue;
    }
    if (gi < g.size() && segment_matches(g[gi].tokens, s[si])) {
      ++gi;
      ++si;
      continue;
    }
    if (star_g == npos)
      return false;
    gi = star_g;
    si = ++star_s;
  }
  while (gi < g.size() && g[gi].any_segments)
    ++gi;
  return gi == g.size();
}

// A glob parsed once, for matching against many paths. It holds views into the glob's
// string, which must outlive it.
struct compiled_glob {
  std::vector<glob_segment> segments;
  explicit compiled_glob(std::string_view glob) {
    while (glob.ends_with('/'))
      glob.remove_suffix(1);
    const bool anchored = glob.find('/') != npos;
    const std::vector<std::string_view> parts = split_path(glob);
    if (!parts.empty() && !anchored)
      segments.push_back({true, {}});
    for (std::string_view part : parts) {
      if (part != "**")
        segments.push_back({false, tokenize(part)});
      else if (segments.empty() || !segments.back().any_segments)
        segments.push_back({true, {}});
    }
  }
  bool matches(const std::vector<std::string_view>& path) const {
    return !segments.empty() && !path.empty() && segments_match(segments, path);
  }
};

// Whether some glob matches `rel` or one of its leading parts (a directory on the way).
bool matches_path_or_parent(const compiled_glob& g, const std::vector<std::string_view>& rel) {
  std::vector<std::string_view> prefix;
  prefix.reserve(rel.size());
  for (std::string_view seg : rel) {
    prefix.push_back(seg);
    if (g.matches(prefix))
      return true;
  }
  return false;
}

// ---- paths ------------------------------------------------------------------------------

// Absolute, symbolic links resolved as far as the path exists; lexical when the system
// refuses (a directory without search permission), so that no path makes this throw.
fs::path resolved(const fs::path& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  if (ec)
    return p.lexically_normal();
  fs::path c = fs::weakly_canonical(a, ec);
  return ec ? a.lexically_normal() : c;
}

// `file` relative to `root` ('/'-separated), or nullopt when outside it or `root` itself.
// The path as found comes first: a symbolic link below the root (`tests/shared.py` to a
// file elsewhere) is matched where it stands, as the output names it and as ruff matches
// it. Resolved when that lies outside (the root reached through another link).
std::optional<std::string> relative_to(const fs::path& root, const fs::path& file) {
  try {
    const fs::path base = root.empty() ? fs::path(".") : root;
    const auto inside = [](const fs::path& rel) {
      return !rel.empty() && rel != "." && *rel.begin() != "..";
    };
    std::error_code a, b;
    const fs::path as_found = fs::absolute(file, a).lexically_normal().lexically_relative(
        fs::absolute(base, b).lexically_normal());
    if (!a && !b && inside(as_found))
      return as_found.generic_string();
    const fs::path rel = resolved(file).lexically_relative(resolved(base));
    if (!inside(rel))
      return std::nullopt;
    return rel.generic_string();
  } catch (const std::exception&) { // allocation failures only; no answer is the safe one
    return std::nullopt;
  }
}

// ---- the TOML file ----------------------------------------------------------------------

// Control characters of user text escaped, so that a message cannot drive the terminal.
std::string printable(std::string_view s) {
  std::string r;
  r.reserve(s.size());
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) {
      r += "\\x";
      r += "0123456789abcdef"[c >> 4];
      r += "0123456789abcdef"[c & 0xf];
    } else {
      r += static_cast<char>(c);
    }
  }
  return r;
}

// A pyproject.toml is a few kilobytes; the bound keeps `--config /dev/zero` from
// reading until memory runs out.
constexpr std::size_t max_file_size = std::size_t{16} << 20;

// The whole file, or the system's reason it cannot be read.
std::string read_file(const fs::path& file) {
  const std::string name = printable(file.string());
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(file.c_str(), "rb"), &std::fclose);
  if (!f)
    throw config_error{"cannot read " + name + ": " + std::strerror(errno)};
  std::string text;
  char buf[65536];
  while (true) {
    const std::size_t n = std::fread(buf, 1, sizeof buf, f.get());
    text.append(buf, n);
    if (text.size() > max_file_size)
      throw config_error{"cannot read " + name + ": larger than 16 MiB"};
    if (n < sizeof buf) {
      if (std::ferror(f.get()))
        throw config_error{"cannot read " + name + ": " + std::strerror(errno)};
      return text;
    }
  }
}

toml::table parse_file(const fs::path& file) {
  const std::string text = read_file(file);
  try {
    return toml::parse(text, file.string());
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw config_error{printable(file.string()) + ":" + std::to_string(where.line) + ":" +
                       std::to_string(where.column) +
                       ": invalid TOML: " + printable(e.description())};
  }
}

// `[tool.commscope]` of a parsed file: nullptr when absent; the node, whatever it is,
// when present.
const toml::node* commscope_node(const toml::table& doc) {
  const toml::table* tool = doc["tool"].as_table();
  return tool ? tool->get("commscope") : nullptr;
}

// A table's entries in the order the file writes them (toml++ keeps them sorted by key);
// the key breaks ties, so that the order is total without stable_sort.
std::vector<std::pair<const toml::key*, const toml::node*>> in_file_order(const toml::table& t) {
  std::vector<std::pair<const toml::key*, const toml::node*>> r;
  for (const auto& [k, v] : t)
    r.emplace_back(&k, &v);
  std::sort(r.begin(), r.end(), [](const auto& a, const auto& b) {
    const auto& x = a.first->source().begin;
    const auto& y = b.first->source().begin;
    return std::make_tuple(x.line, x.column, a.first->str()) <
           std::make_tuple(y.line, y.column, b.first->str());
  });
  return r;
}

// A key as TOML writes it: bare when it can be, else quoted.
std::string toml_key(std::string_view k) {
  const bool bare = !k.empty() && std::all_of(k.begin(), k.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
  if (bare)
    return std::string(k);
  std::string r = "\"";
  for (char c : k) {
    if (c == '"' || c == '\\')
      r += '\\';
    r += c;
  }
  return printable(r + "\"");
}

class reader {
public:
  reader(const fs::path& file, const code_check& known_code)
      : where_(" in [tool.commscope] of " + printable(file.string())), known_code_(known_code) {}

  [[noreturn]] void wrong_type(std::string_view key, std::string_view what) const {
    throw config_error{"'" + std::string(key) + "'" + where_ + " must be " + std::string(what)};
  }

  std::vector<std::string> strings(const std::string& key, const toml::node& v) const {
    const toml::array* a = v.as_array();
    if (!a)
      wrong_type(key, "an array of strings");
    std::vector<std::string> r;
    for (const toml::node& e : *a) {
      const auto* s = e.as_string();
      if (!s)
        wrong_type(key, "an array of strings");
      r.push_back(s->get());
    }
    return r;
  }

  std::vector<std::string> codes(const std::string& key, const toml::node& v) const {
    std::vector<std::string> r = strings(key, v);
    if (known_code_)
      for (const std::string& c : r)
        if (!known_code_(c))
          throw config_error{"unknown code '" + printable(c) + "' in '" + key + "'" + where_};
    return r;
  }

  void define(config& c, const toml::node& v) const {
    const toml::table* t = v.as_table();
    if (!t)
      wrong_type("define", "a table of integers");
    for (const auto& [k, e] : in_file_order(*t)) {
      const std::string name(k->str());
      if (!frontend::is_plain_name(name))
        throw config_error{"'define'" + where_ + ": '" + printable(name) +
                           "' is not a name (an identifier, not a reserved word)"};
      const auto* i = e->as_integer();
      if (!i)
        wrong_type("define." + name, "an integer");
      c.defines.emplace_back(name, i->get());
    }
  }

  void per_file_ignores(config& c, const toml::node& v) const {
    const toml::table* t = v.as_table();
    if (!t)
      wrong_type("per-file-ignores", "a table of arrays of strings");
    for (const auto& [k, e] : in_file_order(*t))
      c.per_file_ignores.emplace_back(std::string(k->str()),
                                      codes("per-file-ignores." + toml_key(k->str()), *e));
  }

  void jobs(config& c, const toml::node& v) const {
    const auto* i = v.as_integer();
    if (!i || i->get() < 1 || i->get() > std::int64_t{std::numeric_limits<unsigned>::max()})
      wrong_type("jobs", "a positive integer");
    c.jobs = static_cast<unsigned>(i->get());
  }

  [[noreturn]] void unknown(std::string_view key) const {
    std::string hint;
    std::string dashed(key);
    std::replace(dashed.begin(), dashed.end(), '_', '-');
    for (std::string_view known : {"include-dirs", "per-file-ignores"})
      if (dashed == known)
        hint = " (did you mean '" + dashed + "'?)";
    throw config_error{"unknown key '" + printable(key) + "'" + where_ + hint};
  }

private:
  std::string where_;
  const code_check& known_code_;
};

// The spellings of a root that a glob written as an absolute path may start with: as
// made absolute, and with its symbolic links resolved; without a trailing '/'.
std::vector<std::string> root_spellings(const fs::path& root) {
  const fs::path base = root.empty() ? fs::path(".") : root;
  std::vector<std::string> r;
  std::error_code ec;
  const fs::path absolute = fs::absolute(base, ec);
  for (const fs::path& p : {ec ? base : absolute.lexically_normal(), resolved(base)}) {
    std::string s = p.generic_string();
    while (s.ends_with('/'))
      s.pop_back();
    if (std::find(r.begin(), r.end(), s) == r.end())
      r.push_back(std::move(s));
  }
  return r;
}

// A glob written as an absolute path below the root (`--exclude "$PWD/build"`) is that
// path relative to the root, still anchored there: read as it is, its leading '/' would
// anchor the whole path at the root, and it would match nothing. Other globs as written,
// without asking the file system for the root's spellings.
std::string below_root(const std::string& glob, const fs::path& root) {
  if (glob.starts_with('/'))
    for (const std::string& r : root_spellings(root))
      if (glob.size() > r.size() + 1 && glob.starts_with(r) && glob[r.size()] == '/')
        return "." + glob.substr(r.size());
  return glob;
}

// Where `entry` of include-dirs leads from `root`: absolute, normal, no trailing '/'.
std::string include_dir(const fs::path& root, const std::string& entry) {
  fs::path p = (root / entry).lexically_normal();
  if (p.has_relative_path() && !p.has_filename())
    p = p.parent_path();
  return p.string();
}

} // namespace

bool matches_glob(std::string_view glob, std::string_view relative_path) {
  return compiled_glob(glob).matches(split_path(relative_path));
}

bool config::excluded(const fs::path& file) const {
  if (exclude.empty())
    return false;
  const std::optional<std::string> rel = relative_to(root, file);
  if (!rel)
    return false;
  const std::vector<std::string_view> path = split_path(*rel);
  return std::any_of(exclude.begin(), exclude.end(), [&](const std::string& g) {
    return matches_path_or_parent(compiled_glob(below_root(g, root)), path);
  });
}

std::vector<std::string> config::ignored_codes_for(const fs::path& file) const {
  std::vector<std::string> r;
  if (per_file_ignores.empty())
    return r;
  const std::optional<std::string> rel = relative_to(root, file);
  if (!rel)
    return r;
  const std::vector<std::string_view> path = split_path(*rel);
  for (const auto& [glob, codes] : per_file_ignores)
    if (matches_path_or_parent(compiled_glob(below_root(glob, root)), path))
      for (const std::string& c : codes)
        if (std::find(r.begin(), r.end(), c) == r.end())
          r.push_back(c);
  return r;
}

std::optional<fs::path> find_pyproject(const fs::path& start) {
  try {
    std::error_code ec;
    const fs::path from = start.empty() || start == "-" ? fs::path(".") : start;
    fs::path dir = fs::absolute(from, ec).lexically_normal();
    if (ec)
      return std::nullopt;
    if (!dir.has_filename() && dir.has_relative_path()) // "a/b/": the separator aside
      dir = dir.parent_path();
    if (!fs::is_directory(dir, ec))
      dir = dir.parent_path();
    while (true) {
      const fs::path candidate = dir / "pyproject.toml";
      if (fs::is_regular_file(candidate, ec)) {
        try {
          if (commscope_node(parse_file(candidate)))
            return candidate;
        } catch (const config_error&) {
          return candidate; // load_config says why it is unusable
        }
      }
      const fs::path up = dir.parent_path();
      if (up == dir || up.empty())
        return std::nullopt;
      dir = up;
    }
  } catch (const std::exception&) { // allocation failures only
    return std::nullopt;
  }
}

config load_config(const fs::path& file, const code_check& known_code) {
  config c;
  c.file = file;
  std::error_code ec;
  const fs::path absolute = fs::absolute(file, ec);
  c.root = (ec ? file : absolute).lexically_normal().parent_path();

  const toml::table doc = parse_file(file);
  const toml::node* node = commscope_node(doc);
  if (!node)
    return c;
  const toml::table* table = node->as_table();
  if (!table)
    throw config_error{"[tool.commscope] of " + printable(file.string()) + " must be a table"};

  const reader r(file, known_code);
  for (const auto& [k, v] : in_file_order(*table)) {
    const std::string_view key = k->str();
    if (key == "include-dirs") {
      for (const std::string& d : r.strings("include-dirs", *v))
        c.include_dirs.push_back(include_dir(c.root, d));
    } else if (key == "define") {
      r.define(c, *v);
    } else if (key == "select") {
      c.select = r.codes("select", *v);
    } else if (key == "ignore") {
      c.ignore = r.codes("ignore", *v);
    } else if (key == "exclude") {
      c.exclude = r.strings("exclude", *v);
    } else if (key == "per-file-ignores") {
      r.per_file_ignores(c, *v);
    } else if (key == "jobs") {
      r.jobs(c, *v);
    } else {
      r.unknown(key);
    }
  }
  return c;
}

} // namespace commscope::opt
