#pragma once
// The version of how the perf binary measures a benchmark: the sampler (CUDA events around the timed
// region), the L2 flush before each sample, where the cases' memory lives, the warm-up, the clocks
// policy. A results file and a baseline carry it, so that the gate can tell a change of its own method
// from a change of the code: the memory pool (b946049) moved stride-100 reads by 12.7% and 40 us kernels
// by 3-4.6% on every H200, with the code unchanged (docs/results.md).
//
// Change the method, bump the version: unit.formats' MeasuringMethod test holds a hash of the method's
// sources and fails until both are updated together.

namespace gpuperf::formats {

// 1: before the version was recorded (every file without the field), up to the memory pool.
// 2: the cases' memory from the stream-ordered pool (b946049), L2 flushed before each sample.
inline constexpr int kMeasuringMethodVersion = 2;
// What a baseline or results file of our perf binary that names no version was measured with.
inline constexpr int kMeasuringMethodUnrecorded = 1;

}  // namespace gpuperf::formats
