#pragma once
// A benchmark's fingerprint: every kernel its timed region launches (ours and the libraries'), how, and
// with which machine code, and every copy and set of memory it issues, so that a change in time can be told apart into "other code ran" and "the same
// code got slower". CUPTI captures it during the reference-check run, never while timing; this
// file is only the data, its JSON form and its one-line log form.

#include <array>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/json_fields.h"

namespace gpuperf::formats {

// The JSON form's version: change the form, bump it. from_json reads this one and the older ones below.
// 2: the copies and sets (`copies`). 1: kernels and libraries only; still read, and written for a
// fingerprint read from it (covers_copies false), so that a rewritten file never claims what it lacks.
inline constexpr int kFingerprintSchema = 2;
inline constexpr int kFingerprintSchemaWithoutCopies = 1;
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

// A copy or set of memory issued in the window (cudaMemcpy*, cudaMemset*, and the libraries' own): work
// of the GPU that no kernel launch shows, and that a change of the code can add or resize.
struct CopyOrSet {
  std::string kind;       // "memcpy HtoD", "memcpy DtoH", "memcpy DtoD", "memcpy HtoH", "memcpy PtoP", "memset"
  long long bytes = 0;    // of one operation [bytes]
  int after_launches = 0;  // kernel launches of the window issued before it: its place among the kernels
  int count = 1;           // consecutive identical operations this entry stands for
};

struct Fingerprint {
  std::vector<KernelLaunch> kernels;             // in launch order, consecutive identical launches merged
  std::vector<CopyOrSet> copies;                 // in issue order, consecutive identical ones merged
  std::map<std::string, std::string> libraries;  // library -> version: "cublas" -> "13.0.0"
  std::string capture_status;                    // kCapturedByCupti, else why not captured
  // Whether `copies` was captured at all: false for a schema-1 fingerprint, which covers kernels only
  // (its empty `copies` says nothing), so that nobody reads "no copies" into it.
  bool covers_copies = false;
};

// Whether two launches are the same launch of the same code: every field but `launches` equal.
bool same_launch(const KernelLaunch& a, const KernelLaunch& b);

// `launches` in order, each run of consecutive same_launch() entries merged into one whose `launches` is
// the run's total: A A B A -> A x2, B, A. A kernel launched again after another one stays a new entry,
// as the order is part of what ran.
std::vector<KernelLaunch> merge_consecutive(const std::vector<KernelLaunch>& launches);

// `copies` in order, each run of identical entries (kind, bytes, after_launches) merged into one whose
// `count` is the run's total.
std::vector<CopyOrSet> merge_consecutive(const std::vector<CopyOrSet>& copies);

// "memset of 4194304 bytes", "memcpy DtoD of 1048576 bytes": one operation, for reports.
std::string describe(const CopyOrSet& copy);

bool operator==(const CopyOrSet& a, const CopyOrSet& b);
bool operator==(const KernelLaunch& a, const KernelLaunch& b);
bool operator==(const Fingerprint& a, const Fingerprint& b);

// Reads the JSON form from the object `fingerprint` (json_fields.h), whose source and path name it in
// messages. InputError naming the field and what is wrong ("b.json: benchmarks['a/b'].fingerprint.
// kernels[1].grid is ..."): a missing or mistyped field, a non-positive dimension or count, a negative
// size, a sass_hash other than 16 lower-case hex digits or null, a copy of an unknown kind, a schema
// other than kFingerprintSchema and kFingerprintSchemaWithoutCopies.
Fingerprint read_fingerprint(const ObjectReader& fingerprint);

// nlohmann::json conversions (found by ADL: json j = fingerprint; j.get<Fingerprint>()). An unknown
// sass_hash is written as null. from_json is read_fingerprint of a document named "fingerprint".
void to_json(nlohmann::json& json, const CopyOrSet& copy);
void to_json(nlohmann::json& json, const KernelLaunch& launch);
void from_json(const nlohmann::json& json, KernelLaunch& launch);
void to_json(nlohmann::json& json, const Fingerprint& fingerprint);
void from_json(const nlohmann::json& json, Fingerprint& fingerprint);

// One line for logs (wrapped here):
//   fingerprint (cupti): 2 kernels, 3 launches: s100<<<1x1x1, 100x1x1, 0B>>> regs=10 smem=400B lmem=0B
//   sass=86d1a29afca82517 x2; ... | 1 copies and sets: memset 4194304B after launch 1 | cublas 13.0.0
// ("| copies and sets not captured" for a schema-1 fingerprint)
// or "fingerprint: not captured (<capture_status>)" when it was not captured.
std::string to_text(const Fingerprint& fingerprint);

}  // namespace gpuperf::formats
