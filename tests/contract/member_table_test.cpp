// The table of members in docs/adapter-guide.md against the declarations: every member
// the contract declares has its row, with its layer and kind, and every row names a
// declared member.
#include <commscope/traits.hpp>

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

#ifndef COMMSCOPE_DOCS_DIR
#error "COMMSCOPE_DOCS_DIR: the directory of the adapter guide"
#endif

namespace {

struct row {
  std::string layer;
  std::string kind;
};

std::string_view layer_name(commscope::contract::layer l) {
  switch (l) {
  case commscope::contract::layer::core:
    return "core";
  case commscope::contract::layer::readers:
    return "readers";
  case commscope::contract::layer::rewrite:
    return "rewrite";
  case commscope::contract::layer::signals:
    return "signals";
  }
  return "?";
}

template <class R>
concept declared_member = requires {
  R::name;
  R::layer_of;
  R::kind;
};

template <class... R> std::map<std::string, row> declared(commscope::contract::records<R...>) {
  std::map<std::string, row> out;
  const auto add = [&]<class Record>(Record*) {
    if constexpr (declared_member<Record>)
      out[std::string(Record::name)] = {
          std::string(layer_name(Record::layer_of)),
          Record::kind == commscope::contract::member_kind::required ? "required" : "optional"};
  };
  (add(static_cast<R*>(nullptr)), ...);
  return out;
}

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" `");
  const auto e = s.find_last_not_of(" `");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

/// The rows between the markers: name -> layer, kind.
std::map<std::string, row> documented(std::istream& in) {
  std::map<std::string, row> out;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.find("<!-- members:begin -->") != std::string::npos) {
      inside = true;
      continue;
    }
    if (line.find("<!-- members:end -->") != std::string::npos)
      break;
    if (!inside || line.rfind("| `", 0) != 0)
      continue;
    std::istringstream cells(line.substr(1));
    std::string name, layer, kind;
    std::getline(cells, name, '|');
    std::getline(cells, layer, '|');
    std::getline(cells, kind, '|');
    out[trim(name)] = {trim(layer), trim(kind)};
  }
  return out;
}

} // namespace

TEST_CASE("the adapter guide's table of members is the contract's") {
  std::ifstream in(COMMSCOPE_DOCS_DIR "/adapter-guide.md");
  REQUIRE(in);
  const auto docs = documented(in);
  const auto code = declared(commscope::contract::every_record{});
  REQUIRE(code.size() > 40);
  for (const auto& [name, r] : code) {
    CAPTURE(name);
    const auto it = docs.find(name);
    REQUIRE_MESSAGE(it != docs.end(), "declared but not in the table: " << name);
    CHECK(it->second.layer == r.layer);
    CHECK(it->second.kind == r.kind);
  }
  for (const auto& [name, r] : docs) {
    CAPTURE(name);
    CHECK_MESSAGE(code.count(name) == 1, "in the table but not declared: " << name);
  }
}
