#include "formats/fingerprint.h"

#include <cctype>
#include <limits>

#include "formats/escape.h"
#include "formats/json_input.h"

namespace gpuperf::formats {
namespace {

using nlohmann::json;

constexpr const char* kRecaptureHint = "capture it again: gpuperf_bench --fingerprint-only";

constexpr long long kIntMax = std::numeric_limits<int>::max();

int int_field(const ObjectReader& object, const char* key, int minimum) {
  return static_cast<int>(object.integer(key, minimum, kIntMax));
}

// Blocks or threads in x, y and z: three positive integers.
std::array<int, 3> dim3_field(const ObjectReader& object, const char* key) {
  const json& value = object.require(key);
  if (!value.is_array() || value.size() != 3) {
    object.fail(key, "is " + (value.is_array() ? "an array of " + std::to_string(value.size())
                                               : describe_json_type(value)) +
                         ", expected an array of 3 positive integers");
  }
  std::array<int, 3> dims{};
  for (std::size_t i = 0; i < 3; ++i) {
    dims[i] = static_cast<int>(object.integer_at(value[i], object.field(key) + "[" + std::to_string(i) + "]", 1, kIntMax));
  }
  return dims;
}

bool is_sass_hash(const std::string& text) {
  return text.size() == 16 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

KernelLaunch read_launch(const ObjectReader& object) {
  KernelLaunch launch;
  launch.name = object.string("name");
  launch.mangled_name = object.non_empty_string("mangled_name");
  launch.grid = dim3_field(object, "grid");
  launch.block = dim3_field(object, "block");
  launch.dynamic_shared_memory_bytes = int_field(object, "dynamic_shared_memory_bytes", 0);
  launch.registers_per_thread = int_field(object, "registers_per_thread", 0);
  launch.static_shared_memory_bytes = int_field(object, "static_shared_memory_bytes", 0);
  launch.local_memory_per_thread_bytes = int_field(object, "local_memory_per_thread_bytes", 0);
  // Required, null when unknown: a writer that forgot it must not read as "unknown".
  if (!object.raw().contains("sass_hash")) object.fail("sass_hash", "is missing");
  if (const json* hash = object.find("sass_hash")) {
    if (!hash->is_string() || !is_sass_hash(hash->get<std::string>())) {
      object.fail("sass_hash", "is " + hash->dump() + ", expected 16 lower-case hex digits or null");
    }
    launch.sass_hash = hash->get<std::string>();
  }
  launch.launches = int_field(object, "launches", 1);
  return launch;
}

// The kinds CUPTI's memcpy records name (cupti_capture.cpp), and the one of a set.
// "memset", "memcpy", or "memcpy " and CUPTI's direction of four letters ("HtoD", "DtoA", "PtoP").
bool is_copy_kind(const std::string& kind) {
  if (kind == "memset" || kind == "memcpy") return true;
  const std::string prefix = "memcpy ";
  if (kind.size() != prefix.size() + 4 || kind.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string direction = kind.substr(prefix.size());
  return std::isalpha(static_cast<unsigned char>(direction[0])) && direction.substr(1, 2) == "to" &&
         std::isalpha(static_cast<unsigned char>(direction[3]));
}

CopyOrSet read_copy(const ObjectReader& object) {
  CopyOrSet copy;
  copy.kind = object.string("kind");
  if (!is_copy_kind(copy.kind)) {
    object.fail("kind", "is '" + escape_console(copy.kind) + "', expected memset or memcpy HtoD, DtoH, DtoD, HtoH or PtoP");
  }
  copy.bytes = object.integer("bytes", 0);
  copy.after_launches = int_field(object, "after_launches", 0);
  copy.count = int_field(object, "count", 1);
  return copy;
}

std::string dims(const std::array<int, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

}  // namespace

bool same_launch(const KernelLaunch& a, const KernelLaunch& b) {
  return a.name == b.name && a.mangled_name == b.mangled_name && a.grid == b.grid && a.block == b.block &&
         a.dynamic_shared_memory_bytes == b.dynamic_shared_memory_bytes &&
         a.registers_per_thread == b.registers_per_thread &&
         a.static_shared_memory_bytes == b.static_shared_memory_bytes &&
         a.local_memory_per_thread_bytes == b.local_memory_per_thread_bytes && a.sass_hash == b.sass_hash;
}

std::vector<KernelLaunch> merge_consecutive(const std::vector<KernelLaunch>& launches) {
  std::vector<KernelLaunch> merged;
  for (const KernelLaunch& launch : launches) {
    if (!merged.empty() && same_launch(merged.back(), launch)) {
      merged.back().launches += launch.launches;
    } else {
      merged.push_back(launch);
    }
  }
  return merged;
}

std::vector<CopyOrSet> merge_consecutive(const std::vector<CopyOrSet>& copies) {
  std::vector<CopyOrSet> merged;
  for (const CopyOrSet& copy : copies) {
    if (!merged.empty() && merged.back().kind == copy.kind && merged.back().bytes == copy.bytes &&
        merged.back().after_launches == copy.after_launches) {
      merged.back().count += copy.count;
    } else {
      merged.push_back(copy);
    }
  }
  return merged;
}

std::string describe(const CopyOrSet& copy) { return copy.kind + " of " + std::to_string(copy.bytes) + " bytes"; }

bool operator==(const CopyOrSet& a, const CopyOrSet& b) {
  return a.kind == b.kind && a.bytes == b.bytes && a.after_launches == b.after_launches && a.count == b.count;
}

bool operator==(const KernelLaunch& a, const KernelLaunch& b) { return same_launch(a, b) && a.launches == b.launches; }

bool operator==(const Fingerprint& a, const Fingerprint& b) {
  return a.kernels == b.kernels && a.copies == b.copies && a.libraries == b.libraries &&
         a.capture_status == b.capture_status && a.covers_copies == b.covers_copies;
}

void to_json(json& out, const CopyOrSet& copy) {
  out = json{{"kind", copy.kind}, {"bytes", copy.bytes}, {"after_launches", copy.after_launches}, {"count", copy.count}};
}

void to_json(json& out, const KernelLaunch& launch) {
  out = json{{"name", launch.name},
             {"mangled_name", launch.mangled_name},
             {"grid", launch.grid},
             {"block", launch.block},
             {"dynamic_shared_memory_bytes", launch.dynamic_shared_memory_bytes},
             {"registers_per_thread", launch.registers_per_thread},
             {"static_shared_memory_bytes", launch.static_shared_memory_bytes},
             {"local_memory_per_thread_bytes", launch.local_memory_per_thread_bytes},
             {"sass_hash", launch.sass_hash.empty() ? json(nullptr) : json(launch.sass_hash)},
             {"launches", launch.launches}};
}

void from_json(const json& in, KernelLaunch& launch) {
  launch = read_launch(ObjectReader(in, "kernel launch", "", kRecaptureHint));
}

void to_json(json& out, const Fingerprint& fingerprint) {
  out = json{{"schema", fingerprint.covers_copies ? kFingerprintSchema : kFingerprintSchemaWithoutCopies},
             {"capture_status", fingerprint.capture_status},
             {"libraries", fingerprint.libraries},
             {"kernels", fingerprint.kernels}};
  if (fingerprint.covers_copies) out["copies"] = fingerprint.copies;
}

Fingerprint read_fingerprint(const ObjectReader& object) {
  const long long schema = object.integer("schema");
  if (schema != kFingerprintSchema && schema != kFingerprintSchemaWithoutCopies) {
    object.fail("schema", "is " + std::to_string(schema) + ", this build reads " +
                              std::to_string(kFingerprintSchemaWithoutCopies) + " and " +
                              std::to_string(kFingerprintSchema));
  }
  Fingerprint read;
  read.covers_copies = schema >= kFingerprintSchema;
  if (read.covers_copies) {
    const json& copies = object.array("copies");
    for (std::size_t i = 0; i < copies.size(); ++i) read.copies.push_back(read_copy(object.element("copies", i, copies[i])));
  }
  read.capture_status = object.string("capture_status");
  const ObjectReader libraries = object.object("libraries");
  for (const auto& [library, version] : libraries.raw().items()) {
    read.libraries[library] = libraries.string_at(version, libraries.field(library));
  }
  const json& kernels = object.array("kernels");
  for (std::size_t i = 0; i < kernels.size(); ++i) read.kernels.push_back(read_launch(object.element("kernels", i, kernels[i])));
  return read;
}

void from_json(const json& in, Fingerprint& fingerprint) {
  fingerprint = read_fingerprint(ObjectReader(in, "fingerprint", "", kRecaptureHint));
}

std::string to_text(const Fingerprint& fingerprint) {
  if (fingerprint.capture_status != kCapturedByCupti) {
    const std::string why = fingerprint.capture_status.empty() ? "no reason given" : fingerprint.capture_status;
    return "fingerprint: not captured (" + why + ")";
  }
  long long launches = 0;
  for (const KernelLaunch& k : fingerprint.kernels) launches += k.launches;
  std::string text = "fingerprint (cupti): " + std::to_string(fingerprint.kernels.size()) + " kernels, " +
                     std::to_string(launches) + " launches:";
  const char* separator = " ";
  for (const KernelLaunch& k : fingerprint.kernels) {
    text += separator;
    text += (k.name.empty() ? k.mangled_name : k.name) + "<<<" + dims(k.grid) + ", " + dims(k.block) + ", " +
            std::to_string(k.dynamic_shared_memory_bytes) + "B>>> regs=" + std::to_string(k.registers_per_thread) +
            " smem=" + std::to_string(k.static_shared_memory_bytes) +
            "B lmem=" + std::to_string(k.local_memory_per_thread_bytes) +
            "B sass=" + (k.sass_hash.empty() ? "?" : k.sass_hash);
    if (k.launches > 1) text += " x" + std::to_string(k.launches);
    separator = "; ";
  }
  if (!fingerprint.covers_copies) {
    text += " | copies and sets not captured";
  } else if (!fingerprint.copies.empty()) {
    text += " | " + std::to_string(fingerprint.copies.size()) + " copies and sets:";
    separator = " ";
    for (const CopyOrSet& c : fingerprint.copies) {
      text += separator + c.kind + " " + std::to_string(c.bytes) + "B after launch " + std::to_string(c.after_launches);
      if (c.count > 1) text += " x" + std::to_string(c.count);
      separator = "; ";
    }
  }
  separator = " | ";
  for (const auto& [library, version] : fingerprint.libraries) {
    text += separator + library + " " + version;
    separator = ", ";
  }
  return text;
}

}  // namespace gpuperf::formats
