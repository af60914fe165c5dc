#include "formats/case_listing.h"

#include <set>

#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "formats/sample_units.h"

namespace gpuperf::formats {
namespace {

using nlohmann::json;

constexpr const char* kRelistHint =
    "write it again with the perf binary of this build: gpuperf_bench --list-cases > FILE";

// The names of a case reach the fleet report: they must keep formats/names.h's rule.
void require_name(NameKind kind, const std::string& name, const ObjectReader& object, const char* key) {
  const std::string error = name_error(kind, name);
  if (!error.empty()) object.fail_at(object.field(key) + ":", error);
}

// A benchmark name, or null (no such yardstick): "" for null or absent.
std::string optional_name(const ObjectReader& entry, const char* key) {
  const json* value = entry.find(key);
  if (value == nullptr) return "";
  if (!value->is_string()) entry.fail(key, "is " + describe_json_type(*value) + ", expected a benchmark name or null");
  const std::string name = value->get<std::string>();
  if (!name.empty()) require_name(NameKind::kBenchmark, name, entry, key);
  return name;
}

// Cases without a "roles" array are taken as perf cases: a listing that says nothing hides nothing.
bool has_perf_role(const ObjectReader& entry) {
  const json* roles = entry.optional_array("roles");
  if (roles == nullptr) return true;
  for (const json& role : *roles) {
    if (role.is_string() && role.get_ref<const std::string&>() == "perf") return true;
  }
  return false;
}

ListedCase parse_case(const ObjectReader& entry) {
  ListedCase c;
  c.name = entry.non_empty_string("name");
  require_name(NameKind::kBenchmark, c.name, entry, "name");
  // Every later message names the case too: "cases[3] ('a/b/n:1').unit is ...".
  const ObjectReader named(entry.raw(), entry.source(), entry.path() + " ('" + c.name + "')", entry.hint());
  c.family = named.non_empty_string("family");
  require_name(NameKind::kFamily, c.family, named, "family");
  c.variant = named.non_empty_string("variant");
  require_name(NameKind::kNamePart, c.variant, named, "variant");
  c.shape = named.non_empty_string("shape");
  require_name(NameKind::kNamePart, c.shape, named, "shape");
  c.unit = named.non_empty_string("unit");
  if (c.unit != kUnitMicroseconds && c.unit != kUnitCycles) named.fail("unit", "is '" + c.unit + "', expected us or cycles");
  c.bytes = named.optional_non_negative("bytes").value_or(0.0);
  c.flops = named.optional_non_negative("flops").value_or(0.0);
  c.perf = has_perf_role(named);
  c.compared_with = optional_name(named, "compared_with");
  c.speedup_over = optional_name(named, "speedup_over");
  return c;
}

}  // namespace

CaseListing parse_case_listing(const std::string& text, const std::string& source) {
  const json doc = parse_json_document(text, source);
  if (!doc.is_object()) {
    throw InputError(source + ": the top level is " + describe_json_type(doc) +
                     ", expected an object with schema_version and cases - " + kRelistHint);
  }
  const ObjectReader top(doc, source, "", kRelistHint);
  const json* version = top.find("schema_version");
  if (version == nullptr || !version->is_number_integer() || version->get<long long>() != kCaseListingSchemaVersion) {
    const std::string found = version == nullptr ? "is missing" : "is " + version->dump();
    throw InputError(source + ": schema_version " + found + "; this perf_gate reads case listings of schema_version " +
                     std::to_string(kCaseListingSchemaVersion) +
                     " - list the cases with the gpuperf_bench of the same build as this perf_gate "
                     "(gpuperf_bench --list-cases > FILE)");
  }
  const json& cases = top.array("cases");
  CaseListing listing;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const ObjectReader entry = top.element("cases", i, cases[i]);
    ListedCase c = parse_case(entry);
    if (!seen.insert(c.name).second) entry.fail_here("lists '" + c.name + "' twice");
    listing.cases.push_back(std::move(c));
  }
  if (listing.cases.empty()) top.fail("cases", "is empty: the listing names no case");
  return listing;
}

CaseListing load_case_listing(const std::string& path) {
  return parse_case_listing(read_text_file(path, kRelistHint), path);
}

}  // namespace gpuperf::formats
