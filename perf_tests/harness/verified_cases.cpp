#include "harness/verified_cases.h"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <utility>

#include "formats/atomic_file.h"
#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"

namespace gpuperf {
namespace {

using nlohmann::json;

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

VerifiedCases parse_verified_cases(const json& document, const std::string& source) {
  const formats::ObjectReader in(document, source, "", "rerun the correctness test, which rewrites it");
  in.integer("schema_version", kVerifiedCasesSchema, kVerifiedCasesSchema);
  VerifiedCases read;
  read.family = in.non_empty_string("family");
  read.gpu_slug = in.non_empty_string("gpu_slug");
  const formats::ObjectReader cases = in.object("cases");
  const std::string prefix = read.family + "/";
  for (const auto& [name, fingerprint] : cases.raw().items()) {
    if (name.rfind(prefix, 0) != 0) cases.fail_here("holds '" + name + "', not a case of the family " + read.family);
    read.cases[name] = formats::read_fingerprint(cases.member(name, fingerprint));
  }
  return read;
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
    VerifiedCases record = parse_verified_cases(
        formats::parse_json_document(formats::read_text_file(path, "rerun the correctness test"), path), path);
    if (record.family != family) {
      throw formats::InputError(path + ": family is '" + record.family + "', expected '" + family + "'");
    }
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
