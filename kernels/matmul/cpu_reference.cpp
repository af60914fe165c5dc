// The CPU reference: C = A * B accumulated in double precision, rows split over std::thread workers
// (1000 x 1001 x 999 is 1e9 multiply-adds: well under a second on a 16-core GPU host).
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

#include "matmul/matmul.cuh"

namespace gpuperf::matmul {

void cpu_reference(const float* a, const float* b, double* c, int m, int n, int k) {
  const auto rows = [=](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      double* c_row = c + static_cast<std::size_t>(i) * n;
      std::fill(c_row, c_row + n, 0.0);
      for (int p = 0; p < k; ++p) {  // i-p-j order: the inner loop streams rows of B and C
        const double a_ip = a[static_cast<std::size_t>(i) * k + p];
        const float* b_row = b + static_cast<std::size_t>(p) * n;
        for (int j = 0; j < n; ++j) c_row[j] += a_ip * static_cast<double>(b_row[j]);
      }
    }
  };
  const int workers = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, m);
  const int per_worker = (m + workers - 1) / workers;
  std::vector<std::thread> threads;
  for (int begin = per_worker; begin < m; begin += per_worker) {
    threads.emplace_back(rows, begin, std::min(begin + per_worker, m));
  }
  rows(0, std::min(per_worker, m));  // the first share on this thread
  for (std::thread& thread : threads) thread.join();
}

}  // namespace gpuperf::matmul
