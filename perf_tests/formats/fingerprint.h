#pragma once
// A benchmark's fingerprint: every kernel its timed region launches (ours and the libraries'), how, and
// with which machine code, so that a change in time can be told apart into "other code ran" and "the same
// code got slower". CUPTI captures it during the reference-check run, never while timing; this
// file is only the data, its JSON form and its one-line log form.

#include <array>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/json_fields.h"

namespace gpuperf::formats {

// The JSON form's version: change the form, bump it. from_json refuses any other.
inline constexpr int kFingerprintSchema = 1;
// Fingerprint::capture_status of a fingerprint CUPTI captured; any other value says why there is none.
inline constexpr const char* kCapturedByCupti = "cupti";

struct KernelLaunch {
  std::string name;                       // demangled, for people: "void tiled<256>(float*, const float*)"
  std::string mangled_name;               // "_Z5tiledILi256EEvPfPKf": the cubin's .text.<name> (cubin_sass.h)
  std::array<int, 3> grid{1, 1, 1};       // blocks in x, y, z
  std::array<int, 3> block{1, 1, 1};      // threads per block in x, y, z
  int dynamic_shared_memory_bytes = 0;    // per block, as launched [bytes]
  int registers_per_thread = 0;
  int static_shared_memory_bytes = 0;     // per block [bytes]
  int local_memory_per_thread_bytes = 0;  // the thread's stack frame, spills included [bytes]
  std::string sass_hash;                  // 16 hex digits (cubin_sass.h); empty when unknown
  int launches = 1;                       // consecutive identical launches this entry stands for
};

struct Fingerprint {
  std::vector<KernelLaunch> kernels;             // in launch order, consecutive identical launches merged
  std::map<std::string, std::string> libraries;  // library -> version: "cublas" -> "13.0.0"
  std::string capture_status;                    // kCapturedByCupti, else why not captured
};

// Whether two launches are the same launch of the same code: every field but `launches` equal.
bool same_launch(const KernelLaunch& a, const KernelLaunch& b);

// `launches` in order, each run of consecutive same_launch() entries merged into one whose `launches` is
// the run's total: A A B A -> A x2, B, A. A kernel launched again after another one stays a new entry,
// as the order is part of what ran.
std::vector<KernelLaunch> merge_consecutive(const std::vector<KernelLaunch>& launches);

bool operator==(const KernelLaunch& a, const KernelLaunch& b);
bool operator==(const Fingerprint& a, const Fingerprint& b);

// Reads the JSON form from the object `fingerprint` (json_fields.h), whose source and path name it in
// messages. InputError naming the field and what is wrong ("b.json: benchmarks['a/b'].fingerprint.
// kernels[1].grid is ..."): a missing or mistyped field, a non-positive dimension or count, a negative
// size, a sass_hash other than 16 lower-case hex digits or null, a schema other than kFingerprintSchema.
Fingerprint read_fingerprint(const ObjectReader& fingerprint);

// nlohmann::json conversions (found by ADL: json j = fingerprint; j.get<Fingerprint>()). An unknown
// sass_hash is written as null. from_json is read_fingerprint of a document named "fingerprint".
void to_json(nlohmann::json& json, const KernelLaunch& launch);
void from_json(const nlohmann::json& json, KernelLaunch& launch);
void to_json(nlohmann::json& json, const Fingerprint& fingerprint);
void from_json(const nlohmann::json& json, Fingerprint& fingerprint);

// One line for logs (wrapped here):
//   fingerprint (cupti): 2 kernels, 3 launches: s100<<<1x1x1, 100x1x1, 0B>>> regs=10 smem=400B lmem=0B
//   sass=86d1a29afca82517 x2; ... | cublas 13.0.0
// or "fingerprint: not captured (<capture_status>)" when it was not captured.
std::string to_text(const Fingerprint& fingerprint);

}  // namespace gpuperf::formats
