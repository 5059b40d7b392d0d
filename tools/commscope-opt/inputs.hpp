// commscope-opt's inputs (docs/commscope-opt.md, "Several inputs"): the PATH arguments
// expanded to the files of the run, and the per-file work spread over threads with its
// results taken in input order, so that the output does not depend on the number of
// threads.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace commscope::opt {

struct expanded_inputs {
  std::vector<std::string> files; ///< in input order, each directory's files sorted
  /// A directory was given, or more than one file: the output takes the `files` form.
  bool several = false;
  /// A directory given that holds no Python file to analyze (a warning, not an error),
  /// and what the exclusions left out of it: all there was to check, perhaps.
  struct empty_directory {
    std::string path;
    std::size_t excluded_files = 0;       ///< `*.py` files excluded
    std::size_t excluded_directories = 0; ///< directories excluded, not entered
  };
  std::vector<empty_directory> empty_directories;
  /// Files given by name that the exclusions left out (`--force-exclude`).
  std::size_t excluded_files = 0;
};

/// Whether a path is left out: `(path, named)`, `named` when the path was given as it is
/// rather than found in a directory.
using exclusion = std::function<bool(const std::string&, bool)>;

/// Each argument as given; a directory becomes every `*.py` file under it, recursively,
/// sorted by path bytewise, hidden directories, `__pycache__` and excluded directories
/// skipped. A path that is neither stays as it is (reading it reports why it cannot be
/// read). A file reached again (the same absolute path, lexically) is left out.
[[nodiscard]] expanded_inputs expand_inputs(const std::vector<std::string>& arguments,
                                            const exclusion& excluded = {});

/// The default of `-j`: the number of cores (1 when unknown).
[[nodiscard]] unsigned default_jobs();

/// Runs `work(i)` for every i < n on up to `jobs` threads and hands each result to
/// `take(i, result)` on the calling thread, in order of i, as soon as it and all before
/// it are done. `work` must not share mutable state between calls; `take` may write.
template <class Work, class Take>
void run_in_order(std::size_t n, unsigned jobs, Work&& work, Take&& take) {
  using result = decltype(work(std::size_t{}));
  const std::size_t threads = std::min<std::size_t>(std::max(jobs, 1u), n);
  if (threads <= 1) {
    for (std::size_t i = 0; i < n; ++i) {
      auto r = work(i);
      take(i, r);
    }
    return;
  }
  std::vector<std::optional<result>> results(n);
  std::vector<std::exception_ptr> failures(n);
  std::vector<unsigned char> ready(n, 0);
  std::mutex m;
  std::condition_variable done;
  std::size_t next = 0;
  const auto worker = [&] {
    while (true) {
      std::size_t i = 0;
      {
        std::lock_guard lock(m);
        if (next == n)
          return;
        i = next++;
      }
      std::optional<result> r;
      std::exception_ptr failure;
      try {
        r.emplace(work(i));
      } catch (...) {
        failure = std::current_exception();
      }
      {
        std::lock_guard lock(m);
        results[i] = std::move(r);
        failures[i] = failure; // rethrown in order
        ready[i] = 1;
      }
      done.notify_all();
    }
  };
  std::vector<std::jthread> pool;
  pool.reserve(threads);
  for (std::size_t t = 0; t < threads; ++t)
    pool.emplace_back(worker);
  for (std::size_t i = 0; i < n; ++i) {
    std::optional<result> r;
    std::exception_ptr failure;
    {
      std::unique_lock lock(m);
      done.wait(lock, [&] { return ready[i] != 0; });
      r = std::move(results[i]);
      results[i].reset();
      failure = failures[i];
    }
    if (failure) {
      {
        std::lock_guard lock(m);
        next = n; // no new work; the threads finish what they hold
      }
      std::rethrow_exception(failure);
    }
    take(i, *r);
  }
}

} // namespace commscope::opt
