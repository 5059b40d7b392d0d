// The generated `pld` dialect (../include/commscope/mlir/dialect.td), its verifiers,
// the text form of device sets with progressions, and the check of the function-level
// attributes pld.level / pld.role / pld.type.
#include <commscope/mlir/dialect.hpp>

#include <mlir/IR/Builders.h>
#include <mlir/IR/DialectImplementation.h>
#include <mlir/Interfaces/FunctionInterfaces.h>

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/TypeSwitch.h>
#include <llvm/Support/raw_ostream.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>

namespace commscope::pld {
namespace {
/// `range(START, world_size - C, STEP)`, a step of 1 and a C of 0 left out.
void print_range(llvm::raw_ostream& os, const device_progression& r) {
  os << "range(" << r.start << ", world_size";
  if (r.stop_offset != 0)
    os << " - " << r.stop_offset;
  if (r.step != 1)
    os << ", " << r.step;
  os << ')';
}

std::string range_text(const device_progression& r) {
  std::string s;
  llvm::raw_string_ostream os(s);
  print_range(os, r);
  return s;
}

/// The rest of `range(START, world_size[ - C][, STEP])`, after the keyword.
mlir::ParseResult parse_range(mlir::AsmParser& p, llvm::SmallVectorImpl<device_progression>& out) {
  device_progression r{0, 1, 0};
  if (p.parseLParen() || p.parseInteger(r.start) || p.parseComma() || p.parseKeyword("world_size"))
    return mlir::failure();
  const llvm::SMLoc offset_at = p.getCurrentLocation();
  std::int64_t minus_offset = 0; // `- C` reads as the integer -C
  if (const auto written = p.parseOptionalInteger(minus_offset); written.has_value()) {
    if (mlir::failed(*written))
      return mlir::failure();
    if (minus_offset > 0 || minus_offset == std::numeric_limits<std::int64_t>::min())
      return p.emitError(offset_at, "expected `world_size` or `world_size - C` with C >= 0");
    r.stop_offset = -minus_offset;
  }
  if (mlir::succeeded(p.parseOptionalComma()) && p.parseInteger(r.step))
    return mlir::failure();
  if (p.parseRParen())
    return mlir::failure();
  out.push_back(r);
  return mlir::success();
}
} // namespace

/// A scope's devices as one list: its ids, then `range(...)` for each progression.
static mlir::ParseResult parseDeviceSet(mlir::OpAsmParser& p, mlir::DenseI64ArrayAttr& devices,
                                        ProgressionsAttr& progressions) {
  llvm::SmallVector<std::int64_t, 4> ids;
  llvm::SmallVector<device_progression, 2> ranges;
  const llvm::SMLoc at = p.getCurrentLocation();
  const auto element = [&]() -> mlir::ParseResult {
    if (mlir::succeeded(p.parseOptionalKeyword("range")))
      return parse_range(p, ranges);
    return p.parseInteger(ids.emplace_back());
  };
  if (p.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, element))
    return mlir::failure();
  devices = p.getBuilder().getDenseI64ArrayAttr(ids);
  if (ranges.empty())
    return mlir::success();
  progressions =
      ProgressionsAttr::getChecked([&] { return p.emitError(at); }, p.getContext(), ranges);
  return mlir::success(static_cast<bool>(progressions));
}

static void printDeviceSet(mlir::OpAsmPrinter& p, CommDomainScopeOp,
                           mlir::DenseI64ArrayAttr devices, ProgressionsAttr progressions) {
  p << '[';
  llvm::interleaveComma(devices.asArrayRef(), p);
  if (progressions)
    for (const device_progression& r : progressions.getProgressions()) {
      if (&r != progressions.getProgressions().begin() || !devices.empty())
        p << ", ";
      print_range(p.getStream(), r);
    }
  p << ']';
}

} // namespace commscope::pld

// clang-format off
#include <commscope/mlir/pld_dialect.cpp.inc>
#define GET_ATTRDEF_CLASSES
#include <commscope/mlir/pld_attrs.cpp.inc>
#define GET_OP_CLASSES
#include <commscope/mlir/pld_ops.cpp.inc>
// clang-format on

namespace commscope::pld {

void register_dialect(mlir::DialectRegistry& registry) { registry.insert<PldDialect>(); }

void PldDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include <commscope/mlir/pld_attrs.cpp.inc>
      >();
  addOperations<
#define GET_OP_LIST
#include <commscope/mlir/pld_ops.cpp.inc>
      >();
}

/// `<[range(...), ...]>`.
mlir::Attribute ProgressionsAttr::parse(mlir::AsmParser& p, mlir::Type) {
  llvm::SmallVector<device_progression, 2> ranges;
  const llvm::SMLoc at = p.getCurrentLocation();
  const auto element = [&]() -> mlir::ParseResult {
    if (p.parseKeyword("range"))
      return mlir::failure();
    return parse_range(p, ranges);
  };
  if (p.parseLess() || p.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, element) ||
      p.parseGreater())
    return {};
  return getChecked([&] { return p.emitError(at); }, p.getContext(), ranges);
}

void ProgressionsAttr::print(mlir::AsmPrinter& p) const {
  p << "<[";
  llvm::interleaveComma(getProgressions(), p,
                        [&](const device_progression& r) { print_range(p.getStream(), r); });
  p << "]>";
}

/// Each progression well formed, listed once, in the printed order of a device set.
mlir::LogicalResult
ProgressionsAttr::verify(llvm::function_ref<mlir::InFlightDiagnostic()> emit_error,
                         llvm::ArrayRef<device_progression> progressions) {
  if (progressions.empty())
    return emit_error() << "a symbolic device set needs at least one progression (without "
                           "any it is a plain devices list)";
  for (std::size_t i = 0; i < progressions.size(); ++i) {
    const device_progression& r = progressions[i];
    if (r.start < 0)
      return emit_error() << range_text(r) << " starts at a negative device";
    if (r.step < 1)
      return emit_error() << range_text(r) << " has a step below 1";
    if (r.stop_offset < 0)
      return emit_error() << range_text(r) << " stops beyond world_size";
    if (i > 0 && !(progressions[i - 1] < r))
      return emit_error() << range_text(r) << " is out of order after "
                          << range_text(progressions[i - 1])
                          << ": progressions are listed once each, by step, residue (start "
                             "mod step), stop offset, then start";
  }
  return mlir::success();
}

namespace {
/// The values each function-level attribute may take (traits.hpp, `describe`).
struct function_attribute {
  llvm::StringRef name;
  std::array<llvm::StringRef, 3> values;
};
constexpr std::array<function_attribute, 3> function_attributes{{
    {"pld.level", {"host", "chip", "core"}},
    {"pld.role", {"orchestrator", "worker", ""}},
    {"pld.type", {"orchestration", "graph", "kernel"}},
}};

mlir::LogicalResult non_negative_id(mlir::Operation* op, std::optional<std::uint64_t> id) {
  if (id && static_cast<std::int64_t>(*id) < 0)
    return op->emitOpError("window_buffer must be a non-negative id");
  return mlir::success();
}
} // namespace

mlir::LogicalResult PldDialect::verifyOperationAttribute(mlir::Operation* op,
                                                         mlir::NamedAttribute attribute) {
  const llvm::StringRef name = attribute.getName().getValue();
  const auto* known = llvm::find_if(function_attributes,
                                    [&](const function_attribute& a) { return a.name == name; });
  if (known == function_attributes.end())
    return op->emitError() << "unknown pld attribute '" << name
                           << "' (expected pld.level, pld.role or pld.type)";
  if (!mlir::isa<mlir::FunctionOpInterface>(op))
    return op->emitError() << "'" << name << "' belongs on a function";
  auto value = mlir::dyn_cast<mlir::StringAttr>(attribute.getValue());
  if (!value || value.getValue().empty() || !llvm::is_contained(known->values, value.getValue())) {
    auto diag = op->emitError() << "'" << name << "' must be one of";
    for (auto v : known->values)
      if (!v.empty())
        diag << " \"" << v << "\"";
    return diag;
  }
  return mlir::success();
}

mlir::LogicalResult AllocWindowBufferOp::verify() {
  return non_negative_id(*this, getWindowBuffer());
}
mlir::LogicalResult WindowOp::verify() { return non_negative_id(*this, getWindowBuffer()); }

mlir::LogicalResult DispatchOp::verify() {
  if (getArgs().empty())
    return emitOpError("needs a device operand first");
  return mlir::success();
}

mlir::LogicalResult CommDomainScopeOp::verify() {
  mlir::Block& body = getBody().front();
  auto y = body.empty() ? nullptr : mlir::dyn_cast<YieldOp>(body.back());
  if (!y)
    return emitOpError("body must end in pld.yield");
  if (y.getValues().getTypes() != getResultTypes())
    return emitOpError("pld.yield must forward values of the scope's result types");
  // A plain list's order is the commscope verifier's (unsorted-devices); a symbolic set's
  // ids are part of its printed form.
  if (getProgressionsAttr()) {
    const llvm::ArrayRef<std::int64_t> ids = getDevices();
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (ids[i] < 0 || (i > 0 && ids[i - 1] >= ids[i]))
        return emitOpError("the ids of a device set with progressions must be ascending, "
                           "unique and non-negative");
  }
  return mlir::success();
}

} // namespace commscope::pld
