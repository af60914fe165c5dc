#include "gate/inputs/gbench_results.h"

#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"

namespace gpuperf::gate {

bool gbench_flag(const formats::ObjectReader& row, const char* key) {
  const nlohmann::json* value = row.find(key);
  if (value == nullptr || value->is_number()) return false;  // a number is a counter of the suite's own
  if (!value->is_boolean()) {
    row.fail(key, "is " + formats::describe_json_type(*value) + ", expected true or false (Google Benchmark's flag)");
  }
  return value->get<bool>();
}

ResultsFile parse_gbench_results(const std::string& text, const std::string& source, const std::string& family,
                                 const std::optional<formats::GpuIdentity>& gpu) {
  // An empty family would read the file as our perf binary's: refused here, with the others.
  if (const std::string error = formats::name_error(formats::NameKind::kFamily, family); !error.empty()) {
    throw formats::InputError(source + ": cannot name its benchmarks: the suite's " + error +
                              " - name the suite with a family name (docs/suites.md)");
  }
  ResultsFile file = parse_results(text, source, ResultsDialect{family});
  if (gpu) file.gpu = gpu_context_of(*gpu, source);
  return file;
}

ResultsFile load_gbench_results(const std::string& path, const std::string& family,
                                const std::optional<formats::GpuIdentity>& gpu) {
  const std::string text =
      formats::read_text_file(path, "check the path; did the suite write its --benchmark_out file?");
  return parse_gbench_results(text, path, family, gpu);
}

}  // namespace gpuperf::gate
