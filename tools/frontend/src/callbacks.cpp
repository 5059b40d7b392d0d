// The DSL parser: which functions of the program's own code a method may be given, and
// so may call with its object (docs/commscope-opt.md, "Expressions and operations").
#include "parser.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace commscope::frontend::detail {

namespace {
constexpr std::string_view through = ", which may hold ";

/// The pieces joined in order (appended, not inserted, which g++ 12 at -O3 warns about).
std::string joined(std::initializer_list<std::string_view> pieces) {
  std::string s;
  for (const std::string_view p : pieces)
    s += p;
  return s;
}

/// The ':' after the parameters of the lambda at token `lambda` (or e): its body follows.
std::size_t lambda_colon(const std::vector<token>& t, std::size_t lambda, std::size_t e) {
  std::size_t colon = lambda + 1;
  for (int nesting = 0; colon < e; ++colon) {
    if (t[colon].kind() == tok::op)
      nesting += bracket_nesting(t[colon].flags());
    if (nesting == 0 && t[colon].is_op(":"))
      break;
  }
  return colon;
}

/// A lookup by name, whose value may be any function: `globals()["by_rank"]`,
/// `getattr(keys, name)`, `vars(m)[n]`, or an attribute `import_module`, `__dict__`.
bool looks_up(std::string_view n, bool called, bool attribute) {
  if (attribute)
    return n == "import_module" || n == "__dict__" || n == "__getattribute__";
  return called && (n == "globals" || n == "getattr" || n == "vars" || n == "locals" ||
                    n == "eval" || n == "__import__");
}
} // namespace

std::string dsl_parser::program_function_among(std::size_t b, std::size_t e) {
  std::vector<function_source> held;
  if (std::string direct = functions_among(function_scope_, b, e, held); !direct.empty())
    return direct;
  for (const function_source& source : held)
    if (std::string found = function_held_by(source); !found.empty())
      return joined({describe(source), through, found});
  return {};
}

std::string dsl_parser::describe(const function_source& source) const {
  if (source.root != 0 ||
      (!source.lambda_returns && (source.attribute || source.definition == no_definition))) {
    // From the name the argument spells (`Config.key`, `configs[...].key`, `make(...).key`).
    if (source.root != 0) { // its chain continues the root's: `.configs[...].key`
      const std::string chain = chain_spelling(source.root);
      return joined({"'", std::string_view(chain).substr(chain.empty() ? 0 : 1), "'"});
    }
    std::string spelled = source.attribute ? joined({"'", implicit_self_, ".", source.name})
                                           : joined({"'", source.name});
    return (spelled += chain_spelling(source.chain)) += '\'';
  }
  return joined({"what '", source.name, "' returns"}); // a def's or a lambda's
}

std::string dsl_parser::functions_among(std::int32_t scope, std::size_t b, std::size_t e,
                                        std::vector<function_source>& held) {
  for (std::size_t k = b; k < e; ++k) {
    const token& t = t_[k];
    if (t.is_keyword("lambda"))
      return "a lambda";
    if (t.kind() != tok::name || t.is_reserved())
      continue;
    const std::string_view n = text(t);
    const bool attribute = k > b && t_[k - 1].is_op(".");
    const bool called = k + 1 < e && t_[k + 1].is_op("(");
    const bool keyword = k + 1 < e && t_[k + 1].is_op("=");
    if (looks_up(n, called, attribute))
      return joined({"a function looked up by '", n, "'"});
    // A dataclass field's `default_factory=` is called for the value: a lambda's body is
    // the value (`field(default_factory=lambda: [64, 64])`), as a function's return is.
    if (keyword && n == "default_factory" && k + 2 < e) {
      if (t_[k + 2].is_keyword("lambda")) {
        k = lambda_colon(t_, k + 2, e);
        continue;
      }
      if (t_[k + 2].kind() == tok::name && !t_[k + 2].is_reserved() &&
          (k + 3 >= e || (!t_[k + 3].is_op("(") && !t_[k + 3].is_op(".")))) {
        if (std::string direct = returned_by_call(scope, text(t_[k + 2]), held); !direct.empty())
          return direct;
        k += 2;
        continue;
      }
    }
    if (attribute || keyword)
      continue;
    // `make_config().key`, `configs["a"].key`: attributes of what the call or the item
    // gives, read off it as off a name that holds it.
    const std::uint32_t postfix = attribute_after_brackets(k + 1, e);
    const std::size_t before = held.size();
    const auto read_off = [&] {
      for (std::size_t j = before; j < held.size() && postfix != 0; ++j) {
        if (held[j].chain == 0)
          held[j].chain = postfix;
        if (held[j].root == 0)
          held[j].root = static_cast<std::uint32_t>(k);
      }
    };
    // What a call returns (`search`, which appends its sources to `held`), with the
    // attributes read off it from `then` (0: those the value being read is read for).
    const auto returned_read_off = [&](std::uint32_t then, auto&& search) {
      const std::uint32_t outer = chain_;
      if (then != 0)
        chain_ = then;
      std::string direct = search();
      chain_ = outer;
      for (std::size_t j = before; j < held.size() && then != 0 && direct.empty(); ++j)
        if (held[j].chain == 0)
          held[j].chain = then;
      return direct;
    };
    // A call gives what it returns (`v.reshape(shape_of(x))`): a def of the file may
    // return a function (`views.sort(key=make_key(axis))`), an instance of a class with
    // `__call__` is one. Its arguments are read on.
    if (called) {
      if (std::string direct =
              returned_read_off(postfix, [&] { return returned_by_call(scope, n, held); });
          !direct.empty())
        return direct;
      read_off();
      continue;
    }
    // `self.NAME` of a method of the class the function is a method of.
    if (k + 2 < e && scope == function_scope_ && n == implicit_self_ && t_[k + 1].is_op(".") &&
        t_[k + 2].kind() == tok::name && function_scope_ >= 0 &&
        static_cast<std::size_t>(function_scope_) < scan_.scopes.size()) {
      const std::int32_t cls = scan_.scopes[static_cast<std::size_t>(function_scope_)].parent;
      const bool called_attribute = k + 3 < e && t_[k + 3].is_op("(");
      const std::string_view attribute_name = text(t_[k + 2]);
      if (cls < 0 ||
          scan_.scopes[static_cast<std::size_t>(cls)].what != py_scope::kind::class_body) {
        k += 2;
        continue;
      }
      // `self.make_key(3)`: what a method of the class returns, and what is read off it
      // (`self.make_config().key`).
      const std::uint32_t after = attribute_after_brackets(k + 3, e);
      if (called_attribute) {
        if (std::string direct = returned_read_off(
                after, [&] { return returned_by_binding(cls, attribute_name, held); });
            !direct.empty())
          return direct;
        k += 2;
        continue;
      }
      const scope_functions& members = functions_of_scope(cls);
      if (members.functions.contains(attribute_name))
        return joined({"'", n, ".", attribute_name, "'"});
      // A class attribute (`key_fn = by_rank`), or what a method of the class sets
      // (`self.key_fn = by_rank` in __init__), and what is read off it (`self.cfg.key`,
      // `self.configs["a"].key`).
      held.push_back({cls, attribute_name, no_definition, true,
                      k + 4 < e && t_[k + 3].is_op(".") && t_[k + 4].kind() == tok::name
                          ? static_cast<std::uint32_t>(k + 4)
                          : after});
      k += 2;
      continue;
    }
    // `keys.by_rank` of a module the file imports (`import keys`, `from pkg import keys`,
    // `import pkg.keys`: `pkg.keys.by_rank`); called, it passes what it returns.
    if (k + 2 < e && t_[k + 1].is_op(".") && t_[k + 2].kind() == tok::name) {
      std::size_t last = k + 2;
      while (last + 2 < e && t_[last + 1].is_op(".") && t_[last + 2].kind() == tok::name)
        last += 2;
      const bool called_attribute = last + 1 < e && t_[last + 1].is_op("(");
      std::string submodules; // dotted, as an import names them, whatever the spacing
      for (std::size_t j = k + 2; j < last; j += 2)
        (submodules += submodules.empty() ? "" : ".") += text(t_[j]);
      if (const auto module = imported_module(scope, n, submodules)) {
        const std::string spelled =
            joined({n, submodules.empty() ? "" : ".", submodules, ".", text(t_[last])});
        if (!called_attribute &&
            loader_->binds_function(importer_, module->first, module->second, text(t_[last])))
          return joined({"'", spelled, "'"});
        if (called_attribute &&
            loader_->returns_function(importer_, module->first, module->second, text(t_[last])))
          return joined({"what '", spelled, "' returns, which may hold a function of its module"});
        // `settings.make_config().key`: what is read off what it returns.
        if (const std::uint32_t after = attribute_after_brackets(last + 1, e); after != 0) {
          bool called_after = false;
          const auto members = chain_names(after, called_after);
          if (loader_->member_holds_function(importer_, module->first, module->second,
                                             text(t_[last]), members, called_after))
            return joined({"'", spelled, "(...).", members.front(),
                           "', which may hold a function of its module"});
        }
      }
      // An attribute of a class of another module of the program, or of an instance of
      // one (`from settings import cfg`, then `cfg.key`; `settings.cfg.order`).
      if (imported_member_holds_function(scope, static_cast<std::uint32_t>(k)))
        return joined({"'", n, ".", submodules, submodules.empty() ? "" : ".", text(t_[last]),
                       "', which may hold a function of its module"});
      for (std::size_t j = k + 2; j <= last; j += 2)
        if (looks_up(text(t_[j]), j + 1 < e && t_[j + 1].is_op("("), true))
          return joined({"a function looked up by '", text(t_[j]), "'"});
      // A class of the file (`Keys.by_rank`, `Config.SHAPE`): what its body makes of them.
      if (const auto cls = class_named(scope, n)) {
        const std::uint32_t outer = chain_;
        chain_ = static_cast<std::uint32_t>(k + 2);
        std::string direct = instance_members(*cls, held);
        chain_ = outer;
        if (!direct.empty())
          return direct;
        for (std::size_t j = before; j < held.size(); ++j)
          held[j].root = static_cast<std::uint32_t>(k);
        k = last;
        continue;
      }
      // Else, as its root: an attribute of an instance of a class of the file (`cfg.key`),
      // or of a value that may hold a function (`table.get`).
      if (std::string direct = name_function(scope, n, held); !direct.empty())
        return direct;
      for (std::size_t j = before; j < held.size(); ++j)
        held[j].chain = static_cast<std::uint32_t>(k + 2);
      k = last;
      continue;
    }
    if (std::string direct = name_function(scope, n, held); !direct.empty())
      return direct;
    read_off();
  }
  return {};
}

std::string dsl_parser::chain_spelling(std::uint32_t first) const {
  std::string spelled;
  for (std::uint32_t j = first; j != 0 && j < t_.size() && t_[j].kind() == tok::name;) {
    (spelled += '.') += text(t_[j]);
    if (j + 2 < t_.size() && t_[j + 1].is_op(".") && t_[j + 2].kind() == tok::name) {
      j += 2;
    } else if (j + 1 < t_.size() && (t_[j + 1].is_op("(") || t_[j + 1].is_op("["))) {
      spelled += t_[j + 1].is_op("(") ? "(...)" : "[...]";
      j = attribute_after_brackets(j + 1, t_.size());
    } else {
      break;
    }
  }
  return spelled;
}

std::uint32_t dsl_parser::attribute_after_brackets(std::size_t k, std::size_t e) const {
  bool bracketed = false;
  while (k < e && (t_[k].is_op("(") || t_[k].is_op("["))) {
    int nesting = 0;
    for (; k < e; ++k) {
      if (t_[k].kind() == tok::op)
        nesting += bracket_nesting(t_[k].flags());
      if (nesting == 0)
        break;
    }
    if (k >= e)
      return 0;
    ++k;
    bracketed = true;
  }
  return bracketed && k + 1 < e && t_[k].is_op(".") && t_[k + 1].kind() == tok::name
             ? static_cast<std::uint32_t>(k + 1)
             : 0;
}

std::string dsl_parser::name_function(std::int32_t s, std::string_view n,
                                      std::vector<function_source>& held) {
  const std::string named = joined({"'", n, "'"});
  // As Python resolves a name: the function's own, the enclosing functions', the module's
  // (class bodies are not enclosing scopes).
  for (; s >= 0 && static_cast<std::size_t>(s) < scan_.scopes.size();
       s = scan_.scopes[static_cast<std::size_t>(s)].parent) {
    if (scan_.scopes[static_cast<std::size_t>(s)].what == py_scope::kind::class_body)
      continue;
    const scope_functions& f = functions_of_scope(s);
    const import_record* imp = loader_ ? import_of(scan_, n, s, true) : nullptr;
    if (!f.records_of.contains(n) && !imp)
      continue;
    if (f.functions.contains(n))
      return named;
    // `from keys import by_rank`: a function of the program's module, which may dispatch.
    if (imp && !imp->name.empty() &&
        loader_->binds_function(importer_, imp->module, imp->level, imp->name))
      return named;
    // `c = cfg`, then `c.key`, where `from settings import cfg`.
    if (imp && !imp->name.empty() && chain_ != 0) {
      bool called = false;
      const auto members = chain_names(chain_, called);
      if (loader_->member_holds_function(importer_, imp->module, imp->level, imp->name, members,
                                         called))
        return joined({"'", n, "', whose attributes read here may hold a function of its module"});
    }
    // Bound otherwise: its bindings' values may hold one.
    if (f.records_of.contains(n))
      held.push_back({s, n, no_definition});
    return {};
  }
  // Bound nowhere in the file: a star import of the program's module may bind it.
  if (loader_)
    for (const auto& [module, level] : scan_.star_modules)
      if (loader_->star_may_bind(importer_, module, level, n) &&
          loader_->binds_function(importer_, module, level, n))
        return named;
  return {};
}

std::string dsl_parser::returned_by_call(std::int32_t s, std::string_view n,
                                         std::vector<function_source>& held) {
  for (; s >= 0 && static_cast<std::size_t>(s) < scan_.scopes.size();
       s = scan_.scopes[static_cast<std::size_t>(s)].parent)
    if (scan_.scopes[static_cast<std::size_t>(s)].what != py_scope::kind::class_body &&
        functions_of_scope(s).records_of.contains(n))
      break;
  if (s < 0 || static_cast<std::size_t>(s) >= scan_.scopes.size())
    return {};
  // `from keys import make_key`: what the model's module makes of it.
  if (const import_record* imp = loader_ ? import_of(scan_, n, s, true) : nullptr;
      imp && !imp->name.empty() &&
      loader_->returns_function(importer_, imp->module, imp->level, imp->name))
    return joined({"what '", n, "' returns, which may hold a function of its module"});
  // `c = Config()` of another module, then `c.order`: what the class makes of them.
  if (const import_record* imp = loader_ && chain_ != 0 ? import_of(scan_, n, s, true) : nullptr;
      imp && !imp->name.empty()) {
    bool called = false;
    const auto members = chain_names(chain_, called);
    if (loader_->member_holds_function(importer_, imp->module, imp->level, imp->name, members,
                                       called))
      return joined({"an instance of '", n,
                     "', whose attributes read here may hold a function "
                     "of its module"});
  }
  return returned_by_binding(s, n, held);
}

std::string dsl_parser::returned_by_binding(std::int32_t s, std::string_view n,
                                            std::vector<function_source>& held) {
  index_definitions();
  const auto& records = scan_.scopes[static_cast<std::size_t>(s)].records;
  const auto bound = functions_of_scope(s).records_of.find(n);
  if (bound == functions_of_scope(s).records_of.end())
    return {};
  for (const std::uint32_t r : bound->second) {
    const std::uint32_t name = records[r].name;
    // A name bound otherwise may hold a function, which may make one (`k = make_key`,
    // then `k(3)`): the name is followed as a value.
    if (name == 0 || !(t_[name - 1].is_keyword("def") || t_[name - 1].is_keyword("class"))) {
      const auto [b, e] = binding_value_tokens(records[r]);
      if (b >= e)
        continue;
      // A lambda's body is read as the others' values are, breadth first: a chain of
      // lambdas that call each other costs no stack.
      held.push_back({s, n, no_definition, false, 0, t_[b].is_keyword("lambda")});
      continue;
    }
    const auto d = tables().definition_at.find(name - 1);
    if (d == tables().definition_at.end() || scan_.definitions[d->second].own_scope < 0)
      continue;
    const definition& def = scan_.definitions[d->second];
    if (!def.is_class) {
      held.push_back({s, n, d->second});
      continue;
    }
    // An instance is called through its class's __call__.
    if (names_call(ts_, def))
      return joined({"an instance of '", n, "', whose __call__ it may call"});
    // `cfg = Config()`, then `cfg.key`: what the class makes of its attributes.
    if (chain_ != 0)
      if (std::string direct = instance_members(d->second, held); !direct.empty())
        return direct;
  }
  return {};
}

std::string dsl_parser::instance_members(std::size_t class_index,
                                         std::vector<function_source>& held) {
  index_definitions();
  const std::uint32_t chain = chain_;
  // The class and the bases the file defines, each once.
  std::vector<std::size_t> classes{class_index};
  std::unordered_set<std::size_t> seen{class_index};
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const definition& cls = scan_.definitions[classes[c]];
    const std::uint32_t open = cls.keyword + 2;
    if (open >= cls.colon || !t_[open].is_op("("))
      continue;
    int nesting = 0;
    for (std::uint32_t k = open + 1; k < cls.colon; ++k) {
      if (t_[k].kind() == tok::op)
        nesting += bracket_nesting(t_[k].flags());
      if (nesting != 0 || t_[k].kind() != tok::name || t_[k - 1].is_op(".") ||
          (k + 1 < cls.colon && (t_[k + 1].is_op(".") || t_[k + 1].is_op("="))))
        continue;
      for (std::int32_t s = cls.scope; s >= 0 && static_cast<std::size_t>(s) < scan_.scopes.size();
           s = scan_.scopes[static_cast<std::size_t>(s)].parent) {
        const auto bound = functions_of_scope(s).records_of.find(text(t_[k]));
        if (bound == functions_of_scope(s).records_of.end())
          continue;
        for (const std::uint32_t r : bound->second) {
          const std::uint32_t name = scan_.scopes[static_cast<std::size_t>(s)].records[r].name;
          const auto d =
              name > 0 ? tables().definition_at.find(name - 1) : tables().definition_at.end();
          if (d != tables().definition_at.end() && scan_.definitions[d->second].is_class &&
              scan_.definitions[d->second].own_scope >= 0 && seen.insert(d->second).second)
            classes.push_back(d->second);
        }
        break;
      }
    }
  }
  // What a method returns, for `cfg.make_key(3)`, a property and `__getattr__`.
  // `then`: the attribute read off what it returns (`cfg.make().key`), 0: none.
  const auto returned = [&](const definition& cls, std::string_view method, std::uint32_t then) {
    const std::size_t mark = held.size();
    chain_ = then;
    std::string direct = returned_by_binding(cls.own_scope, method, held);
    chain_ = chain;
    for (std::size_t j = mark; j < held.size() && then != 0; ++j)
      if (held[j].chain == 0)
        held[j].chain = then;
    return direct;
  };
  // Any attribute may be what `__getattr__` makes.
  for (const std::size_t c : classes)
    for (const std::string_view getter : {"__getattr__", "__getattribute__"})
      if (functions_of_scope(scan_.definitions[c].own_scope).functions.contains(getter))
        if (std::string direct = returned(scan_.definitions[c], getter, 0); !direct.empty())
          return direct;
  for (std::uint32_t j = chain; j < t_.size() && t_[j].kind() == tok::name; j += 2) {
    const std::string_view member = text(t_[j]);
    const bool called = j + 1 < t_.size() && t_[j + 1].is_op("(");
    // What is read off its call or its item (`cfg.make().key`, `cfg.items[0].key`).
    const std::uint32_t then = attribute_after_brackets(j + 1, t_.size());
    for (const std::size_t c : classes) {
      const definition& cls = scan_.definitions[c];
      const scope_functions& members = functions_of_scope(cls.own_scope);
      if (members.functions.contains(member)) {
        // `cfg.make_key(3)`, a property: what the method returns; `cfg.order`: the method.
        if (!called && !reads_property(cls.own_scope, member))
          return joined({"'", text(t_[cls.name]), ".", member, "'"});
        if (std::string direct = returned(cls, member, called ? then : 0); !direct.empty())
          return direct;
        continue;
      }
      held.push_back({cls.own_scope, member, no_definition, true, then != 0 ? then : chain});
    }
    if (j + 2 >= t_.size() || !t_[j + 1].is_op("."))
      break;
  }
  return {};
}

std::string dsl_parser::function_held_by(const function_source& source) {
  const auto key = [this](const function_source& x) {
    std::string k = std::to_string(x.scope);
    k += x.attribute ? '.' : x.lambda_returns ? '^' : x.definition == no_definition ? ':' : '@';
    k += x.name;
    // The attributes as spelled, so that each spelling is searched once.
    k += chain_spelling(x.chain);
    return k;
  };
  const std::string first = key(source);
  if (const auto it = tables().sources.find(first); it != tables().sources.end())
    return it->second;
  // Breadth first over the names and calls that the values may come from, each read once:
  // a chain of bindings costs its length, and a cycle (`a = b`, `b = a`) ends. When none
  // of them holds a function, none of those read does either.
  std::deque<function_source> queue{source};
  std::unordered_set<std::string> seen{first};
  std::vector<function_source> more;
  std::string found;
  std::size_t tokens = 0;
  std::uint32_t chain = 0; // of the source being read
  const auto read = [&](std::int32_t scope, std::size_t b, std::size_t e) {
    tokens += e - b;
    more.clear();
    chain_ = chain;
    found = functions_among(scope, b, e, more);
    chain_ = 0;
    // What the value's attributes are read from is read for them too.
    for (function_source& m : more) {
      if (m.chain == 0)
        m.chain = chain;
      if (seen.insert(key(m)).second)
        queue.push_back(m);
    }
  };
  while (!queue.empty() && found.empty()) {
    if (tokens > function_source_token_limit) {
      found = "a value the front end does not follow through its bindings";
      break;
    }
    const function_source at = queue.front();
    queue.pop_front();
    chain = at.chain;
    if (const auto it = tables().sources.find(key(at)); it != tables().sources.end()) {
      found = it->second; // a source an earlier search settled
      continue;
    }
    if (at.lambda_returns) {
      // What the lambdas it is bound to return: their bodies, after the parameters' ':'.
      const auto& records = scan_.scopes[static_cast<std::size_t>(at.scope)].records;
      for (const std::uint32_t r : functions_of_scope(at.scope).records_of.find(at.name)->second) {
        const auto [b, e] = binding_value_tokens(records[r]);
        if (b >= e || !t_[b].is_keyword("lambda") || !found.empty())
          continue;
        read(at.scope, lambda_colon(t_, b, e) + 1, e);
      }
      continue;
    }
    if (at.attribute) {
      // Its binding in the class body, and what the methods set of it.
      const scope_functions& members = functions_of_scope(at.scope);
      if (const auto it = members.records_of.find(at.name); it != members.records_of.end())
        for (const std::uint32_t r : it->second)
          if (const auto [b, e] =
                  binding_value_tokens(scan_.scopes[static_cast<std::size_t>(at.scope)].records[r]);
              b < e && found.empty())
            read(at.scope, b, e);
      index_definitions();
      for (const std::size_t index : tables().definitions_in[at.scope]) {
        const definition& d = scan_.definitions[index];
        if (d.is_class || d.own_scope < 0 || !found.empty())
          continue;
        // The method's own first parameter, whatever it is called.
        const std::uint32_t self = d.keyword + 3;
        if (self >= d.colon || !t_[self - 1].is_op("(") || t_[self].kind() != tok::name)
          continue;
        const auto& method = changes_of_scope(d.own_scope);
        const auto sets = method.find(text(t_[self]));
        if (sets != method.end())
          for (const std::uint32_t b : sets->second) {
            if (b + 3 >= t_.size() || t_[b + 2].kind() != tok::name || !found.empty())
              continue;
            if (text(t_[b + 2]) == at.name && t_[b + 3].is_op("="))
              read(d.own_scope, b + 4, statement_end(t_, b));
            else if (text(t_[b + 2]) == "__dict__") // `self.__dict__.update(key=f)`
              read(d.own_scope, b, statement_end(t_, b));
          }
        // An attribute set by name (`setattr(self, name, f)`) may be this one.
        for (std::uint32_t k = d.body_begin; k + 1 < d.body_end && found.empty(); ++k)
          if (t_[k].kind() == tok::name && text(t_[k]) == "setattr" && t_[k + 1].is_op("(") &&
              (k == 0 || !t_[k - 1].is_op(".")))
            read(d.own_scope, k + 2, statement_end(t_, k));
      }
      continue;
    }
    if (at.definition == no_definition) {
      const scope_functions& f = functions_of_scope(at.scope);
      const auto& records = scan_.scopes[static_cast<std::size_t>(at.scope)].records;
      for (const std::uint32_t r : f.records_of.find(at.name)->second)
        if (const auto [b, e] = binding_value_tokens(records[r]); b < e && found.empty())
          read(at.scope, b, e);
      // What is put into it (`hooks.append(order)`, `table["k"] = order`).
      const auto& changes = changes_of_scope(at.scope);
      if (const auto it = changes.find(at.name); it != changes.end())
        for (const std::uint32_t b : it->second)
          if (found.empty())
            read(at.scope, b, statement_end(t_, b));
      continue;
    }
    // What its return and yield statements give (those of nested functions too).
    const definition& d = scan_.definitions[at.definition];
    for (std::uint32_t k = d.body_begin; k < d.body_end && k < t_.size() && found.empty(); ++k) {
      if (!t_[k].is_keyword("return") && !t_[k].is_keyword("yield"))
        continue;
      std::uint32_t e = k + 1;
      for (int nesting = 0; e < d.body_end && e < t_.size() && t_[e].kind() != tok::end; ++e) {
        if (t_[e].kind() == tok::op)
          nesting += bracket_nesting(t_[e].flags());
        if (nesting < 0 || (nesting == 0 && separates_statements(t_, e)))
          break;
      }
      read(d.own_scope, k + 1, e);
    }
  }
  if (found.empty())
    for (const std::string& k : seen)
      tables().sources.insert_or_assign(k, std::string());
  else
    tables().sources.insert_or_assign(first, found);
  return found;
}

std::pair<std::uint32_t, std::uint32_t>
dsl_parser::binding_value_tokens(const py_scope::record& r) const {
  if (const auto v = binding_value(ts_, r); v.first < v.second)
    return v;
  // A parameter's default value (`def host(x, key=by_rank)`).
  if (r.name == 0 || t_[r.name - 1].is_keyword("def") || t_[r.name - 1].is_keyword("class"))
    return {0, 0};
  std::uint32_t first = r.name;
  while (first > 0 && !separates_statements(t_, first - 1))
    --first;
  if (!t_[first].is_keyword("def") && !t_[first].is_keyword("async"))
    return {0, 0};
  const auto end_of_item = [&](std::uint32_t k, bool at_equals) {
    for (int nesting = 0; k < t_.size() && t_[k].kind() != tok::end && !separates_statements(t_, k);
         ++k) {
      if (t_[k].kind() == tok::op)
        nesting += bracket_nesting(t_[k].flags());
      if (nesting < 0 || (nesting == 0 && (t_[k].is_op(",") || (at_equals && t_[k].is_op("=")))))
        break;
    }
    return k;
  };
  const std::uint32_t equals = end_of_item(r.name + 1, true);
  if (equals >= t_.size() || !t_[equals].is_op("="))
    return {0, 0};
  return {equals + 1, end_of_item(equals + 1, false)};
}

std::optional<std::pair<std::string, std::uint32_t>>
dsl_parser::imported_module(std::int32_t scope, std::string_view module_name,
                            std::string_view submodules) {
  if (!loader_)
    return std::nullopt;
  for (std::int32_t s = scope; s >= 0 && static_cast<std::size_t>(s) < scan_.scopes.size();
       s = scan_.scopes[static_cast<std::size_t>(s)].parent) {
    if (scan_.scopes[static_cast<std::size_t>(s)].what == py_scope::kind::class_body)
      continue;
    const import_record* imp = import_of(scan_, module_name, s, true);
    if (!imp) {
      if (functions_of_scope(s).records_of.contains(module_name))
        return std::nullopt; // a value of the function's own
      continue;
    }
    // `import keys`, `import pkg.keys as keys`, `import pkg.keys` (which binds pkg); `from
    // pkg import keys` names a submodule.
    std::string module;
    if (imp->name.empty()) {
      const std::string_view m = imp->module;
      const std::string_view first = m.substr(0, m.find('.'));
      module = imp->local == first ? first : m;
    } else {
      module = imp->module.empty() ? imp->name : imp->module + "." + imp->name;
    }
    if (!submodules.empty())
      (module += '.') += submodules;
    return std::pair{std::move(module), imp->level};
  }
  return std::nullopt;
}

const scope_functions& dsl_parser::functions_of_scope(std::int32_t s) {
  auto [at, fresh] = tables().scopes.try_emplace(s);
  if (!fresh)
    return at->second;
  scope_functions& f = at->second;
  const auto& records = scan_.scopes[static_cast<std::size_t>(s)].records;
  for (std::uint32_t k = 0; k < records.size(); ++k) {
    const std::string_view n = text(t_[records[k].name]);
    if (meaning_of(t_, records[k]).what == record_meaning::kind::function)
      f.functions.insert(n);
    f.records_of[n].push_back(k);
  }
  return f;
}

const std::unordered_map<std::string_view, std::vector<std::uint32_t>>&
dsl_parser::changes_of_scope(std::int32_t s) {
  functions_of_scope(s);
  scope_functions& f = tables().scopes.find(s)->second;
  if (f.changed_at)
    return *f.changed_at;
  f.changed_at.emplace();
  // The statements that begin with a name's method or item (`hooks.append(f)`,
  // `table[k] = f`), anywhere in the scope's code: the module's is the whole file, and a
  // function's includes its nested functions, which may change its values.
  std::size_t b = 0, e = t_.size();
  if (s != 0) {
    index_definitions();
    const auto d = tables().definition_of_scope.find(s);
    if (d == tables().definition_of_scope.end())
      return *f.changed_at;
    b = scan_.definitions[d->second].body_begin;
    e = scan_.definitions[d->second].body_end;
  }
  for (std::size_t k = b; k + 1 < e; ++k)
    if (changes_name(t_, k))
      (*f.changed_at)[text(t_[k])].push_back(static_cast<std::uint32_t>(k));
  return *f.changed_at;
}

bool dsl_parser::reads_property(std::int32_t class_scope, std::string_view member) {
  index_definitions();
  for (const std::size_t index : tables().definitions_in[class_scope]) {
    const definition& d = scan_.definitions[index];
    if (d.is_class || text(t_[d.keyword + 1]) != member)
      continue;
    if (is_property(ts_, d))
      return true;
  }
  return false;
}

std::optional<std::size_t> dsl_parser::class_named(std::int32_t s, std::string_view n) {
  for (; s >= 0 && static_cast<std::size_t>(s) < scan_.scopes.size();
       s = scan_.scopes[static_cast<std::size_t>(s)].parent) {
    if (scan_.scopes[static_cast<std::size_t>(s)].what == py_scope::kind::class_body)
      continue;
    const auto bound = functions_of_scope(s).records_of.find(n);
    if (bound == functions_of_scope(s).records_of.end())
      continue;
    // Bound once, by `class`: any other binding may make it something else.
    const auto& records = scan_.scopes[static_cast<std::size_t>(s)].records;
    const std::uint32_t name = records[bound->second.front()].name;
    if (bound->second.size() != 1 || name == 0 || !t_[name - 1].is_keyword("class"))
      return std::nullopt;
    index_definitions();
    const auto d = tables().definition_at.find(name - 1);
    if (d == tables().definition_at.end() || scan_.definitions[d->second].own_scope < 0)
      return std::nullopt;
    return d->second;
  }
  return std::nullopt;
}

std::vector<std::string_view> dsl_parser::chain_names(std::uint32_t first, bool& called) const {
  std::vector<std::string_view> names;
  std::uint32_t j = first;
  for (; j < t_.size() && t_[j].kind() == tok::name; j += 2) {
    names.push_back(text(t_[j]));
    if (j + 2 >= t_.size() || !t_[j + 1].is_op(".") || t_[j + 2].kind() != tok::name)
      break;
  }
  called = j + 1 < t_.size() && t_[j + 1].is_op("(");
  return names;
}

bool dsl_parser::imported_member_holds_function(std::int32_t scope, std::uint32_t root) {
  if (!loader_)
    return false;
  bool called = false;
  const auto names = chain_names(root, called);
  for (std::int32_t s = scope; s >= 0 && static_cast<std::size_t>(s) < scan_.scopes.size();
       s = scan_.scopes[static_cast<std::size_t>(s)].parent) {
    if (scan_.scopes[static_cast<std::size_t>(s)].what == py_scope::kind::class_body)
      continue;
    const import_record* imp = import_of(scan_, names[0], s, true);
    if (!imp) {
      if (functions_of_scope(s).records_of.contains(names[0]))
        return false; // a value of the function's own
      continue;
    }
    const std::vector<std::string_view> members(names.begin() + 1, names.end());
    // `from settings import cfg`: a name of that module.
    if (!imp->name.empty() && loader_->member_holds_function(importer_, imp->module, imp->level,
                                                             imp->name, members, called))
      return true;
    // `import settings`, `import pkg.settings`, `from pkg import settings`: a name of the
    // module or of a submodule, whichever the attributes name.
    std::string submodules;
    for (std::size_t p = 1; p + 1 < names.size(); ++p) {
      if (const auto module = imported_module(scope, names[0], submodules);
          module && loader_->member_holds_function(
                        importer_, module->first, module->second, names[p],
                        std::vector<std::string_view>(
                            names.begin() + static_cast<std::ptrdiff_t>(p) + 1, names.end()),
                        called))
        return true;
      (submodules += submodules.empty() ? "" : ".") += names[p];
    }
    return false;
  }
  return false;
}

void dsl_parser::index_definitions() {
  if (tables().definitions_indexed)
    return;
  tables().definitions_indexed = true;
  for (std::size_t k = 0; k < scan_.definitions.size(); ++k) {
    tables().definition_at.emplace(scan_.definitions[k].keyword, k);
    tables().definition_of_scope.emplace(scan_.definitions[k].own_scope, k);
    tables().definitions_in[scan_.definitions[k].scope].push_back(k);
    if (scan_.definitions[k].is_class)
      tables().program_class_at.emplace(scan_.definitions[k].first_decorator, k);
  }
}

} // namespace commscope::frontend::detail
