// The modules a run imports (docs/commscope-opt.md, "Programs across modules"): where
// they are found, and each read, tokenized and scanned once per run, whichever file and
// thread asks.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace commscope::frontend {

namespace detail {
struct loader_state;
}

/// Made once per run by the driver and shared by every file it reads (by pointer, in
/// module_options): its cache of modules is guarded by a mutex, so files may be read on
/// several threads at once.
class module_loader {
public:
  /// `include_dirs`: the `-I` directories in order; `python_path`: those of PYTHONPATH.
  module_loader(std::vector<std::string> include_dirs, std::vector<std::string> python_path);
  ~module_loader();
  module_loader(const module_loader&) = delete;
  module_loader& operator=(const module_loader&) = delete;

  /// The directories of a PYTHONPATH value (empty entries dropped).
  [[nodiscard]] static std::vector<std::string> split_path_list(const std::string& value);

  /// The run's input files, as named on the command line or found under its directories.
  /// A host orchestrator that a DSL function of another of them imports and calls hands
  /// what it returns to code the pass does not follow there (docs/commscope-opt.md,
  /// "Programs across modules"). Set before the files are read.
  void set_run_files(const std::vector<std::string>& files);

  /// How many module files have been read so far (each at most once).
  [[nodiscard]] std::size_t files_read() const;

  [[nodiscard]] detail::loader_state& state() const { return *state_; }

private:
  std::unique_ptr<detail::loader_state> state_;
};

} // namespace commscope::frontend
