#include "formats/fingerprint.h"

#include <limits>
#include <stdexcept>

namespace gpuperf::formats {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::invalid_argument("fingerprint: " + where + ": " + what);
}

// "kernels[1]" + "grid" -> "kernels[1].grid"; the top level is "".
std::string join(const std::string& where, const char* key) { return where.empty() ? key : where + "." + key; }

const json& field(const json& object, const char* key, const std::string& where) {
  if (!object.is_object()) {
    fail(where.empty() ? "document" : where, std::string("expected an object, found ") + object.type_name());
  }
  const auto it = object.find(key);
  if (it == object.end()) fail(join(where, key), "missing");
  return *it;
}

std::string string_field(const json& object, const char* key, const std::string& where) {
  const json& value = field(object, key, where);
  if (!value.is_string()) fail(join(where, key), std::string("expected a string, found ") + value.type_name());
  return value.get<std::string>();
}

// An integer in [minimum, INT_MAX].
int int_value(const json& value, int minimum, const std::string& where) {
  if (!value.is_number_integer()) fail(where, std::string("expected an integer, found ") + value.type_name());
  const auto number = value.get<long long>();
  if (number < minimum || number > std::numeric_limits<int>::max()) {
    fail(where, std::to_string(number) + " is outside [" + std::to_string(minimum) + ", 2^31)");
  }
  return static_cast<int>(number);
}

int int_field(const json& object, const char* key, int minimum, const std::string& where) {
  return int_value(field(object, key, where), minimum, join(where, key));
}

std::array<int, 3> dim3_field(const json& object, const char* key, const std::string& where) {
  const json& value = field(object, key, where);
  const std::string at = join(where, key);
  if (!value.is_array() || value.size() != 3) fail(at, "expected an array of 3 positive integers");
  return {int_value(value[0], 1, at + "[0]"), int_value(value[1], 1, at + "[1]"), int_value(value[2], 1, at + "[2]")};
}

bool is_sass_hash(const std::string& text) {
  return text.size() == 16 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

void read_launch(const json& object, KernelLaunch& launch, const std::string& where) {
  launch.name = string_field(object, "name", where);
  launch.mangled_name = string_field(object, "mangled_name", where);
  if (launch.mangled_name.empty()) fail(join(where, "mangled_name"), "empty");
  launch.grid = dim3_field(object, "grid", where);
  launch.block = dim3_field(object, "block", where);
  launch.dynamic_shared_memory_bytes = int_field(object, "dynamic_shared_memory_bytes", 0, where);
  launch.registers_per_thread = int_field(object, "registers_per_thread", 0, where);
  launch.static_shared_memory_bytes = int_field(object, "static_shared_memory_bytes", 0, where);
  launch.local_memory_per_thread_bytes = int_field(object, "local_memory_per_thread_bytes", 0, where);
  const json& hash = field(object, "sass_hash", where);
  if (hash.is_null()) {
    launch.sass_hash.clear();
  } else if (hash.is_string() && is_sass_hash(hash.get<std::string>())) {
    launch.sass_hash = hash.get<std::string>();
  } else {
    fail(join(where, "sass_hash"), "expected 16 lower-case hex digits or null, found " + hash.dump());
  }
  launch.launches = int_field(object, "launches", 1, where);
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

bool operator==(const KernelLaunch& a, const KernelLaunch& b) { return same_launch(a, b) && a.launches == b.launches; }

bool operator==(const Fingerprint& a, const Fingerprint& b) {
  return a.kernels == b.kernels && a.libraries == b.libraries && a.capture_status == b.capture_status;
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

void from_json(const json& in, KernelLaunch& launch) { read_launch(in, launch, "kernel"); }

void to_json(json& out, const Fingerprint& fingerprint) {
  out = json{{"schema", kFingerprintSchema},
             {"capture_status", fingerprint.capture_status},
             {"libraries", fingerprint.libraries},
             {"kernels", fingerprint.kernels}};
}

void from_json(const json& in, Fingerprint& fingerprint) {
  const int schema = int_field(in, "schema", 0, "");
  if (schema != kFingerprintSchema) {
    fail("schema", std::to_string(schema) + ", this build reads " + std::to_string(kFingerprintSchema));
  }
  Fingerprint read;
  read.capture_status = string_field(in, "capture_status", "");
  const json& libraries = field(in, "libraries", "");
  if (!libraries.is_object()) fail("libraries", std::string("expected an object, found ") + libraries.type_name());
  for (const auto& [library, version] : libraries.items()) {
    if (!version.is_string()) {
      fail("libraries." + library, std::string("expected a string, found ") + version.type_name());
    }
    read.libraries[library] = version.get<std::string>();
  }
  const json& kernels = field(in, "kernels", "");
  if (!kernels.is_array()) fail("kernels", std::string("expected an array, found ") + kernels.type_name());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    read.kernels.emplace_back();
    read_launch(kernels[i], read.kernels.back(), "kernels[" + std::to_string(i) + "]");
  }
  fingerprint = std::move(read);
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
  separator = " | ";
  for (const auto& [library, version] : fingerprint.libraries) {
    text += separator + library + " " + version;
    separator = ", ";
  }
  return text;
}

}  // namespace gpuperf::formats
