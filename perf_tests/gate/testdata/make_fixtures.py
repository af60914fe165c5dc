#!/usr/bin/env python3
# Regenerates the fixtures of this folder (deterministic: fixed seed). The numbers are SYNTHETIC, shaped like
# what the perf binary writes on an H200; they are test inputs, not measurements.
import json, random, os
out = os.path.dirname(os.path.abspath(__file__))
random.seed(7)
# What the harness registers (UseManualTime()->Iterations(1)) makes Google Benchmark append to run_name.
SUFFIX = "/iterations:1/manual_time"
CTX = {
  "date": "2026-11-22T03:00:00+00:00", "host_name": "gpu-runner-3", "executable": "./perf_reduction",
  "num_cpus": 16, "mhz_per_cpu": 2000, "cpu_scaling_enabled": False,
  "caches": [], "load_avg": [0.1, 0.2, 0.3], "library_build_type": "release",
  "gpu_name": "NVIDIA H200", "gpu_slug": "nvidia-h200", "gpu_uuid": "GPU-1234",
  "gpu_compute_capability": "9.0", "gpu_sm_count": "132", "gpu_memory_mib": "143771",
  "driver_version": "580.159.04", "cuda_runtime": "13.0", "git_commit": "abc123"}

BENCH = [
  # run_name, unit of real_time, median [that unit], noise fraction, extra counters, cycles?
  ("reduction/reduce9_shfl_down_last_warp/n:33554432", "us", 42.1, 0.004, {"bytes": 134217728, "flops": 0}, None),
  ("reduction/reduce1_interleaved_divergent/n:1048576", "ns", 9100.0, 0.004, {"bytes": 4194304, "flops": 0}, None),
  ("smem_latency/pointer_chase/stride:1", "ns", 1500.0, 0.002, {"bytes": 0, "flops": 0}, 31.0),
]

# Clocks NVML reads at every sample [MHz]: the older fixtures carry the SM clock only.
SM_CLOCK_MHZ = 1980
MEM_CLOCK_MHZ = 3201

def entries(reps, scale=1.0, throttled=0, error=None, gpu_factor=None, family_index=0,
            sm_clock=SM_CLOCK_MHZ, mem_clock=None, bench=BENCH):
  rows = []
  for fi, (name, unit, med, noise, counters, cycles) in enumerate(bench):
    s = scale.get(name, 1.0) if isinstance(scale, dict) else scale
    if error and name == error[0]:
      rows.append({"name": name + SUFFIX, "family_index": fi,
                   "per_family_instance_index": 0, "run_name": name + SUFFIX, "run_type": "iteration",
                   "repetitions": reps, "repetition_index": 0, "threads": 1,
                   "error_occurred": True, "error_message": error[1],
                   "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": unit})
      continue
    for r in range(reps):
      v = med * s * (1 + random.gauss(0, noise))
      row = {"name": name + SUFFIX, "family_index": fi,
             "per_family_instance_index": 0, "run_name": name + SUFFIX, "run_type": "iteration",
             "repetitions": reps, "repetition_index": r, "threads": 1, "iterations": 1,
             "real_time": round(v, 4), "cpu_time": round(v * 1.3, 4), "time_unit": unit}
      row.update(counters)
      if cycles is not None:
        row["cycles"] = round(cycles * s * (1 + random.gauss(0, noise)), 2)
      row["sm_clock_mhz"] = sm_clock
      if mem_clock is not None:
        row["mem_clock_mhz"] = mem_clock
      row["throttle_reasons"] = 4 if r < throttled else 0
      row["power_capped"] = 1 if r < throttled - 2 else 0
      row["other_processes"] = 1 if throttled - 2 <= r < throttled else 0
      row["throttled"] = 1 if r < throttled else 0
      row["injected_slowdown_pct"] = 0
      rows.append(row)
    for agg in ("mean", "median", "stddev"):
      rows.append({"name": name + SUFFIX + "_" + agg, "family_index": fi,
                   "per_family_instance_index": 0, "run_name": name + SUFFIX, "run_type": "aggregate",
                   "repetitions": reps, "threads": 1, "aggregate_name": agg, "aggregate_unit": "time",
                   "iterations": reps, "real_time": med, "cpu_time": med, "time_unit": unit})
  return rows

def write(fname, doc, raw=None):
  with open(os.path.join(out, fname), "w") as f:
    f.write(raw if raw is not None else json.dumps(doc, indent=2) + "\n")

def doc(rows, ctx=CTX):
  return {"context": ctx, "benchmarks": rows}

# Each file is one process. A process lands at its own offset (sd PROCESS_SD of its time),
# which its own samples cannot show: that is what the gate's per-process inference is about.
PROCESS_SD = 0.003
def process(fname, reps=30, scale=1.0, ctx=None, bench=BENCH, **kw):
  offsets = {b[0]: 1 + random.gauss(0, PROCESS_SD) for b in bench}
  if isinstance(scale, dict):
    s = {name: offsets[name] * scale.get(name, 1.0) for name in offsets}
  else:
    s = {name: offsets[name] * scale for name in offsets}
  write(fname, doc(entries(reps, scale=s, bench=bench, **kw), ctx or CTX))

for i in (1, 2, 3):
  process("results_run%d.json" % i)
for i in (1, 2, 3):
  process("results_slow_%d.json" % i, scale={BENCH[0][0]: 1.10})
for i in (1, 2, 3):
  process("results_fast_%d.json" % i, scale={BENCH[0][0]: 0.90})
process("results_throttled.json", throttled=27)
process("results_error.json", error=(BENCH[0][0], "mismatch at index 17: expected 3.5, got 0"))
ctx_h100 = dict(CTX, gpu_name="NVIDIA H100 80GB HBM3", gpu_slug="nvidia-h100-80gb-hbm3")
process("results_other_gpu.json", ctx=ctx_h100)
ctx_noslug = {k: v for k, v in CTX.items() if k != "gpu_slug"}
process("results_no_gpu_slug.json", reps=10, ctx=ctx_noslug)

# Baselines of the same GPU. Schema 2 keeps one median per recording process (10 of them); schema 1
# (still read) pooled the samples of its processes in recording order.
BASELINE_PROCESSES = 10
def center(unit, med, cycles):
  return (cycles, "cycles") if cycles is not None else (med * {"ns": 1e-3, "us": 1.0}[unit], "us")

def median_of(values):
  s = sorted(values)
  n = len(s)
  return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2

def base_entry_v2(name, unit, med, noise, counters, cycles, tol=None):
  c, u = center(unit, med, cycles)
  medians = []
  for _ in range(BASELINE_PROCESSES):
    offset = 1 + random.gauss(0, PROCESS_SD)
    medians.append(round(median_of([c * offset * (1 + random.gauss(0, noise)) for _ in range(30)]), 5))
  geo = 1.0
  for m in medians: geo *= m
  e = {"unit": u, "median": round(geo ** (1.0 / len(medians)), 5), "process_medians": medians,
       "bytes": counters["bytes"], "flops": counters["flops"]}
  if tol is not None: e["tolerance_pct"] = tol
  return e

def base_entry_v1(name, unit, med, noise, counters, cycles, tol=None):
  c, u = center(unit, med, cycles)
  samples = []
  for _ in range(2):  # two processes of 30 samples, pooled in order
    offset = 1 + random.gauss(0, PROCESS_SD)
    samples += [round(c * offset * (1 + random.gauss(0, noise)), 5) for _ in range(30)]
  e = {"unit": u, "median": median_of(samples), "samples": samples, "spread_pct": 0.3,
       "bytes": counters["bytes"], "flops": counters["flops"]}
  if tol is not None: e["tolerance_pct"] = tol
  return e

def baseline(schema, runs, entry, bench=BENCH):
  bl = {"schema_version": schema,
        "gpu": {"name": "NVIDIA H200", "slug": "nvidia-h200", "compute_capability": "9.0", "sm_count": 132,
                "memory_mib": 143771, "driver": "580.159.04", "cuda_runtime": "13.0"},
        "recorded": {"date": "2026-11-22T03:00:00Z", "commit": "abc123", "runs": runs, "samples_per_run": 30},
        "defaults": {"tolerance_pct": 3.0},
        "families": {"smem_latency": {"tolerance_pct": 1.0}},
        "benchmarks": {}}
  for i, b in enumerate(bench):
    bl["benchmarks"][b[0]] = entry(*b, tol=2.0 if i == 0 and bench is BENCH else None)
  return bl

bl = baseline(2, BASELINE_PROCESSES, base_entry_v2)
removed = [4.99, 5.0, 5.01, 5.0, 5.02, 5.0, 4.98, 5.01, 5.0, 5.0]
bl["benchmarks"]["reduction/reduce0_removed_variant/n:1024"] = {
  "unit": "us", "median": 5.0, "process_medians": removed, "bytes": 4096, "flops": 0}
write("baseline_h200.json", bl)

bl1 = baseline(1, 2, base_entry_v1)
bl1["benchmarks"]["reduction/reduce0_removed_variant/n:1024"] = {
  "unit": "us", "median": 5.0, "samples": [4.99, 5.0, 5.01, 5.0, 5.02], "spread_pct": 0.0, "bytes": 4096, "flops": 0}
write("baseline_h200_schema1.json", bl1)

# Bad inputs.
good = open(os.path.join(out, "results_run1.json")).read()
write("bad_truncated.json", None, good[: len(good) // 2])
write("bad_not_json.json", None, "GPU perf results\nreduce9 42.1 us\n")
write("bad_empty_file.json", None, "")
write("bad_empty_benchmarks.json", {"context": CTX, "benchmarks": []})
write("bad_only_aggregates.json", doc([r for r in entries(5) if r["run_type"] == "aggregate"]))
def one_sample(real_time_token):
  r = entries(5)
  text = json.dumps(doc(r[:1]), indent=2)
  return text.replace('"real_time": %s' % json.dumps(r[0]["real_time"]), '"real_time": ' + real_time_token)
write("bad_nan_time.json", None, one_sample("NaN"))
write("bad_zero_time.json", None, one_sample("0"))
write("bad_negative_time.json", None, one_sample("-3.5"))
write("bad_time_string.json", None, one_sample('"fast"'))
r = entries(5)[:1]; del r[0]["run_name"]
write("bad_missing_run_name.json", doc(r))
r = entries(5)[:1]; r[0]["time_unit"] = "fortnights"
write("bad_time_unit.json", doc(r))

def bad_baseline(fname, mutate):
  b = json.loads(json.dumps(bl)); mutate(b); write(fname, b)
bad_baseline("bad_baseline_schema3.json", lambda b: b.update(schema_version=3))
bad_baseline("bad_baseline_no_schema.json", lambda b: b.pop("schema_version"))
bad_baseline("bad_baseline_zero_median.json", lambda b: b["benchmarks"][BENCH[0][0]].update(median=0))
bad_baseline("bad_baseline_empty_process_medians.json",
             lambda b: b["benchmarks"][BENCH[0][0]].update(process_medians=[]))
bad_baseline("bad_baseline_no_defaults.json", lambda b: b.pop("defaults"))
bad_baseline("bad_baseline_median_string.json", lambda b: b["benchmarks"][BENCH[1][0]].update(median="42"))
bad_baseline("bad_baseline_no_slug.json", lambda b: b["gpu"].pop("slug"))
bad_baseline("bad_baseline_misspelt_key.json", lambda b: b["defaults"].update(same_gpu_tolerence_pct=2.0))
bad_baseline("bad_baseline_tiny_median.json", lambda b: b["benchmarks"][BENCH[0][0]].update(
  median=5e-324, process_medians=[5e-324] * BASELINE_PROCESSES))
# Times that overflow and underflow once in microseconds, from a file written above (no random numbers).
zero_time = open(os.path.join(out, "bad_zero_time.json")).read()
assert zero_time.count('"real_time": 0,') == 1 and zero_time.count('"time_unit": "us"') == 1
write("bad_time_overflow.json", None,
      zero_time.replace('"real_time": 0,', '"real_time": 1e303,').replace('"time_unit": "us"', '"time_unit": "s"'))
write("bad_time_underflow.json", None,
      zero_time.replace('"real_time": 0,', '"real_time": 5e-324,').replace('"time_unit": "us"', '"time_unit": "ns"'))

# Platform changes (appended last, with a seed of their own, so that the files above stay as they are).
# 10 repetitions per process keep them small. Their verdicts and reports are asserted in
# tests/test_platform.cpp and, as golden files, in expected/.
random.seed(11)
ctx_590 = dict(CTX, driver_version="590.44.01")
for i in (1, 2, 3):
  process("results_driver_590_%d.json" % i, reps=10, ctx=ctx_590, mem_clock=MEM_CLOCK_MHZ)
# SM and memory clocks 10% lower, and the two time benchmarks 10% slower with them (the cycle count
# of the pointer chase does not change with the clock).
slower = {BENCH[0][0]: 1.10, BENCH[1][0]: 1.10}
for i in (1, 2, 3):
  process("results_clocks_low_%d.json" % i, reps=10, scale=slower,
          sm_clock=round(SM_CLOCK_MHZ * 0.9), mem_clock=round(MEM_CLOCK_MHZ * 0.9))
# Clocks 1% and 0.5% lower: within what boost clocks vary.
process("results_clocks_noise_1.json", reps=10, sm_clock=1960, mem_clock=3169)
process("results_clocks_noise_2.json", reps=10, sm_clock=1970, mem_clock=3185)
# The baseline above, recorded with clocks (median over its samples).
bl_clocks = json.loads(json.dumps(bl))
bl_clocks["gpu"].update(sm_clock_mhz=SM_CLOCK_MHZ, mem_clock_mhz=MEM_CLOCK_MHZ)
write("baseline_h200_clocks.json", bl_clocks)

# The memory canary (appended last, with a seed of its own, so that the files above stay as they are): the
# ceiling family beside a memory-bound reduction and a compute-bound matmul, as perf_test.sh measures a
# family's first look. Asserted in tests/test_canary.cpp and, as golden files, in expected/.
random.seed(13)
CANARY_BENCH = [
  ("ceiling/device_copy/n:268435456", "us", 505.4, 0.001, {"bytes": 2147483648, "flops": 0}, None),
  ("ceiling/memset/n:268435456", "us", 235.4, 0.001, {"bytes": 1073741824, "flops": 0}, None),
  ("ceiling/read_only_stream/n:268435456", "us", 248.5, 0.001, {"bytes": 1073741824, "flops": 0}, None),
  BENCH[0],  # reduce9: memory-bound (bytes, no flops)
  ("matmul/cublas_sgemm/m:4096,n:4096,k:4096", "us", 2685.0, 0.002,
   {"bytes": 201326592, "flops": 137438953472}, None),  # 683 flops per byte: bound by arithmetic
]
bl_canary = baseline(2, BASELINE_PROCESSES, base_entry_v2, bench=CANARY_BENCH)
write("baseline_h200_canary.json", bl_canary)
# This machine streams memory 5% slower: the ceilings and reduce9 with it; the matmul unchanged.
memory_slow = {b[0]: 1.05 for b in CANARY_BENCH[:4]}
for i in (1, 2, 3):
  process("results_memory_slow_%d.json" % i, reps=10, scale=memory_slow, bench=CANARY_BENCH)
for i in (1, 2, 3):
  process("results_canary_clean_%d.json" % i, reps=10, bench=CANARY_BENCH)

# Fingerprints (harness/fingerprint/; appended last, seed of its own): the kernels each benchmark's timed
# run launched, in the baseline and in results whose first (checking) process captured them. Asserted in
# tests/test_code_check.cpp and, as golden files, in expected/.
random.seed(17)
LIBRARIES = {"cublas": "13.0.2", "cuda_runtime": "13.0"}
def kernel(name, mangled, grid, block, regs, sass, smem=0, dyn=0, lmem=0, launches=1):
  return {"name": name, "mangled_name": mangled, "grid": grid, "block": block,
          "dynamic_shared_memory_bytes": dyn, "registers_per_thread": regs, "static_shared_memory_bytes": smem,
          "local_memory_per_thread_bytes": lmem, "sass_hash": sass, "launches": launches}
def fingerprint(*kernels):
  return {"schema": 1, "capture_status": "cupti", "libraries": LIBRARIES, "kernels": list(kernels)}
REDUCE9 = "void gpuperf::reduction::reduce9_shfl_down_last_warp<256>(const int*, long, int*)"
REDUCE9_MANGLED = "_ZN7gpuperf9reduction27reduce9_shfl_down_last_warpILi256EEEvPKilPi"
FP_BASE = {
  BENCH[0][0]: fingerprint(kernel(REDUCE9, REDUCE9_MANGLED, [528, 1, 1], [256, 1, 1], 32, "3f9a0c2d5e7b1a48", smem=32),
                           kernel(REDUCE9, REDUCE9_MANGLED, [1, 1, 1], [256, 1, 1], 32, "3f9a0c2d5e7b1a48", smem=32)),
  BENCH[1][0]: fingerprint(kernel("void gpuperf::reduction::reduce1_interleaved_divergent(const int*, long, int*)",
                                  "_ZN7gpuperf9reduction29reduce1_interleaved_divergentEPKilPi",
                                  [4096, 1, 1], [256, 1, 1], 16, "a1b2c3d4e5f60718", smem=1024, launches=2)),
  BENCH[2][0]: fingerprint(kernel("void gpuperf::smem_latency::pointer_chase(unsigned int*, int, long long*)",
                                  "_ZN7gpuperf12smem_latency13pointer_chaseEPjiPx", [1, 1, 1], [32, 1, 1], 24,
                                  "0badc0ffee123456", smem=4096)),
}
bl_fp = json.loads(json.dumps(bl))
for name, fp in FP_BASE.items():
  bl_fp["benchmarks"][name]["fingerprint"] = fp
write("baseline_h200_fingerprints.json", bl_fp)

def with_fingerprints(fname, fingerprints):
  with open(os.path.join(out, fname)) as f:
    d = json.load(f)
  d["fingerprints"] = fingerprints
  write(fname, d)

# A code change: reduce9 launched with 128 blocks (the grid no longer fills the GPU) and 10% slower;
# reduce1 recompiled with spills, its time unchanged; pointer_chase the same code.
FP_CHANGED = json.loads(json.dumps(FP_BASE))
for k in FP_CHANGED[BENCH[0][0]]["kernels"][:1]:
  k["grid"] = [128, 1, 1]
FP_CHANGED[BENCH[1][0]]["kernels"][0].update(sass_hash="a1b2c3d4e5f60799", registers_per_thread=255,
                                             local_memory_per_thread_bytes=48)
for i in (1, 2, 3):
  process("results_code_change_%d.json" % i, scale={BENCH[0][0]: 1.10})
with_fingerprints("results_code_change_1.json", FP_CHANGED)
# The same code 10% slower: the cause is not in the code.
for i in (1, 2, 3):
  process("results_same_code_slow_%d.json" % i, scale={BENCH[0][0]: 1.10})
with_fingerprints("results_same_code_slow_1.json", FP_BASE)
# gpuperf_bench --fingerprint-only: checked and captured, nothing timed; then the changed ones (reduce9,
# reduce1) timed, pointer_chase left out.
write("results_fingerprint_only.json", {"context": CTX, "benchmarks": [], "fingerprints": FP_CHANGED})
for i in (1, 2, 3):
  process("results_changed_only_%d.json" % i, scale={BENCH[0][0]: 1.10}, bench=BENCH[:2])
# The same, on another driver: nothing may be skipped.
write("results_fingerprint_only_driver_590.json",
      {"context": dict(CTX, driver_version="590.44.01"), "benchmarks": [], "fingerprints": FP_CHANGED})
