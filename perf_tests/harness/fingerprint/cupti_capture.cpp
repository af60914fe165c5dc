#include "harness/fingerprint/cupti_capture.h"

#include <cupti.h>
#include <cxxabi.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "harness/fingerprint/cubin_sass.h"
#include "harness/fingerprint/device_wait.h"

namespace gpuperf::fingerprint {
namespace {

// Each buffer CUPTI fills with activity records: 1 MiB holds about 3,000 kernel records of ~300 bytes.
constexpr std::size_t kActivityBufferBytes = std::size_t{1} << 20;  // [bytes]
static_assert(kActivityBufferBytes % ACTIVITY_RECORD_ALIGNMENT == 0, "aligned_alloc needs a multiple");

std::string result_string(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || text == nullptr) {
    return "CUptiResult " + std::to_string(static_cast<int>(result));
  }
  return text;
}

std::string cupti_error(const char* call, CUptiResult result) {
  return std::string("CUPTI error in ") + call + ": " + result_string(result);
}

// "_Z4s100Pf" -> "s100(float*)"; a name that is not a C++ mangled one (extern "C") stays as it is.
std::string demangle(const std::string& mangled) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> text(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && text != nullptr ? std::string(text.get()) : mangled;
}

// CUPTI's copy direction as the fingerprint names it: "memcpy HtoD"; "memcpy" when CUPTI does not know it.
std::string copy_kind_name(std::uint8_t kind) {
  switch (static_cast<CUpti_ActivityMemcpyKind>(kind)) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return "memcpy HtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return "memcpy AtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA: return "memcpy AtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD: return "memcpy AtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return "memcpy DtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "memcpy DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "memcpy HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "memcpy PtoP";
    default: return "memcpy";
  }
}

// The activity kinds a window records: the kernels, and the copies and sets that are GPU work too.
constexpr std::array<CUpti_ActivityKind, 3> kCapturedKinds = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET};

}  // namespace

struct LaunchCapture::State {
  // What the cubin says of one kernel: what the activity record does not say right (cupti_capture.h).
  struct ModuleKernel {
    std::string sass_hash;  // empty when unknown
    int registers_per_thread = 0;
    int stack_frame_bytes = 0;  // per thread [bytes]
  };
  // What end() needs of one CUpti_ActivityKernel10, copied out while CUPTI's buffer is still ours.
  struct KernelRecord {
    std::uint32_t correlation_id = 0;  // of the API call that launched it: increases in launch order
    std::uint64_t start = 0;           // [ns]
    std::string mangled_name;
    std::array<int, 3> grid{};
    std::array<int, 3> block{};
    int dynamic_shared_memory_bytes = 0;
    int static_shared_memory_bytes = 0;
  };
  // What end() needs of one CUpti_ActivityMemcpy6 or CUpti_ActivityMemset4.
  struct CopyRecord {
    std::uint32_t correlation_id = 0;  // of the API call that issued it, as a kernel's
    std::uint64_t start = 0;           // [ns]
    std::string kind;                  // formats::CopyOrSet::kind
    long long bytes = 0;               // [bytes]
  };

  // The activity buffer callbacks take no user data: they reach the one State through this.
  static State* self;

  bool available = false;
  std::string status;
  std::map<std::string, std::string> libraries;
  bool recording = false;    // between begin() and end()
  std::string begin_error;   // what failed in begin(), reported by end()

  // CUPTI calls back from its own threads (module loads of other threads, its buffer worker).
  std::mutex mutex;
  std::map<std::string, ModuleKernel> kernels;  // mangled name -> what its module says
  std::vector<KernelRecord> records;            // since begin(), in delivery order
  std::vector<CopyRecord> copy_records;         // since begin(), in delivery order
  std::atomic<int> refused_buffers{0};          // buffers we could not allocate: CUPTI dropped records

  static void CUPTIAPI on_callback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                   const void* data) {
    if (domain != CUPTI_CB_DOMAIN_RESOURCE || id != CUPTI_CBID_RESOURCE_MODULE_LOADED) return;
    const auto* module = static_cast<const CUpti_ModuleResourceData*>(
        static_cast<const CUpti_ResourceData*>(data)->resourceDescriptor);
    if (module == nullptr || module->pCubin == nullptr) return;
    static_cast<State*>(userdata)->add_module(std::string_view(module->pCubin, module->cubinSize));
  }

  // Reads the cubin now and keeps only its kernels' summaries: the bytes are CUPTI's, valid only during the
  // callback, and too large to copy (cuBLAS loads modules of many MiB).
  void add_module(std::string_view cubin) noexcept {
    try {
      const std::vector<CubinKernel> found = cubin_kernels(cubin);
      const std::lock_guard<std::mutex> lock(mutex);
      for (const CubinKernel& kernel : found) {
        ModuleKernel summary{kernel.sass_hash, kernel.registers_per_thread.value_or(0),
                             static_cast<int>(kernel.stack_frame_bytes.value_or(0u))};
        const auto [it, inserted] = kernels.emplace(kernel.mangled_name, summary);
        // Two modules with different code under one name: the record does not say which one a launch ran
        // (its name is all it has), so that name's code is unknown from now on.
        if (!inserted && it->second.sass_hash != summary.sass_hash) it->second = ModuleKernel{};
      }
    } catch (const std::invalid_argument&) {
      // Not a cubin this reader understands: its kernels stay out of the map, so their launches are unknown.
    } catch (...) {
      // Nothing may unwind into CUPTI, a C library (std::bad_alloc would): the module's kernels are unknown.
    }
  }

  static void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(ACTIVITY_RECORD_ALIGNMENT, kActivityBufferBytes));
    *size = *buffer != nullptr ? kActivityBufferBytes : 0;
    *max_records = 0;  // as many as fit
    if (*buffer == nullptr) ++self->refused_buffers;
  }

  static void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid_bytes) {
    self->take_records(buffer, valid_bytes);
    std::free(buffer);
  }

  void take_records(uint8_t* buffer, size_t valid_bytes) noexcept {
    try {
      std::vector<KernelRecord> found;
      std::vector<CopyRecord> copies;
      CUpti_Activity* record = nullptr;
      while (cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
        if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
          const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
          copies.push_back({copy->correlationId, copy->start, copy_kind_name(copy->copyKind),
                            static_cast<long long>(copy->bytes)});
          continue;
        }
        if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
          const auto* set = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
          copies.push_back({set->correlationId, set->start, "memset", static_cast<long long>(set->bytes)});
          continue;
        }
        if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
        const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        // kernel->name points into CUPTI's memory, valid only during this callback: copied.
        found.push_back({kernel->correlationId, kernel->start, kernel->name != nullptr ? kernel->name : "?",
                         {kernel->gridX, kernel->gridY, kernel->gridZ},
                         {kernel->blockX, kernel->blockY, kernel->blockZ},
                         kernel->dynamicSharedMemory, kernel->staticSharedMemory});
      }
      const std::lock_guard<std::mutex> lock(mutex);
      records.insert(records.end(), found.begin(), found.end());
      copy_records.insert(copy_records.end(), copies.begin(), copies.end());
    } catch (...) {
      ++refused_buffers;  // lost, like a buffer CUPTI could not have: end() says so
    }
  }

  formats::KernelLaunch launch_of(const KernelRecord& record) const {
    formats::KernelLaunch launch;
    launch.name = demangle(record.mangled_name);
    launch.mangled_name = record.mangled_name;
    launch.grid = record.grid;
    launch.block = record.block;
    launch.dynamic_shared_memory_bytes = record.dynamic_shared_memory_bytes;
    launch.static_shared_memory_bytes = record.static_shared_memory_bytes;
    if (const auto known = kernels.find(record.mangled_name); known != kernels.end()) {
      launch.registers_per_thread = known->second.registers_per_thread;
      launch.local_memory_per_thread_bytes = known->second.stack_frame_bytes;
      launch.sass_hash = known->second.sass_hash;
    }
    return launch;
  }
};

LaunchCapture::State* LaunchCapture::State::self = nullptr;

LaunchCapture& LaunchCapture::instance() {
  // Never destroyed: CUPTI's worker thread may deliver a buffer after static destructors have run.
  static LaunchCapture* const capture = new LaunchCapture();
  return *capture;
}

LaunchCapture::LaunchCapture() : state_(new State) {
  State::self = state_;
  CUpti_SubscriberHandle subscriber = nullptr;
  const CUptiResult subscribed = cuptiSubscribe(&subscriber, State::on_callback, state_);
  if (subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    state_->status = "another profiler holds CUPTI: " + result_string(subscribed) +
                     " (Nsight Systems, Nsight Compute or cuda-gdb attached, or another subscriber in this process)";
    return;
  }
  if (subscribed != CUPTI_SUCCESS) {
    state_->status = cupti_error("cuptiSubscribe", subscribed);
    return;
  }
  const CUptiResult enabled =
      cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
  if (enabled != CUPTI_SUCCESS) {
    state_->status = cupti_error("cuptiEnableCallback", enabled);
    cuptiUnsubscribe(subscriber);  // leave CUPTI to whoever else may want it
    return;
  }
  const CUptiResult registered = cuptiActivityRegisterCallbacks(State::buffer_requested, State::buffer_completed);
  if (registered != CUPTI_SUCCESS) {
    state_->status = cupti_error("cuptiActivityRegisterCallbacks", registered);
    cuptiUnsubscribe(subscriber);
    return;
  }
  state_->available = true;
  state_->status = formats::kCapturedByCupti;
}

bool LaunchCapture::available() const { return state_->available; }

const std::string& LaunchCapture::status() const { return state_->status; }

void LaunchCapture::set_libraries(std::map<std::string, std::string> libraries) {
  state_->libraries = std::move(libraries);
}

void LaunchCapture::begin() {
  State& state = *state_;
  if (!state.available) return;
  {
    const std::lock_guard<std::mutex> lock(state.mutex);
    state.records.clear();
    state.copy_records.clear();
  }
  state.refused_buffers = 0;
  // Enabled only for the window, so that only its launches, copies and sets are recorded (CONCURRENT_KERNEL,
  // unlike KERNEL, does not serialize the kernels).
  state.begin_error.clear();
  for (const CUpti_ActivityKind kind : kCapturedKinds) {
    const CUptiResult enabled = cuptiActivityEnable(kind);
    if (enabled != CUPTI_SUCCESS && state.begin_error.empty()) {
      state.begin_error = cupti_error("cuptiActivityEnable", enabled);
    }
  }
  state.recording = true;
}

formats::Fingerprint LaunchCapture::end() {
  State& state = *state_;
  formats::Fingerprint fingerprint;
  fingerprint.libraries = state.libraries;
  if (!state.available) {
    fingerprint.capture_status = state.status;
    return fingerprint;
  }
  if (!state.recording) {
    fingerprint.capture_status = "LaunchCapture::end() without begin()";
    return fingerprint;
  }
  state.recording = false;
  if (!state.begin_error.empty()) {
    for (const CUpti_ActivityKind kind : kCapturedKinds) cuptiActivityDisable(kind);  // those that were enabled
    fingerprint.capture_status = state.begin_error;
    return fingerprint;
  }

  // CUPTI delivers records asynchronously, and a record is complete only once its kernel has ended: after
  // the synchronization, a forced flush (1) hands over every record of the window. Each step runs even
  // when one before it failed, so that the kind ends up disabled; the first failure is reported.
  const std::string wait_error = wait_for_current_device();
  const CUptiResult flushed = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  CUptiResult disabled = CUPTI_SUCCESS;
  for (const CUpti_ActivityKind kind : kCapturedKinds) {
    const CUptiResult result = cuptiActivityDisable(kind);
    if (disabled == CUPTI_SUCCESS) disabled = result;
  }
  std::vector<State::KernelRecord> records;
  std::vector<State::CopyRecord> copy_records;
  {
    const std::lock_guard<std::mutex> lock(state.mutex);
    records.swap(state.records);
    copy_records.swap(state.copy_records);
  }
  if (!wait_error.empty()) {
    fingerprint.capture_status = wait_error;
  } else if (flushed != CUPTI_SUCCESS) {
    fingerprint.capture_status = cupti_error("cuptiActivityFlushAll", flushed);
  } else if (disabled != CUPTI_SUCCESS) {
    fingerprint.capture_status = cupti_error("cuptiActivityDisable", disabled);
  } else if (state.refused_buffers > 0) {
    fingerprint.capture_status = "CUPTI dropped kernel records: " + std::to_string(state.refused_buffers.load()) +
                                 " activity buffers could not be allocated or read";
  }
  if (!fingerprint.capture_status.empty()) return fingerprint;

  // Buffers arrive in no particular order, and the kernels of one buffer in the order they ended. The
  // correlation ID is the launching call's, so it orders launches; the start time orders the kernels of
  // one call (a graph launch).
  std::sort(records.begin(), records.end(), [](const State::KernelRecord& a, const State::KernelRecord& b) {
    return std::tie(a.correlation_id, a.start) < std::tie(b.correlation_id, b.start);
  });
  std::vector<formats::KernelLaunch> launches;
  launches.reserve(records.size());
  {
    const std::lock_guard<std::mutex> lock(state.mutex);
    for (const State::KernelRecord& record : records) launches.push_back(state.launch_of(record));
  }
  fingerprint.kernels = formats::merge_consecutive(launches);

  // Each copy's place among the kernels: the launches whose call came before its own (the same order).
  std::sort(copy_records.begin(), copy_records.end(), [](const State::CopyRecord& a, const State::CopyRecord& b) {
    return std::tie(a.correlation_id, a.start) < std::tie(b.correlation_id, b.start);
  });
  std::vector<formats::CopyOrSet> copies;
  copies.reserve(copy_records.size());
  for (const State::CopyRecord& copy : copy_records) {
    const auto before = std::lower_bound(
        records.begin(), records.end(), copy, [](const State::KernelRecord& k, const State::CopyRecord& c) {
          return std::tie(k.correlation_id, k.start) < std::tie(c.correlation_id, c.start);
        });
    copies.push_back({copy.kind, copy.bytes, static_cast<int>(before - records.begin()), 1});
  }
  fingerprint.copies = formats::merge_consecutive(copies);
  fingerprint.covers_copies = true;
  fingerprint.capture_status = formats::kCapturedByCupti;
  return fingerprint;
}

}  // namespace gpuperf::fingerprint
