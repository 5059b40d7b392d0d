// commscope-opt's JSON output (docs/commscope-opt.md, "The JSON plan": the plan, the
// findings), written as it is made.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commscope::opt {

/// The JSON text of docs/commscope-opt.md, "The JSON plan", written as it is made: to
/// standard output when that is not also where diagnostics go, else kept until the
/// diagnostics are out. The layout is nlohmann::json's dump(2) (two spaces a level,
/// `"key": value`), which also escapes every string that is not plain printable ASCII
/// (invalid UTF-8 replaced).
class json_writer {
  using json = nlohmann::ordered_json;

public:
  /// `depth`: the nesting level the text is written at (an entry of an outer document
  /// written by another writer is indented as that document's levels need).
  explicit json_writer(bool stream, std::size_t depth = 0,
                       std::size_t reserve = std::size_t{1} << 21)
      : stream_(stream), depth_(depth) {
    grow(reserve);
  }

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  /// A member's key (the keys here are plain ASCII).
  void key(std::string_view k) {
    end_at(copy(quoted(separate(room(k.size() + 4)), k), ": "));
    after_key_ = true;
  }
  void value(std::string_view v) {
    if (!plain(v)) {
      const std::string escaped =
          json(std::string(v)).dump(-1, ' ', false, json::error_handler_t::replace);
      end_at(copy(separate(room(escaped.size())), escaped));
      return;
    }
    end_at(quoted(separate(room(v.size() + 2)), v));
  }
  void value(std::int64_t v) {
    char* p = separate(room(24));
    end_at(std::to_chars(p, p + 24, v).ptr);
  }
  void value(std::uint32_t v) { value(static_cast<std::int64_t>(v)); }
  void null() { end_at(copy(separate(room(4)), "null")); }
  /// `"key": value` in one call.
  template <class V> void member(std::string_view k, const V& v) {
    key(k);
    value(v);
  }
  void newline() {
    *room(1) = '\n';
    ++size_;
  }
  /// Writes what is buffered to standard output (when streaming, or at the end).
  void flush() {
    std::fwrite(data_.get(), 1, size_, stdout);
    size_ = 0;
  }
  /// Appends what is buffered to `out` instead.
  void flush_to(std::string& out) {
    out.append(data_.get(), size_);
    size_ = 0;
  }

private:
  // A plain byte buffer, written through pointers: a member costs one capacity check
  // (std::string's appends checked and zero-filled at every piece, a tenth of a large
  // plan's time).
  /// Room for `n` bytes after what is written and its separator; the write position.
  char* room(std::size_t n) {
    n += 2 + 2 * (depth_ + first_.size()); // ',' '\n' and the indentation
    if (capacity_ - size_ < n)
      grow(n);
    return data_.get() + size_;
  }
  void grow(std::size_t n) {
    const std::size_t want = std::max(2 * capacity_, size_ + n);
    std::unique_ptr<char[]> bigger(new char[want]);
    if (size_ != 0)
      std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    capacity_ = want;
  }
  /// What was written ends at `p` (a position room() returned, moved forward).
  void end_at(const char* p) { size_ = static_cast<std::size_t>(p - data_.get()); }
  static char* copy(char* p, std::string_view s) {
    if (!s.empty())
      std::memcpy(p, s.data(), s.size());
    return p + s.size();
  }
  /// `s` between double quotes (plain: nothing to escape).
  static char* quoted(char* p, std::string_view s) {
    *p++ = '"';
    p = copy(p, s);
    *p++ = '"';
    return p;
  }
  static bool plain(std::string_view s) {
    for (const char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
        return false;
    }
    return true;
  }
  void open(char c) {
    char* p = separate(room(1));
    *p++ = c;
    end_at(p);
    first_.push_back(1);
  }
  void close(char c) {
    const bool empty = first_.back() != 0;
    first_.pop_back();
    char* p = room(1);
    if (!empty)
      p = indent(p);
    *p++ = c;
    end_at(p);
    if (stream_ && size_ >= (std::size_t{1} << 20))
      flush();
  }
  /// A line break and the current level's indentation, at `p`.
  char* indent(char* p) const {
    *p++ = '\n';
    const std::size_t n = 2 * (depth_ + first_.size());
    std::memset(p, ' ', n);
    return p + n;
  }
  /// Before a member or an element, at `p` (room() counted it): the comma, the line break
  /// and the indentation.
  char* separate(char* p) {
    if (after_key_) {
      after_key_ = false;
      return p;
    }
    if (first_.empty())
      return p;
    if (!first_.back())
      *p++ = ',';
    first_.back() = 0;
    return indent(p);
  }

  bool stream_;
  std::size_t depth_;
  bool after_key_ = false;
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  /// Per open object or array: nothing written in it yet (bytes, not vector<bool>'s
  /// bits: this is read and written at every value).
  std::vector<unsigned char> first_;
};

} // namespace commscope::opt
