// `--format=sarif` (cli.md): the diagnostics of a run as one SARIF 2.1.0 log, so that
// code-scanning services and editors show them as they show any analyzer's.
#pragma once

#include "finding.hpp"

#include <commscope/diagnostics.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace commscope::opt {

/// What the log says of one input file.
struct sarif_file {
  std::string path;                    ///< as given on the command line
  std::vector<finding> findings;       ///< in the order they are printed
  std::optional<std::string> io_error; ///< the file could not be read: why
};

namespace detail {

/// The rule of front-end syntax errors, which the pass's table does not hold.
inline constexpr error_code_info syntax_rule{
    "syntax", "The file is not valid Python.",
    "Python would reject the file when tokenizing it or for unbalanced brackets or "
    "indentation; no program of the file is analysed."};

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

inline nlohmann::ordered_json location(const std::string& uri, std::uint32_t line,
                                       std::uint32_t column) {
  nlohmann::ordered_json region;
  region["startLine"] = line == 0 ? 1 : line;
  region["startColumn"] = column == 0 ? 1 : column;
  return {
      {"physicalLocation", {{"artifactLocation", {{"uri", uri}}}, {"region", std::move(region)}}}};
}

} // namespace detail

/// The log of a run over `files`, in their order; `version` is the tool's.
inline std::string sarif_log(const std::vector<sarif_file>& files, std::string_view version) {
  using json = nlohmann::ordered_json;
  std::vector<const error_code_info*> rules;
  for (const auto& c : error_codes)
    rules.push_back(&c);
  rules.push_back(&detail::syntax_rule);

  json rule_list = json::array();
  for (const auto* r : rules)
    rule_list.push_back({{"id", std::string(r->name)},
                         {"shortDescription", detail::text(r->summary)},
                         {"fullDescription", detail::text(r->description)},
                         {"defaultConfiguration", {{"level", "error"}}}});

  json results = json::array();
  json notifications = json::array();
  for (const auto& f : files) {
    const std::string uri = detail::uri_of(f.path);
    if (f.io_error) {
      json n = {{"level", "error"}, {"message", detail::text(*f.io_error)}};
      n["locations"] =
          json::array({{{"physicalLocation", {{"artifactLocation", {{"uri", uri}}}}}}});
      notifications.push_back(std::move(n));
      continue;
    }
    for (const auto& d : f.findings) {
      json r;
      r["ruleId"] = d.code;
      for (std::size_t k = 0; k < rules.size(); ++k)
        if (rules[k]->name == d.code)
          r["ruleIndex"] = k;
      r["level"] = "error";
      r["message"] = detail::text(d.message);
      // A finding located in an imported module (its syntax error) names that file.
      r["locations"] = json::array(
          {detail::location(d.file.empty() ? uri : detail::uri_of(d.file), d.line, d.column)});
      if (!d.notes.empty()) {
        json related = json::array();
        for (std::size_t k = 0; k < d.notes.size(); ++k) {
          const auto& n = d.notes[k];
          json rel = detail::location(uri, n.line, n.column);
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
                  {"rules", std::move(rule_list)}}}}},
              {"invocations", json::array({std::move(invocation)})},
              {"columnKind", "unicodeCodePoints"},
              {"results", std::move(results)}};
  json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({std::move(run)})}};
  return log.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace commscope::opt
