#include "formats/case_listing.h"

#include <cmath>
#include <set>

#include "formats/input_error.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "formats/sample_units.h"

namespace gpuperf::formats {
namespace {

using nlohmann::json;

constexpr const char* kRelistHint =
    "write it again with the perf binary of this build: gpuperf_bench --list-cases > FILE";

[[noreturn]] void fail(const std::string& source, const std::string& where, const std::string& what) {
  throw InputError(source + ": " + where + " " + what + " - " + kRelistHint);
}

// The names of a case reach the fleet report: they must keep formats/names.h's rule.
void require_name(formats::NameKind kind, const std::string& name, const std::string& source,
                  const std::string& where) {
  const std::string error = formats::name_error(kind, name);
  if (!error.empty()) fail(source, where + ":", error);
}

std::string required_string(const json& entry, const char* key, const std::string& source, const std::string& where) {
  const auto it = entry.find(key);
  if (it == entry.end() || it->is_null()) fail(source, where + "." + key, "is missing");
  if (!it->is_string()) fail(source, where + "." + key, "is " + describe_json_type(*it) + ", expected a string");
  if (it->get_ref<const std::string&>().empty()) fail(source, where + "." + key, "is empty");
  return it->get<std::string>();
}

// A benchmark name, or null (no such yardstick): "" for null or absent.
std::string optional_name(const json& entry, const char* key, const std::string& source, const std::string& where) {
  const auto it = entry.find(key);
  if (it == entry.end() || it->is_null()) return "";
  if (!it->is_string()) {
    fail(source, where + "." + key, "is " + describe_json_type(*it) + ", expected a benchmark name or null");
  }
  const std::string name = it->get<std::string>();
  if (!name.empty()) require_name(formats::NameKind::kBenchmark, name, source, where + "." + key);
  return name;
}

double count(const json& entry, const char* key, const std::string& source, const std::string& where) {
  const auto it = entry.find(key);
  if (it == entry.end() || it->is_null()) return 0.0;
  const std::optional<double> value = number_value(*it);
  if (!value) fail(source, where + "." + key, "is " + describe_json_type(*it) + ", expected a number");
  if (!std::isfinite(*value) || *value < 0.0) {
    const std::string why = std::isfinite(*value) ? std::string("negative") : why_not_positive_finite(*value);
    fail(source, where + "." + key, "is " + why + ", expected a finite number >= 0");
  }
  return *value;
}

// Cases without a "roles" array are taken as perf cases: a listing that says nothing hides nothing.
bool has_perf_role(const json& entry, const std::string& source, const std::string& where) {
  const auto it = entry.find("roles");
  if (it == entry.end() || it->is_null()) return true;
  if (!it->is_array()) {
    fail(source, where + ".roles", "is " + describe_json_type(*it) + ", expected an array of strings");
  }
  for (const json& role : *it) {
    if (role.is_string() && role.get_ref<const std::string&>() == "perf") return true;
  }
  return false;
}

ListedCase parse_case(const json& entry, const std::string& source, const std::string& where) {
  if (!entry.is_object()) fail(source, where, "is " + describe_json_type(entry) + ", expected an object");
  ListedCase c;
  c.name = required_string(entry, "name", source, where);
  require_name(formats::NameKind::kBenchmark, c.name, source, where + ".name");
  const std::string named = where + " ('" + c.name + "')";
  c.family = required_string(entry, "family", source, named);
  require_name(formats::NameKind::kFamily, c.family, source, named + ".family");
  c.variant = required_string(entry, "variant", source, named);
  require_name(formats::NameKind::kNamePart, c.variant, source, named + ".variant");
  c.shape = required_string(entry, "shape", source, named);
  require_name(formats::NameKind::kNamePart, c.shape, source, named + ".shape");
  c.unit = required_string(entry, "unit", source, named);
  if (c.unit != kUnitMicroseconds && c.unit != kUnitCycles) {
    fail(source, named + ".unit", "is '" + c.unit + "', expected us or cycles");
  }
  c.bytes = count(entry, "bytes", source, named);
  c.flops = count(entry, "flops", source, named);
  c.perf = has_perf_role(entry, source, named);
  c.compared_with = optional_name(entry, "compared_with", source, named);
  c.speedup_over = optional_name(entry, "speedup_over", source, named);
  return c;
}

}  // namespace

CaseListing parse_case_listing(const std::string& text, const std::string& source) {
  const json doc = parse_json_document(text, source);
  if (!doc.is_object()) {
    fail(source, "the top level",
         "is " + describe_json_type(doc) + ", expected an object with schema_version and cases");
  }
  const auto version = doc.find("schema_version");
  if (version == doc.end() || !version->is_number_integer() ||
      version->get<long long>() != kCaseListingSchemaVersion) {
    const std::string found = version == doc.end() ? "is missing" : "is " + version->dump();
    throw InputError(source + ": schema_version " + found + "; this perf_gate reads case listings of schema_version " +
                     std::to_string(kCaseListingSchemaVersion) +
                     " - list the cases with the gpuperf_bench of the same build as this perf_gate "
                     "(gpuperf_bench --list-cases > FILE)");
  }
  const auto cases = doc.find("cases");
  if (cases == doc.end() || !cases->is_array()) {
    fail(source, "'cases'",
         cases == doc.end() ? "is missing" : "is " + describe_json_type(*cases) + ", expected an array");
  }
  CaseListing listing;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < cases->size(); ++i) {
    ListedCase c = parse_case((*cases)[i], source, "cases[" + std::to_string(i) + "]");
    if (!seen.insert(c.name).second) fail(source, "cases[" + std::to_string(i) + "]", "lists '" + c.name + "' twice");
    listing.cases.push_back(std::move(c));
  }
  if (listing.cases.empty()) fail(source, "'cases'", "is empty: the listing names no case");
  return listing;
}

CaseListing load_case_listing(const std::string& path) {
  return parse_case_listing(read_text_file(path, kRelistHint), path);
}

}  // namespace gpuperf::formats
