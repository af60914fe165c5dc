#pragma once
// What the correctness test verified, for the perf test of the same build: per kernel family, the cases
// whose outputs matched the family's reference, each with the fingerprint (formats/fingerprint.h) of the
// kernels that ran, and the GPU model they ran on. The perf test's checking process still runs and
// fingerprints every case, and leaves out the host reference comparison (most of its setup time) only
// for a case recorded here with an equal fingerprint on the same GPU model; anything else it checks.
//
// One file per family, <folder>/<family>.json, written atomically by the correctness program and read by
// the benchmark program; the folder is GPUPERF_VERIFIED_CASES_DIR (kernel families' tests get it from
// CMake; unset: nothing is recorded or read). A file that cannot be read means "check every case".
//   {"schema_version": 1, "family": "fusion", "gpu_slug": "nvidia-h100-80gb-hbm3",
//    "cases": {"fusion/axpb_fused/n:16777216": <fingerprint>, ...}}

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/fingerprint.h"

namespace gpuperf {

// The file's version: change the form, bump it. A file of another version is not read (check everything).
inline constexpr int kVerifiedCasesSchema = 1;
// The environment variable naming the folder of the records.
inline constexpr const char* kVerifiedCasesDirVariable = "GPUPERF_VERIFIED_CASES_DIR";

// One family's record: what one correctness run of it verified.
struct VerifiedCases {
  std::string family;
  std::string gpu_slug;                                // the GPU model it ran on (GpuInfo::slug)
  std::map<std::string, formats::Fingerprint> cases;  // case name -> fingerprint of its verified run
};

// parse_verified_cases: formats::InputError naming `source`, the field and what is wrong, also for a schema
// other than kVerifiedCasesSchema or a case of another family (formats/json_fields.h).
void to_json(nlohmann::json& json, const VerifiedCases& record);
VerifiedCases parse_verified_cases(const nlohmann::json& document, const std::string& source);

// <folder>/<family>.json
std::string verified_cases_path(const std::string& folder, const std::string& family);

// Writes the family's file atomically (formats/atomic_file.h), creating the folder if needed.
// InputError or std::filesystem::filesystem_error when it cannot.
void write_verified_cases(const std::string& folder, const VerifiedCases& record);

// A family's record as the perf test reads it.
struct VerifiedCasesRead {
  std::optional<VerifiedCases> record;  // nullopt: none, or unreadable (then `warning` says why)
  std::string warning;                  // empty, or what is wrong with the file and that every case is checked
};

// The family's file: absent -> no record, no warning; unreadable, corrupt, of another schema or of
// another family -> no record and a warning. Never throws.
VerifiedCasesRead read_verified_cases(const std::string& folder, const std::string& family);

// Whether a case's host reference comparison can be left out, and why (for the setup log).
struct ReferenceCheckDecision {
  bool skip = false;   // true: the correctness test verified this very code on this GPU model
  std::string reason;  // why not, e.g. "the fingerprint differs from the verified run's"; empty when skip
};

// Skip only when `record` holds `case_name`, was recorded on `gpu_slug`, and both fingerprints were
// captured by CUPTI, launch at least one kernel, know every kernel's SASS hash, and are equal
// (operator== of formats/fingerprint.h: machine code, launch configuration, library versions).
ReferenceCheckDecision decide_reference_check(const VerifiedCases* record, const std::string& gpu_slug,
                                              const std::string& case_name, const formats::Fingerprint& captured);

// The records of several families, read once, and the decision per case; what the sampler asks.
class VerifiedCasesIndex {
 public:
  // Reads <folder>/<family>.json of each family; each warning (read_verified_cases) goes to `warnings`.
  VerifiedCasesIndex(const std::string& folder, const std::vector<std::string>& families, std::string gpu_slug,
                     std::vector<std::string>& warnings);
  // Whether some record names the case: only then is deciding worth a fingerprint before the check.
  bool lists(const std::string& family, const std::string& case_name) const;
  ReferenceCheckDecision decide(const std::string& family, const std::string& case_name,
                                const formats::Fingerprint& captured) const;

 private:
  std::map<std::string, VerifiedCases> records_;  // family -> its record (readable ones only)
  std::string gpu_slug_;
};

}  // namespace gpuperf
