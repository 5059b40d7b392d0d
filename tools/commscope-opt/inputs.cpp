#include "inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>
#include <thread>

namespace commscope::opt {
namespace {

namespace fs = std::filesystem;

/// Every `*.py` regular file under `dir`, sorted bytewise; hidden directories and
/// `__pycache__` are not entered, and neither are symbolic links to directories (no
/// cycles). A directory that cannot be listed is kept as an input of its own, whose
/// reading then says why: skipped, its files would pass unchecked.
std::vector<std::string> python_files_under(const std::string& dir, const exclusion& excluded,
                                            expanded_inputs::empty_directory& left_out) {
  std::vector<std::string> files;
  std::vector<fs::path> todo{fs::path(dir)};
  while (!todo.empty()) {
    const fs::path at = std::move(todo.back());
    todo.pop_back();
    std::error_code ec;
    fs::directory_iterator it(at, ec);
    if (ec) {
      files.push_back(at.lexically_normal().string());
      continue;
    }
    for (const fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
      const fs::directory_entry& e = *it;
      const std::string name = e.path().filename().string();
      std::error_code type_ec;
      if (e.is_directory(type_ec) && !e.is_symlink(type_ec)) {
        if (name.starts_with('.') || name == "__pycache__")
          continue;
        if (excluded && excluded(e.path().string(), false))
          ++left_out.excluded_directories;
        else
          todo.push_back(e.path());
        continue;
      }
      if (name.size() > 3 && name.ends_with(".py") && e.is_regular_file(type_ec)) {
        if (excluded && excluded(e.path().string(), false))
          ++left_out.excluded_files;
        else
          files.push_back(e.path().lexically_normal().string()); // `./a.py` as `a.py`
      }
    }
    if (ec) // listing stopped part way: the rest of the directory is unread
      files.push_back(at.lexically_normal().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

expanded_inputs expand_inputs(const std::vector<std::string>& arguments,
                              const exclusion& excluded) {
  expanded_inputs in;
  in.several = arguments.size() > 1;
  // A file is checked once however often it is reached (`m.py ./m.py`, a directory and a
  // file in it), as linters do: twice, it would be counted twice and its diagnostics
  // repeated in the JSON and SARIF.
  std::set<fs::path> seen;
  const auto add = [&](std::string f) {
    std::error_code ec;
    const fs::path absolute = fs::absolute(f, ec);
    if (ec || seen.insert(absolute.lexically_normal()).second)
      in.files.push_back(std::move(f));
  };
  for (const auto& a : arguments) {
    std::error_code ec;
    if (a != "-" && fs::is_directory(a, ec)) {
      in.several = true;
      expanded_inputs::empty_directory left_out{a};
      auto files = python_files_under(a, excluded, left_out);
      if (files.empty())
        in.empty_directories.push_back(std::move(left_out));
      for (auto& f : files)
        add(std::move(f));
    } else if (a == "-") {
      in.files.push_back(a);
    } else if (excluded && excluded(a, true)) {
      ++in.excluded_files;
    } else {
      add(a);
    }
  }
  return in;
}

unsigned default_jobs() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

} // namespace commscope::opt
