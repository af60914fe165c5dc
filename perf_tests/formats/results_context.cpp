#include "formats/results_context.h"

#include <exception>
#include <optional>

#include "formats/escape.h"
#include "formats/measuring_method.h"

namespace gpuperf::formats {
namespace {

// "132" -> 132; nullopt for "" or anything that is not a whole decimal number.
std::optional<long long> count_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  try {
    std::size_t used = 0;
    const long long value = std::stoll(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::string count_text(const std::optional<long long>& count) { return count ? std::to_string(*count) : ""; }

}  // namespace

ContextEntries gpu_context_entries(const GpuIdentity& gpu) {
  return {{kContextGpuName, gpu.name},
          {kContextGpuSlug, gpu.slug},
          {kContextGpuUuid, gpu.uuid},
          {kContextGpuComputeCapability, gpu.compute_capability},
          {kContextGpuSmCount, count_text(gpu.sm_count)},
          {kContextGpuMemoryMib, count_text(gpu.memory_mib)},
          {kContextDriverVersion, gpu.driver},
          {kContextCudaRuntime, gpu.cuda_runtime}};
}

std::string context_value(const ObjectReader& context, const char* key) {
  const nlohmann::json* value = context.find(key);
  if (value == nullptr) return "";
  if (value->is_number()) return value->dump();
  return context.string(key);
}

std::pair<std::string, std::string> measuring_method_context_entry() {
  return {kContextMeasuringMethod, std::to_string(kMeasuringMethodVersion)};
}

int measuring_method_from_context(const ObjectReader& context) {
  if (context.find(kContextMeasuringMethod) == nullptr) return kMeasuringMethodUnrecorded;
  const std::string text = context_value(context, kContextMeasuringMethod);
  const std::optional<long long> version = count_of(text);
  if (!version || *version < 1 || *version > 1000) {
    context.fail(kContextMeasuringMethod, "is '" + escape_console(text) + "', expected a positive whole number (the version of "
                                          "formats/measuring_method.h the perf binary measured with)");
  }
  return static_cast<int>(*version);
}

GpuIdentity gpu_identity_from_context(const ObjectReader& context) {
  GpuIdentity gpu;
  gpu.name = context_value(context, kContextGpuName);
  gpu.slug = context_value(context, kContextGpuSlug);
  gpu.uuid = context_value(context, kContextGpuUuid);
  gpu.compute_capability = context_value(context, kContextGpuComputeCapability);
  gpu.sm_count = count_of(context_value(context, kContextGpuSmCount));
  gpu.memory_mib = count_of(context_value(context, kContextGpuMemoryMib));
  gpu.driver = context_value(context, kContextDriverVersion);
  gpu.cuda_runtime = context_value(context, kContextCudaRuntime);
  return gpu;
}

}  // namespace gpuperf::formats
