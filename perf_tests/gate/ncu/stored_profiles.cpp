#include "gate/ncu/stored_profiles.h"

#include <nlohmann/json.hpp>

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

}  // namespace gpuperf::gate
