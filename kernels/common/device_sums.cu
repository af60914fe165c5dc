#include "common/device_sums.cuh"

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

namespace gpuperf {
namespace {

struct Widened {
  const int* values;
  __device__ std::int64_t operator()(std::int64_t i) const { return values[i]; }
};

struct Equal {
  const int* a;
  const int* b;
  __device__ std::int64_t operator()(std::int64_t i) const { return a[i] == b[i] ? 1 : 0; }
};

template <typename Term>
std::int64_t sum_of(Term term, std::int64_t n) {
  const thrust::counting_iterator<std::int64_t> first(0);
  return thrust::transform_reduce(thrust::device, first, first + n, term, std::int64_t{0},
                                  thrust::plus<std::int64_t>());
}

}  // namespace

std::int64_t sum_on_device(const int* values, std::int64_t n) { return sum_of(Widened{values}, n); }

std::int64_t count_equal_on_device(const int* a, const int* b, std::int64_t n) { return sum_of(Equal{a, b}, n); }

}  // namespace gpuperf
