#include "gate/ncu/stored_profiles.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "formats/input_error.h"
#include "formats/json_input.h"
#include "formats/names.h"

namespace gpuperf::gate {

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("ncu baseline: " + what); }

}  // namespace

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

NcuBaseline ncu_baseline_from_text(const std::string& text) {
  nlohmann::json doc;
  try {
    doc = formats::parse_json_document(text, "ncu baseline");  // refuses a repeated key, as every reader does
  } catch (const formats::InputError& e) {
    throw std::invalid_argument(e.what());
  }
  if (!doc.is_object()) fail("not a JSON object");
  if (doc.value("schema_version", 0) != kNcuBaselineSchemaVersion) {
    fail("schema_version is not " + std::to_string(kNcuBaselineSchemaVersion));
  }
  NcuBaseline stored;
  const auto slug = doc.find("gpu_slug");
  if (slug == doc.end() || !slug->is_string() || slug->get<std::string>().empty()) fail("no \"gpu_slug\"");
  stored.gpu_slug = slug->get<std::string>();
  if (const std::string error = formats::name_error(formats::NameKind::kGpuSlug, stored.gpu_slug); !error.empty()) {
    fail("gpu_slug: " + error);
  }
  const auto benchmarks = doc.find("benchmarks");
  if (benchmarks == doc.end() || !benchmarks->is_object()) fail("no \"benchmarks\" object");
  for (const auto& [name, profile] : benchmarks->items()) {
    if (const std::string error = formats::name_error(formats::NameKind::kBenchmark, name); !error.empty()) {
      fail("benchmarks: " + error);
    }
    try {
      stored.benchmarks[name] = profile.get<NcuProfile>();
    } catch (const std::invalid_argument& e) {
      fail(name + ": " + e.what());
    }
  }
  return stored;
}

}  // namespace gpuperf::gate
