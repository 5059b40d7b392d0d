// The front end's entry points: a module's programs, one program.
#include "parser.hpp"

#include <commscope/frontend/frontend.hpp>
#include <commscope/frontend/imports.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

namespace commscope::frontend {

namespace detail {
namespace {
syntax_error to_error(const token_stream& ts, const syntax_failure& f) {
  const auto at = ts.where_offset(f.offset);
  return {at.line, at.column, f.message};
}
} // namespace
} // namespace detail

module_result parse_module(std::string_view text, const module_options& options) {
  module_result r;
  detail::token_stream ts;
  ts.source = text;
  try {
    ts = detail::tokenize(text);
    const auto crlf = text.find("\r\n");
    if (crlf != std::string_view::npos && crlf == text.find('\n') - 1)
      r.newline = "\r\n";
    detail::module_scan scan(ts);
    scan.run();
    detail::constants consts(ts, scan, options);
    // Names the file imports: resolved in the run's modules (docs/commscope-opt.md,
    // "Programs across modules"), after -D and the file's own constants.
    std::string directory;
    struct import_context {
      detail::loader_state* loader;
      const detail::module_scan* scan;
      detail::importer from;
      const detail::token_stream* ts;
      std::optional<detail::attribute_stores> stores; ///< made when first asked
    } context{options.imports ? &options.imports->state() : nullptr, &scan,
              detail::importer_of(options.path, directory), &ts, std::nullopt};
    // A decorator imported from another module of the program's own (`from compat import
    // host_jit`) may make a DSL function: read before the programs are.
    if (context.loader && !scan.imports.empty())
      detail::adopt_imported_decorators(ts, scan, *context.loader, context.from, r.diagnostics);
    if (context.loader && !scan.imports.empty())
      consts.import_constants(
          [](void* c, std::string_view name, std::int32_t scope) -> std::optional<std::int64_t> {
            const auto& ic = *static_cast<const import_context*>(c);
            const auto* imp = detail::import_of(*ic.scan, name, scope, true);
            if (!imp || imp->name.empty())
              return std::nullopt;
            return ic.loader->constant(ic.from, imp->module, imp->level, imp->name);
          },
          &context);
    if (context.loader && !scan.imports.empty())
      // `NR = cfg.TP_SIZE` after `import config as cfg`, as the host's own `cfg.TP_SIZE`
      // reads it: unless the file stores an attribute of that name (`cfg.TP_SIZE = 8`).
      consts.import_attributes([](void* c, std::string_view root, std::string_view path,
                                  std::int32_t scope) -> std::optional<std::int64_t> {
        auto& ic = *static_cast<import_context*>(c);
        const auto* imp = detail::import_of(*ic.scan, root, scope, true);
        if (!imp || detail::imports_the_dsl(*imp))
          return std::nullopt;
        const auto dot = path.rfind('.');
        const std::string_view name = dot == std::string_view::npos ? path : path.substr(dot + 1);
        if (!ic.stores)
          ic.stores = detail::find_attribute_stores(*ic.ts);
        if (ic.stores->stores(name))
          return std::nullopt;
        std::string module = detail::module_of_use(*imp);
        if (dot != std::string_view::npos) {
          module += '.';
          module += path.substr(0, dot);
        }
        return ic.loader->constant(ic.from, module, imp->level, name);
      });
    if (context.loader && !scan.star_modules.empty())
      consts.star_imports(
          [](void* c, std::string_view name) {
            const auto& ic = *static_cast<const import_context*>(c);
            for (const auto& [module, level] : ic.scan->star_modules) {
              // A module the loader cannot read, or whose names it cannot list, may bind
              // any name.
              std::vector<std::string> searched;
              const auto m = ic.loader->find(ic.from, module, level, searched);
              if (!m || !m->scan || m->scan->dynamic_globals || !m->scan->star_modules.empty())
                return true;
              for (const auto& r : m->scan->scopes[0].records)
                if (m->ts.text(m->ts.tokens[r.name]) == name)
                  return true;
            }
            return false;
          },
          &context);
    // Made once for all the programs of the file, when one needs them.
    std::optional<std::unordered_set<std::string_view>> uses;
    std::optional<bool> frames;
    detail::file_tables tables;
    std::vector<std::int32_t> unit_of(scan.programs.size(), -1);
    for (std::size_t k = 0; k < scan.programs.size(); ++k) {
      const auto& cp = scan.programs[k];
      if (cp.functions.empty() && !cp.is_class)
        continue;
      detail::dsl_parser p(ts, scan, consts);
      p.use_names(&uses);
      p.use_frames(&frames);
      p.use_file_tables(&tables);
      if (context.loader)
        p.use_imports(context.loader, context.from, options.path);
      unit_of[k] = static_cast<std::int32_t>(r.programs.size());
      r.programs.push_back(p.run(cp, options.stem));
    }
    // An unknown decorator rejects the program of the function it decorates, or, when
    // no program holds that function, the file.
    for (auto& [program, d] : detail::unknown_decorators(ts, scan)) {
      const std::int32_t unit = program >= 0 ? unit_of[static_cast<std::size_t>(program)] : -1;
      if (unit >= 0)
        r.programs[static_cast<std::size_t>(unit)].diagnostics.push_back(std::move(d));
      else
        r.diagnostics.push_back(std::move(d));
    }
    // Source order: a program's place is its first decorator.
    // (no two programs share their first decorator's line)
    std::sort(r.programs.begin(), r.programs.end(),
              [](const program_unit& a, const program_unit& b) { return a.line < b.line; });
  } catch (const detail::syntax_failure& f) {
    r.programs.clear();
    r.diagnostics.clear();
    if (ts.line_starts.size() <= 1 && !text.empty()) { // failed while tokenizing: rebuild lines
      ts.line_starts.assign(1, 0);
      for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n')))
          ts.line_starts.push_back(static_cast<std::uint32_t>(i + 1));
    }
    r.error = detail::to_error(ts, f);
  } catch (const std::bad_alloc&) {
    r.programs.clear();
    r.diagnostics.clear();
    r.error = syntax_error{1, 1, "out of memory"};
  } catch (const std::exception& e) {
    r.programs.clear();
    r.diagnostics.clear();
    r.error = syntax_error{1, 1, std::string("internal error: ") + e.what()};
  }
  return r;
}

parse_result parse(std::string_view text) {
  parse_result r;
  auto m = parse_module(text);
  if (m.error) {
    r.error = m.error;
  } else if (!m.diagnostics.empty()) {
    const auto& d = m.diagnostics.front();
    r.error = syntax_error{d.where.line, d.where.column, d.message};
  } else if (m.programs.empty()) {
    r.error = syntax_error{1, 1, "no DSL program ('@pl.program' class or '@pl.jit' functions)"};
  } else if (!m.programs.front().diagnostics.empty()) {
    const auto& d = m.programs.front().diagnostics.front();
    r.error = syntax_error{d.where.line, d.where.column, d.message};
  } else {
    r.program = m.programs.front().program;
  }
  return r;
}

bool is_plain_name(std::string_view n) { return detail::is_plain_name(n); }

std::optional<std::int64_t> allocation_bytes_at(const program_unit& unit,
                                                reference::source_location where) {
  // Recorded as the body is read: in source order, so a binary search finds it.
  const auto before = [](reference::source_location a, reference::source_location b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  };
  const auto& v = unit.allocation_bytes;
  const auto it = std::lower_bound(
      v.begin(), v.end(), where,
      [&](const auto& entry, reference::source_location w) { return before(entry.where, w); });
  if (it != v.end() && it->where == where)
    return it->bytes;
  return std::nullopt;
}

std::optional<std::int64_t> allocation_bytes_of(const program_unit& unit,
                                                const reference::variable& base) {
  // Variables are numbered as the body is read: their ids ascend with the entries too.
  const auto& v = unit.allocation_bytes;
  const auto it =
      std::lower_bound(v.begin(), v.end(), base.id,
                       [](const auto& entry, std::uint32_t id) { return entry.variable < id; });
  if (it != v.end() && it->variable == base.id)
    return it->bytes;
  return std::nullopt;
}

} // namespace commscope::frontend
