#include "gate/ncu/stored_profiles.h"

#include <nlohmann/json.hpp>

#include "formats/atomic_file.h"
#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"

namespace gpuperf::gate {

std::string ncu_baseline_to_text(const NcuBaseline& stored) {
  nlohmann::ordered_json benchmarks = nlohmann::ordered_json::object();
  for (const auto& [name, profile] : stored.benchmarks) {
    benchmarks[name] = nlohmann::ordered_json::parse(nlohmann::json(profile).dump());
  }
  return nlohmann::ordered_json{{"schema_version", kNcuBaselineSchemaVersion},
                                {"gpu_slug", stored.gpu_slug},
                                {"benchmarks", benchmarks}}
             .dump(2) +
         "\n";
}

NcuBaseline ncu_baseline_from_text(const std::string& text, const std::string& source) {
  // Refuses a repeated key, as every reader does.
  const nlohmann::json doc = formats::parse_json_document(text, source);
  const formats::ObjectReader top(doc, source, "", kRecordAgainHint);
  top.schema_version(kNcuBaselineSchemaVersion);
  NcuBaseline stored;
  stored.gpu_slug = top.non_empty_string("gpu_slug");
  if (const std::string error = formats::name_error(formats::NameKind::kGpuSlug, stored.gpu_slug); !error.empty()) {
    top.fail_at("gpu_slug:", error);
  }
  const formats::ObjectReader benchmarks = top.object("benchmarks");
  for (const auto& [name, profile] : benchmarks.raw().items()) {
    if (const std::string error = formats::name_error(formats::NameKind::kBenchmark, name); !error.empty()) {
      top.fail_at("benchmarks:", error);
    }
    stored.benchmarks[name] = read_ncu_profile(benchmarks.member(name, profile));
  }
  return stored;
}

NcuBaseline load_ncu_baseline(const std::string& path) {
  return ncu_baseline_from_text(formats::read_text_file(path, "record the profiles with scripts/record_ncu.sh"),
                                path);
}

void store_ncu_profiles(const std::string& path, const std::string& gpu_slug,
                        const std::map<std::string, NcuProfile>& profiles) {
  NcuBaseline stored;
  stored.gpu_slug = gpu_slug;
  const formats::FileLock lock(path);
  if (formats::input_file_exists(path)) {
    stored = load_ncu_baseline(path);
    if (stored.gpu_slug != gpu_slug) {
      throw formats::InputError(path + " holds profiles of " + stored.gpu_slug + ", not " + gpu_slug +
                                " - each GPU's profiles go beside its own baseline");
    }
  }
  for (const auto& [benchmark, profile] : profiles) stored.benchmarks[benchmark] = profile;
  formats::write_file_atomically(path, ncu_baseline_to_text(stored));
}

}  // namespace gpuperf::gate
