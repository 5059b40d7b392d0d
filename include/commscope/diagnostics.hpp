// Diagnostics and their messages (docs/semantics.md, "Errors"); the codes and the table
// of their texts are in error_codes.hpp.
//
// A diagnostic stores what it is about (a code, a reason, names, the numbers its
// message needs, a location) rather than a formatted string, so that the analysis can
// run in constant evaluation, where std::string is not usable with every standard
// library. The message is formatted on demand by `message()`.
#pragma once

#include <commscope/detail/compiled.hpp>
#include <commscope/detail/operations.hpp>
#include <commscope/detail/sort.hpp>
#include <commscope/error_codes.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace commscope {

/// A related location that explains a diagnostic, as compilers attach notes.
template <class Location> struct note {
  note_kind what{};
  std::string_view subject;
  Location where{};

  [[nodiscard]] std::string message() const;
};

/// One finding. `subject` names the allocation, callee, operation or scope concerned;
/// `order` is the position in the program's walk, which sorts diagnostics into source
/// order independently of how the IR spells locations. The numbers are those its
/// message names; a diagnostic fills only those of its code and reason (error_codes.hpp)
/// and leaves the others 0.
template <class Location> struct diagnostic {
  error_code code{};
  commscope::reason why = reason::none;
  std::string_view subject;
  Location where{};
  std::uint64_t order = 0;
  /// A second name: the allocation of a collective-aliased-windows or of an ambiguous
  /// window, the callee or operation a view escapes to, the scope a verifier finding
  /// is about.
  std::string_view object;
  /// negative-device, device-out-of-range: the device id; missing_devices: the first id
  /// the scope lacks.
  std::int64_t device = 0;
  /// device-out-of-range: the adapter's device limit; scope-nesting-limit: its nesting
  /// limit.
  std::int64_t limit = 0;
  /// scope-nesting-limit: the nesting depth the allocation's domain would need.
  std::int64_t depth = 0;
  /// wrong_arity: the positional arguments given, and those the operation takes.
  std::int64_t arity = 0;
  std::int64_t expected_arity = 0;
  /// collective-arg-not-window: the argument's position; collective-aliased-windows:
  /// the positions of the two arguments.
  std::int64_t argument = 0;
  std::int64_t other_argument = 0;
  /// missing_devices: how many more ids than the first the scope lacks.
  std::int64_t more = 0;
  /// Related locations, in the order a reader needs them. Empty for most diagnostics:
  /// a std::vector holds no memory then.
  std::vector<note<Location>> notes;

  /// The one way to build a diagnostic: what, why, about what, where; the numbers and
  /// notes are added by name.
  [[nodiscard]] static constexpr diagnostic make(error_code c, commscope::reason r,
                                                 std::string_view about, Location at,
                                                 std::uint64_t position) {
    diagnostic d;
    d.code = c;
    d.why = r;
    d.subject = about;
    d.where = at;
    d.order = position;
    return d;
  }
  constexpr diagnostic& with_object(std::string_view name) {
    object = name;
    return *this;
  }
  constexpr diagnostic& with_device(std::int64_t id) {
    device = id;
    return *this;
  }
  constexpr diagnostic& with_limit(std::int64_t value) {
    limit = value;
    return *this;
  }
  constexpr diagnostic& with_depth(std::int64_t value) {
    depth = value;
    return *this;
  }
  constexpr diagnostic& with_arity(std::int64_t given, std::int64_t expected) {
    arity = given;
    expected_arity = expected;
    return *this;
  }
  constexpr diagnostic& with_arguments(std::int64_t position, std::int64_t other = 0) {
    argument = position;
    other_argument = other;
    return *this;
  }
  constexpr diagnostic& with_missing_devices(std::int64_t first, std::int64_t more_ids) {
    device = first;
    more = more_ids;
    return *this;
  }
  [[gnu::cold, gnu::noinline]] constexpr diagnostic&
  with_note(note_kind what, std::string_view about, Location at) {
    notes.push_back({what, about, at});
    return *this;
  }

  /// The message, from the table (error_codes.hpp).
  [[nodiscard]] std::string message() const;
  /// The message with the device id spelled as the tool's input wrote it, for a tool
  /// that read a literal no std::int64_t holds (and reported its nearest value).
  [[nodiscard]] std::string message(std::string_view device_as_written) const;
  /// The code's message, without its reason's cause: for a tool that says the cause in
  /// its own terms (a front end's names, an SSA value).
  [[nodiscard]] std::string code_message() const;
  /// How a program author usually fixes it: the reason's help, else the code's.
  [[nodiscard]] constexpr std::string_view help() const {
    const auto& r = reason_row(why);
    return why != reason::none && !r.help.empty()
               ? r.help
               : error_codes[static_cast<std::size_t>(code)].help;
  }

private:
  /// The message of reason `as` (none: the code's) with this diagnostic's fields.
  [[nodiscard]] std::string formatted(commscope::reason as,
                                      std::string_view device_as_written) const;
};

namespace detail {
/// Appends a diagnostic and returns it, for its numbers and notes to be added by name:
/// every report of the library goes through here.
template <class Vec, class Location>
[[gnu::cold, gnu::noinline]] constexpr auto& report(Vec& out, error_code c, reason why,
                                                    std::string_view subject, Location where,
                                                    std::uint64_t order) {
  out.push_back(Vec::value_type::make(c, why, subject, where, order));
  return out.back();
}

/// Sorts diagnostics into source order: by position in the walk, then by code, then by
/// the rank of the reason in the table (findings on one statement in the order a reader
/// checks it), then by subject and reason (the analysis reports a position at most once
/// per code; the verifier, whose findings share a code, at most once per subject and
/// reason, short of identical findings). One order for every caller, so that one sort
/// serves them all.
template <class Vec> constexpr void sort_diagnostics(Vec& diagnostics) {
  sort_by(diagnostics, [](const auto& x, const auto& y) {
    if (x.order != y.order)
      return x.order < y.order;
    if (x.code != y.code)
      return x.code < y.code;
    if (const auto rx = reason_row(x.why).rank, ry = reason_row(y.why).rank; rx != ry)
      return rx < ry;
    if (x.subject != y.subject)
      return x.subject < y.subject;
    return x.why < y.why;
  });
}

/// The pattern of a diagnostic's message: its reason's, else its code's.
[[nodiscard]] constexpr std::string_view message_pattern(error_code code, reason why) {
  if (why != reason::none && !reason_row(why).message.empty())
    return reason_row(why).message;
  return error_codes[static_cast<std::size_t>(code)].message;
}

/// What a pattern's fields stand for (error_codes.hpp).
struct message_fields {
  std::string_view subject, object;
  std::int64_t device = 0, limit = 0, depth = 0, arity = 0, expected_arity = 0, argument = 0,
               other_argument = 0, more = 0;
  std::string_view device_as_written; ///< empty: the device in decimal
};

/// Fills in a pattern of the table. Not a template: one copy serves every location type.
/// Cold: messages are spelled for a report, off every path the pass runs, so g++ compiles
/// it for size.
[[gnu::cold, gnu::noinline]] inline std::string format_message_impl(std::string_view pattern,
                                                                    const message_fields& f) {
  std::string r;
  r.reserve(pattern.size() + f.subject.size() + f.object.size() + 16);
  const auto decimal = [&r](std::int64_t v) { // as std::to_string, whose inlined code is larger
    std::uint64_t u = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    char digits[20];
    std::size_t k = sizeof digits;
    do {
      digits[--k] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u != 0);
    if (v < 0)
      r += '-';
    r.append(digits + k, sizeof digits - k);
  };
  for (;;) {
    const std::size_t open = pattern.find('{');
    const std::size_t close = pattern.find('}', open);
    r.append(pattern.substr(0, open));
    if (open == std::string_view::npos || close == std::string_view::npos)
      break;
    std::string_view field = pattern.substr(open + 1, close - open - 1);
    pattern.remove_prefix(close + 1);
    std::string_view form;
    if (const auto colon = field.find(':'); colon != std::string_view::npos) {
      form = field.substr(colon + 1);
      field = field.substr(0, colon);
    }
    if (field == "subject" || field == "object") {
      const auto name = field == "subject" ? f.subject : f.object;
      if (form == "as_is") {
        r.append(name);
      } else {
        r += '\'';
        r.append(name);
        r += '\'';
      }
      continue;
    }
    const std::int64_t v = field == "device"           ? f.device
                           : field == "limit"          ? f.limit
                           : field == "depth"          ? f.depth
                           : field == "arity"          ? f.arity
                           : field == "expected_arity" ? f.expected_arity
                           : field == "argument"       ? f.argument
                           : field == "other_argument" ? f.other_argument
                                                       : f.more;
    if (form == "s") {
      if (v != 1)
        r += 's';
    } else if (form == "role") {
      r.append(role_name(f.subject, v));
    } else if (form == "and") {
      if (v != 0) {
        r.append(" and ");
        decimal(v);
        r.append(" more");
      }
    } else if (field == "device" && !f.device_as_written.empty()) {
      r.append(f.device_as_written);
    } else {
      decimal(v);
    }
  }
  return r;
}

inline std::string format_message(std::string_view pattern, const message_fields& f) {
  COMMSCOPE_RUN_COMPILED(format_message(pattern, f));
  return format_message_impl(pattern, f);
}
} // namespace detail

template <class Location> std::string diagnostic<Location>::message() const {
  return message(std::string_view{});
}

template <class Location>
std::string diagnostic<Location>::message(std::string_view device_as_written) const {
  return formatted(why, device_as_written);
}

template <class Location> std::string diagnostic<Location>::code_message() const {
  return formatted(reason::none, {});
}

template <class Location>
std::string diagnostic<Location>::formatted(commscope::reason as,
                                            std::string_view device_as_written) const {
  return detail::format_message(detail::message_pattern(code, as),
                                {subject, object, device, limit, depth, arity, expected_arity,
                                 argument, other_argument, more, device_as_written});
}

template <class Location> std::string note<Location>::message() const {
  return detail::format_message(note_messages[static_cast<std::size_t>(what)],
                                {subject, {}, 0, 0, 0, 0, 0, 0, 0, 0, {}});
}

} // namespace commscope
