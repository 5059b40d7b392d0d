// `--format=sarif` (docs/commscope-opt.md, "SARIF"): the diagnostics of a run as one
// SARIF 2.1.0 log, so that code-scanning services and editors show them as they show any
// analyzer's.
#pragma once

#include "codes.hpp"
#include "finding.hpp"

#include <commscope/diagnostics.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#ifndef COMMSCOPE_HOMEPAGE
#define COMMSCOPE_HOMEPAGE "https://github.com/commscope/commscope"
#endif

namespace commscope::opt {

/// What the log says of one input file.
struct sarif_file {
  std::string path;                    ///< as given on the command line
  std::vector<finding> findings;       ///< in the order they are printed
  std::optional<std::string> io_error; ///< the file could not be read: why
};

namespace detail {

/// A URI reference for a path as given: relative paths stay relative, an absolute one
/// becomes a file URI; bytes outside the unreserved set and '/' are percent-encoded.
inline std::string uri_of(std::string_view path) {
  std::string uri = path.starts_with('/') ? "file://" : "";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      uri += ch;
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      uri += hex;
    }
  }
  return uri;
}

inline nlohmann::ordered_json text(std::string_view s) {
  return {{"text", nlohmann::ordered_json(std::string(s))}};
}

/// Where a file is, as a SARIF artifact location: relative to the directory the tool was
/// run in (the `%SRCROOT%` base) when it lies below it, else an absolute file URI; the
/// standard input and the built-in example keep their names.
inline nlohmann::ordered_json artifact(std::string_view path, const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  if (path.starts_with('<') || root.empty())
    return {{"uri", uri_of(path)}};
  std::error_code ec;
  const fs::path absolute = fs::absolute(fs::path(path), ec).lexically_normal();
  const fs::path relative = absolute.lexically_relative(root);
  if (!ec && !relative.empty() && *relative.begin() != "..")
    return {{"uri", uri_of(relative.generic_string())}, {"uriBaseId", "%SRCROOT%"}};
  return {{"uri", uri_of(ec ? std::string(path) : absolute.generic_string())}};
}

inline nlohmann::ordered_json location(nlohmann::ordered_json artifact_location, std::uint32_t line,
                                       std::uint32_t column) {
  nlohmann::ordered_json region;
  region["startLine"] = line == 0 ? 1 : line;
  region["startColumn"] = column == 0 ? 1 : column;
  return {{"physicalLocation",
           {{"artifactLocation", std::move(artifact_location)}, {"region", std::move(region)}}}};
}

} // namespace detail

/// The log of a run over `files`, in their order; `version` is the tool's, `root` the
/// directory it was run in (artifact URIs are relative to it).
inline std::string sarif_log(const std::vector<sarif_file>& files, std::string_view version,
                             const std::string& root_dir = {}) {
  using json = nlohmann::ordered_json;
  const std::filesystem::path root = root_dir.empty()
                                         ? std::filesystem::path()
                                         : std::filesystem::path(root_dir).lexically_normal();
  json rule_list = json::array();
  for (std::size_t k = 0; k < code_count; ++k) {
    const auto& r = code_at(k);
    rule_list.push_back({{"id", std::string(r.name)},
                         {"shortDescription", detail::text(r.summary)},
                         {"fullDescription", detail::text(r.description)},
                         {"help", detail::text(r.help)},
                         {"defaultConfiguration", {{"level", "error"}}}});
  }

  json results = json::array();
  json notifications = json::array();
  for (const auto& f : files) {
    const json where = detail::artifact(f.path, root);
    if (f.io_error) {
      json n = {{"level", "error"}, {"message", detail::text(*f.io_error)}};
      n["locations"] = json::array({{{"physicalLocation", {{"artifactLocation", where}}}}});
      notifications.push_back(std::move(n));
      continue;
    }
    for (const auto& d : f.findings) {
      json r;
      r["ruleId"] = d.code;
      if (const auto k = code_index(d.code))
        r["ruleIndex"] = *k;
      r["level"] = "error";
      std::string message = d.message;
      if (!d.help.empty())
        message += " (help: " + d.help + ")";
      r["message"] = detail::text(message);
      // A finding located in an imported module (its syntax error) names that file.
      r["locations"] = json::array({detail::location(
          d.file.empty() ? where : detail::artifact(d.file, root), d.line, d.column)});
      if (d.suppressed != suppression::none)
        r["suppressions"] = json::array(
            {{{"kind", d.suppressed == suppression::inline_comment ? "inSource" : "external"}}});
      if (!d.notes.empty()) {
        json related = json::array();
        for (std::size_t k = 0; k < d.notes.size(); ++k) {
          const auto& n = d.notes[k];
          json rel = detail::location(where, n.line, n.column);
          rel["id"] = k;
          rel["message"] = detail::text(n.message);
          related.push_back(std::move(rel));
        }
        r["relatedLocations"] = std::move(related);
      }
      results.push_back(std::move(r));
    }
  }

  json invocation = {{"executionSuccessful", notifications.empty()}};
  if (!notifications.empty())
    invocation["toolExecutionNotifications"] = std::move(notifications);
  json run = {{"tool",
               {{"driver",
                 {{"name", "commscope-opt"},
                  {"version", std::string(version)},
                  {"semanticVersion", std::string(version)},
                  {"informationUri", COMMSCOPE_HOMEPAGE},
                  {"rules", std::move(rule_list)}}}}},
              {"invocations", json::array({std::move(invocation)})},
              {"columnKind", "unicodeCodePoints"},
              {"results", std::move(results)}};
  if (!root.empty()) {
    std::string base = root.generic_string();
    if (!base.ends_with('/'))
      base += '/';
    run["originalUriBaseIds"] = {{"%SRCROOT%", {{"uri", detail::uri_of(base)}}}};
  }
  json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({std::move(run)})}};
  return log.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace commscope::opt
