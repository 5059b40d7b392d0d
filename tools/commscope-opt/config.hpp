// commscope-opt's configuration: the `[tool.commscope]` table of a pyproject.toml, found
// as ruff finds its own, and the globs of its `exclude` and `per-file-ignores`.
//
// Paths: everything handed to this API may be relative to the current directory. Globs
// are relative to `config::root`, the pyproject.toml's directory (the current directory
// when there is no pyproject.toml). `include_dirs` come out absolute.
//
// Nothing here reads the command line: the driver applies its own options on top (its
// -I and -D add to these, its --select replaces `select`, its --exclude adds to
// `exclude`, its -j replaces `jobs`).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::opt {

/// A configuration that cannot be used: a usage error (exit 2). `message` names the file
/// and, for a bad key, the key; it has no trailing newline.
struct config_error {
  std::string message;
};

struct config {
  /// The pyproject.toml as given to load_config; empty when there is none.
  std::filesystem::path file;
  /// Its directory, absolute and lexically normal; empty when there is none (then the
  /// current directory stands for it).
  std::filesystem::path root;
  /// `include-dirs`, in file order, each resolved against `root`: absolute, lexically
  /// normal, without a trailing separator.
  std::vector<std::string> include_dirs;
  /// `define`, in file order; names are plain names (as for -D), values 64-bit integers.
  std::vector<std::pair<std::string, std::int64_t>> defines;
  /// `select`, as written; absent when the key is (the default selection), present and
  /// empty for `select = []` (which the driver refuses: a run must select some code).
  std::optional<std::vector<std::string>> select;
  /// `ignore`, as written.
  std::vector<std::string> ignore;
  /// `exclude`: globs, as written (see matches_glob).
  std::vector<std::string> exclude;
  /// `per-file-ignores`: glob and codes, in file order, as written.
  std::vector<std::pair<std::string, std::vector<std::string>>> per_file_ignores;
  /// `jobs`: at least 1.
  std::optional<unsigned> jobs;

  /// Whether `file` (a file or a directory) is excluded: its path relative to `root`, or
  /// that of any directory between `root` and it, matches an `exclude` glob. A glob
  /// written as an absolute path below `root` is taken relative to `root` first. Both paths
  /// are made absolute: the file's path as given is matched when it lies below `root`
  /// (a symbolic link there is matched where it stands), else both have their symbolic
  /// links resolved first. False for `root` itself and for anything outside it. A directory walk
  /// may ask this of directories to skip them whole. Never throws on any path.
  [[nodiscard]] bool excluded(const std::filesystem::path& file) const;

  /// The codes `per-file-ignores` ignores in `file`: the union, in file order without
  /// repeats, of the entries whose glob matches `file` or a directory between `root` and
  /// it (as for `excluded`). Empty for anything outside `root`.
  [[nodiscard]] std::vector<std::string> ignored_codes_for(const std::filesystem::path& file) const;
};

/// The pyproject.toml that configures a run whose first input is `start` (a file or a
/// directory; empty or "-" for the current directory, as with no input or stdin): in the
/// directory of `start` (`start` itself when it is a directory) or the nearest one above
/// it, the first pyproject.toml with a `[tool.commscope]` table; those without one are
/// skipped, as ruff skips those without `[tool.ruff]`. A pyproject.toml that cannot be
/// read or is not valid TOML is returned as found, so that load_config reports why, as
/// ruff stops at one it cannot parse. A relative `start` is resolved against the current
/// directory, lexically (".." goes up a textual component); the result is absolute.
/// nullopt when no directory up to the filesystem root has one. Never throws.
[[nodiscard]] std::optional<std::filesystem::path>
find_pyproject(const std::filesystem::path& start);

/// Tells whether a code string (of `select`, `ignore`, `per-file-ignores`) names a
/// check; the driver's code table answers.
using code_check = std::function<bool(std::string_view code)>;

/// Reads `[tool.commscope]` of `file`. A file without that table gives a config with only
/// `file` and `root` set. With `known_code`, every code is checked by it and an unknown one
/// is an error naming it and its key; without, the codes are left for the caller to check.
/// Throws config_error when the file cannot be read (with the system's reason), is not
/// valid TOML (FILE:LINE:COLUMN and the parser's description), has a key under
/// `[tool.commscope]` that is not one of the seven, or a value of the wrong type:
///   include-dirs, select, ignore, exclude   an array of strings
///   define                                  a table of integers keyed by plain names
///   per-file-ignores                        a table of arrays of strings
///   jobs                                    an integer from 1 to UINT_MAX
[[nodiscard]] config load_config(const std::filesystem::path& file,
                                 const code_check& known_code = {});

/// Whether `relative_path` ('/'-separated, relative to the root the glob is relative to)
/// matches `glob`, in the manner of ruff's and gitignore's globs:
///   `*`      any run of characters other than '/', possibly empty
///   `?`      one character other than '/'
///   `[abc]`, `[a-z]`, `[!a-z]` (or `[^a-z]`)   one character in (not in) the class; a
///            `]` first in the class is itself; a `[` with no closing `]` is itself
///   `\c`     the character c itself
///   `**`     as a whole segment: any number of whole segments, zero included, so
///            `tests/**` matches `tests`, `tests/a.py` and `tests/x/y/a.py` and `**/foo.py`
///            matches `foo.py` and `a/b/foo.py`; elsewhere in a segment it is `*`
/// A glob without a '/' (a trailing one aside) matches the last segment in any directory:
/// `build` is `**/build`. Otherwise it is anchored at the root (a leading '/' or "./" is
/// dropped). Trailing '/'s are ignored, as are empty and "." segments of both. An empty
/// glob or path matches nothing. Case-sensitive. Time is bounded by the product of the
/// lengths, whatever the pattern.
[[nodiscard]] bool matches_glob(std::string_view glob, std::string_view relative_path);

} // namespace commscope::opt
