#pragma once
// Case::bytes said as what one run() moves, after nvbench's state.add_global_memory_reads<T>(count) and
// add_global_memory_writes<T>(count):
//   c.bytes = GlobalMemoryBytes().reads<float>(n).writes<float>(n);  // x read once, y written once: 8n
// Counts are elements of T; the total is in bytes. A count is the fewest the work needs, not what a
// variant happens to move (a variant that moves more shows a lower effective GB/s).

namespace gpuperf {

class GlobalMemoryBytes {
 public:
  constexpr GlobalMemoryBytes() = default;

  // `count` elements of T read from device memory.
  template <typename T>
  constexpr GlobalMemoryBytes reads(double count) const {
    return GlobalMemoryBytes(bytes_ + static_cast<double>(sizeof(T)) * count);
  }
  // `count` elements of T written to device memory.
  template <typename T>
  constexpr GlobalMemoryBytes writes(double count) const {
    return GlobalMemoryBytes(bytes_ + static_cast<double>(sizeof(T)) * count);
  }
  // The reads and writes so far [bytes].
  constexpr operator double() const { return bytes_; }

 private:
  explicit constexpr GlobalMemoryBytes(double bytes) : bytes_(bytes) {}

  double bytes_ = 0.0;  // [bytes]
};

}  // namespace gpuperf
