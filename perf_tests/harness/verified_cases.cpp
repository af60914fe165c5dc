#include "harness/verified_cases.h"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "formats/atomic_file.h"
#include "formats/json_input.h"

namespace gpuperf {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::invalid_argument("verified cases: " + where + ": " + what);
}

const json& field(const json& object, const char* key) {
  if (!object.is_object()) fail("document", std::string("expected an object, found ") + object.type_name());
  const auto it = object.find(key);
  if (it == object.end()) fail(key, "missing");
  return *it;
}

std::string string_field(const json& object, const char* key) {
  const json& value = field(object, key);
  if (!value.is_string() || value.get<std::string>().empty()) {
    fail(key, std::string("expected a non-empty string, found ") + value.type_name());
  }
  return value.get<std::string>();
}

// Whether every kernel of a captured fingerprint names its machine code: an unknown hash proves nothing.
bool knows_all_code(const formats::Fingerprint& fingerprint) {
  return !fingerprint.kernels.empty() &&
         std::all_of(fingerprint.kernels.begin(), fingerprint.kernels.end(),
                     [](const formats::KernelLaunch& k) { return !k.sass_hash.empty(); });
}

ReferenceCheckDecision check(std::string why) { return {false, std::move(why)}; }

}  // namespace

void to_json(json& out, const VerifiedCases& record) {
  out = {{"schema_version", kVerifiedCasesSchema},
         {"family", record.family},
         {"gpu_slug", record.gpu_slug},
         {"cases", record.cases}};
}

void from_json(const json& in, VerifiedCases& record) {
  const json& schema = field(in, "schema_version");
  if (!schema.is_number_integer() || schema.get<long long>() != kVerifiedCasesSchema) {
    fail("schema_version", schema.dump() + " is not " + std::to_string(kVerifiedCasesSchema) +
                               " (written by another release of the harness)");
  }
  VerifiedCases read;
  read.family = string_field(in, "family");
  read.gpu_slug = string_field(in, "gpu_slug");
  const json& cases = field(in, "cases");
  if (!cases.is_object()) fail("cases", std::string("expected an object, found ") + cases.type_name());
  const std::string prefix = read.family + "/";
  for (const auto& [name, fingerprint] : cases.items()) {
    if (name.rfind(prefix, 0) != 0) fail("cases", "'" + name + "' is not a case of the family " + read.family);
    try {
      read.cases[name] = fingerprint.get<formats::Fingerprint>();
    } catch (const std::exception& e) {
      fail("cases[\"" + name + "\"]", e.what());
    }
  }
  record = std::move(read);
}

std::string verified_cases_path(const std::string& folder, const std::string& family) {
  return (std::filesystem::path(folder) / (family + ".json")).string();
}

void write_verified_cases(const std::string& folder, const VerifiedCases& record) {
  std::filesystem::create_directories(folder);
  formats::write_file_atomically(verified_cases_path(folder, record.family), json(record).dump(1) + "\n");
}

VerifiedCasesRead read_verified_cases(const std::string& folder, const std::string& family) {
  const std::string path = verified_cases_path(folder, family);
  VerifiedCasesRead result;
  try {
    if (!formats::input_file_exists(path)) return result;
    VerifiedCases record =
        formats::parse_json_document(formats::read_text_file(path, "rerun the correctness test"), path)
            .get<VerifiedCases>();
    if (record.family != family) fail("family", "'" + record.family + "', expected '" + family + "'");
    result.record = std::move(record);
  } catch (const std::exception& e) {
    result.warning = "the correctness test's record " + path + " cannot be used (" + e.what() +
                     "): every case of " + family + " is checked against its reference";
  }
  return result;
}

ReferenceCheckDecision decide_reference_check(const VerifiedCases* record, const std::string& gpu_slug,
                                              const std::string& case_name, const formats::Fingerprint& captured) {
  if (record == nullptr) return check("no record of the correctness test");
  const auto verified = record->cases.find(case_name);
  if (verified == record->cases.end()) return check("not verified by the correctness test");
  if (record->gpu_slug != gpu_slug) return check("verified on " + record->gpu_slug + ", not " + gpu_slug);
  if (captured.capture_status != formats::kCapturedByCupti) return check("no fingerprint captured here");
  if (verified->second.capture_status != formats::kCapturedByCupti) return check("the verified run has no fingerprint");
  if (!knows_all_code(captured) || !knows_all_code(verified->second)) return check("a kernel's machine code is unknown");
  if (!(captured == verified->second)) return check("the fingerprint differs from the verified run's");
  return {true, ""};
}

VerifiedCasesIndex::VerifiedCasesIndex(const std::string& folder, const std::vector<std::string>& families,
                                       std::string gpu_slug, std::vector<std::string>& warnings)
    : gpu_slug_(std::move(gpu_slug)) {
  for (const std::string& family : families) {
    if (records_.count(family) != 0) continue;
    VerifiedCasesRead read = read_verified_cases(folder, family);
    if (!read.warning.empty()) warnings.push_back(read.warning);
    if (read.record) records_.emplace(family, std::move(*read.record));
  }
}

bool VerifiedCasesIndex::lists(const std::string& family, const std::string& case_name) const {
  const auto record = records_.find(family);
  return record != records_.end() && record->second.cases.count(case_name) != 0;
}

ReferenceCheckDecision VerifiedCasesIndex::decide(const std::string& family, const std::string& case_name,
                                                  const formats::Fingerprint& captured) const {
  const auto record = records_.find(family);
  return decide_reference_check(record == records_.end() ? nullptr : &record->second, gpu_slug_, case_name, captured);
}

}  // namespace gpuperf
