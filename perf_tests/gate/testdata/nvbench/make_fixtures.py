#!/usr/bin/env python3
"""Writes this folder's nvbench fixtures: suite.json and its sample times, suite.json-bin/0.bin.

They were WRITTEN FROM NVBENCH'S SOURCES, NOT PRODUCED BY A RUN (nvbench is not packaged where the
harness is built): the layout is that of nvbench/json_printer.cu (JSON file version 1.0.0, nvbench 0.1.0)
at NVIDIA/nvbench commit 66212f1da71cc9afb2894a46fa8f234cbdd6c0d8, the summaries those of
nvbench/detail/measure_cold.cu, the state names those of nvbench/state.cxx
(get_axis_values_as_string), checked against the real output nvbench keeps in
python/scripts/test_ref.json. The times are chosen, not measured.

The suite, as `./team_bench --jsonbin suite.json` on one H100 would write it:
  copy_sweep  axes T (type: I32, F64), BlockSize (int64, pow2: 2^6, 2^8), Elements (int64, pow2: 2^20);
              type axes come first in a state, as nvbench's state_generator orders them.
                T=I32 BlockSize=2^6   12 sample times in suite.json-bin/0.bin (median 10.025 us)
                T=I32 BlockSize=2^8   its sample-times file could not be written (no filename, as
                                      json_printer.cu writes a failed write): the mean, 8.5 us
                T=F64 BlockSize=2^6   the mean, 19.5 us
                T=F64 BlockSize=2^8   skipped (skip_time)
  reduce      axes Algorithm (string: "warp", "block tile"), Ratio (float64: 0.5): means 4.25 and 5.5 us
  simple      no axes (axes and axis_values null): the mean, 1.0 us

Regenerate with `python3 make_fixtures.py` (run unit_gate after: tests/inputs/test_nvbench_results.cpp
asserts these numbers).
"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
JSON_NAME = "suite.json"

DEVICE = {
    "id": 0, "name": "NVIDIA H100 80GB HBM3", "sm_version": 900, "ptx_version": 900,
    "sm_default_clock_rate": 1980000000, "number_of_sms": 132, "max_blocks_per_sm": 32,
    "max_threads_per_sm": 2048, "max_threads_per_block": 1024, "registers_per_sm": 65536,
    "registers_per_block": 65536, "global_memory_size": 85520809984,
    "global_memory_bus_peak_clock_rate": 2619000000, "global_memory_bus_width": 5120,
    "global_memory_bus_bandwidth": 3352320000000, "l2_cache_size": 52428800,
    "shared_memory_per_sm": 233472, "shared_memory_per_block": 49152, "ecc_state": True,
}

SAMPLE_TIMES_US = [10.0, 10.1, 9.9, 10.2, 10.05, 9.95, 10.0, 10.3, 9.8, 10.1, 10.0, 10.15]


def value(kind, v):
    """A data entry as write_named_values writes it: int64 and float64 as text."""
    return {"name": "value", "type": kind, "value": v if kind == "string" else fmt(v)}


def fmt(v):
    """fmt::to_string of an int64 or a double: the shortest text that reads back the same ("1", not "1.0")."""
    if isinstance(v, int):
        return str(v)
    v = float(v)
    return str(int(v)) if v.is_integer() and abs(v) < 1e16 else repr(v)


def summary(tag, name, hint, description, data, hide=None):
    s = {"tag": tag, "name": name, "description": description, "hint": hint}
    if hide:
        s["hide"] = hide
    if data:
        s["data"] = data
    return s


def cold_summaries(mean_s, noise, samples, elements, bytes_moved, clock_hz):
    out = [
        summary("nv/cold/sample_size", "Samples", "sample_size", "Number of isolated kernel executions",
                [value("int64", samples)]),
        summary("nv/cold/walltime", "Walltime", "duration", "Walltime used for isolated measurements",
                [value("float64", 0.5 + samples * mean_s)], "Hidden by default."),
        summary("nv/cold/time/cpu/mean", "CPU Time", "duration",
                "Mean isolated kernel execution time (measured on host CPU)", [value("float64", mean_s * 1.2)]),
        summary("nv/cold/time/cpu/stdev/relative", "Noise", "percentage",
                "Relative standard deviation of isolated CPU times", [value("float64", noise * 1.5)]),
        summary("nv/cold/time/gpu/min", "Min GPU Time", "duration",
                "Fastest isolated kernel execution time (measured with CUDA events)",
                [value("float64", mean_s * 0.97)], "Hidden by default."),
        summary("nv/cold/time/gpu/max", "Max GPU Time", "duration",
                "Slowest isolated kernel execution time (measured with CUDA events)",
                [value("float64", mean_s * 1.03)], "Hidden by default."),
        summary("nv/cold/time/gpu/mean", "GPU Time", "duration",
                "Mean isolated kernel execution time (measured with CUDA events)", [value("float64", mean_s)]),
        summary("nv/cold/time/gpu/stdev/absolute", "Noise", "duration",
                "Standard deviation of isolated kernel execution GPU times", [value("float64", mean_s * noise)],
                "Hidden by default."),
        summary("nv/cold/time/gpu/stdev/relative", "Noise", "percentage",
                "Relative standard deviation of isolated kernel execution GPU times", [value("float64", noise)]),
        summary("nv/cold/time/gpu/median", "Median GPU Time", "duration",
                "Median of isolated kernel execution GPU times", [value("float64", mean_s)], "Hidden by default."),
    ]
    if elements:
        out.append(summary("nv/cold/bw/item_rate", "Elem/s", "item_rate",
                           "Number of input elements processed per second", [value("float64", elements / mean_s)]))
    if bytes_moved:
        out.append(summary("nv/cold/bw/global/bytes_per_second", "GlobalMem BW", "byte_rate",
                           "Number of bytes read/written per second to the CUDA device's global memory",
                           [value("float64", bytes_moved / mean_s)]))
        out.append(summary("nv/cold/bw/global/utilization", "BWUtil", "percentage",
                           "Global device memory utilization as a percentage of the device's peak bandwidth",
                           [value("float64", bytes_moved / mean_s / DEVICE["global_memory_bus_bandwidth"])]))
    out.append(summary("nv/cold/sm_clock_rate/mean", "Clock Rate", "frequency", "Mean SM clock rate",
                       [value("float64", clock_hz)], "Hidden by default."))
    return out


def sample_times_summary(file_index, count, written=True):
    """json_printer.cu's write_jsonbin_sidecar: a filename and size only where the write succeeded."""
    data = []
    if written:
        data = [{"name": "filename", "type": "string", "value": f"{JSON_NAME}-bin/{file_index}.bin"},
                {"name": "size", "type": "int64", "value": str(count)}]
    s = {"tag": "nv/json/bin:nv/cold/sample_times", "name": "Sample Times File",
         "description": "Binary file containing sample times as little-endian float32.",
         "hint": "file/sample_times", "hide": "Not needed in table."}
    if data:
        s["data"] = data
    return s


def state(name, type_config_index, axis_values, summaries, skip_reason=None):
    s = {"name": name, "min_samples": 10, "cold_warmup_runs": 1, "cold_max_warmup_walltime": -1.0,
         "batch_target_time": 0.5, "skip_time": 5e-06 if skip_reason else -1.0, "timeout": 15.0,
         "device": 0, "type_config_index": type_config_index, "axis_values": axis_values,
         "summaries": summaries, "is_skipped": skip_reason is not None}
    if skip_reason:
        s["skip_reason"] = skip_reason
    return s


def axis_value(name, kind, v):
    return {"name": name, "type": kind, "value": v if kind == "string" else fmt(v)}


def int_axis(name, exponents, pow2=True):
    return {"name": name, "type": "int64", "flags": "pow2" if pow2 else "",
            "values": [{"input_string": str(e), "description": f"2^{e} = {2 ** e}", "value": 2 ** e}
                       for e in exponents]}


def benchmark(index, name, axes, states):
    return {"name": name, "index": index, "min_samples": 10, "cold_warmup_runs": 1,
            "cold_max_warmup_walltime": -1.0, "batch_target_time": 0.5, "skip_time": -1.0, "timeout": 15.0,
            "devices": [0], "axes": axes, "states": states}


def copy_sweep():
    axes = [
        {"name": "T", "type": "type", "flags": "",
         "values": [{"input_string": "I32", "description": "int32_t", "is_active": True},
                    {"input_string": "F64", "description": "double", "is_active": True}]},
        int_axis("BlockSize", [6, 8]),
        int_axis("Elements", [20]),
    ]
    elements = 2 ** 20
    states = []
    # (type index, type, block exponent, mean [s], noise, sample file index or None, file written)
    plan = [(0, "I32", 6, sum(SAMPLE_TIMES_US) / len(SAMPLE_TIMES_US) * 1e-6, 0.0137, 0, True),
            (0, "I32", 8, 8.5e-06, 0.004, 1, False),
            (1, "F64", 6, 1.95e-05, 0.0021, None, False)]
    for type_index, type_name, block, mean_s, noise, file_index, written in plan:
        size = 4 if type_name == "I32" else 8
        summaries = cold_summaries(mean_s, noise, len(SAMPLE_TIMES_US) if file_index == 0 else 1500, elements,
                                   2 * elements * size, 1755000000.0)
        if file_index is not None:
            summaries.append(sample_times_summary(file_index, len(SAMPLE_TIMES_US), written))
        states.append(state(f"Device=0 T={type_name} BlockSize=2^{block} Elements=2^20", type_index,
                            [axis_value("T", "string", type_name), axis_value("BlockSize", "int64", 2 ** block),
                             axis_value("Elements", "int64", elements)], summaries))
    states.append(state("Device=0 T=F64 BlockSize=2^8 Elements=2^20", 1,
                        [axis_value("T", "string", "F64"), axis_value("BlockSize", "int64", 256),
                         axis_value("Elements", "int64", elements)], None,
                        "Warmup time did not meet skip_time limit: 3.412us < 5.000us."))
    return benchmark(0, "copy_sweep", axes, states)


def reduce():
    axes = [
        {"name": "Algorithm", "type": "string", "flags": "",
         "values": [{"input_string": "warp", "description": "", "value": "warp"},
                    {"input_string": "block tile", "description": "", "value": "block tile"}]},
        {"name": "Ratio", "type": "float64", "flags": "",
         "values": [{"input_string": "0.5", "description": "", "value": 0.5}]},
    ]
    states = []
    for algorithm, mean_s in (("warp", 4.25e-06), ("block tile", 5.5e-06)):
        states.append(state(f"Device=0 Algorithm={algorithm} Ratio=0.5", 0,
                            [axis_value("Algorithm", "string", algorithm), axis_value("Ratio", "float64", 0.5)],
                            cold_summaries(mean_s, 0.003, 2000, 0, 0, 1980000000.0)))
    return benchmark(1, "reduce", axes, states)


def simple():
    return benchmark(2, "simple", None,
                     [state("Device=0", 0, None, cold_summaries(1e-06, 0.05, 5000, 0, 0, 1980000000.0))])


def main():
    root = {
        "meta": {
            "argv": ["./team_bench", "--jsonbin", JSON_NAME],
            "version": {
                "json": {"major": 1, "minor": 0, "patch": 0, "string": "1.0.0"},
                "nvbench": {"major": 0, "minor": 1, "patch": 0, "string": "0.1.0", "git_branch": "main",
                            "git_sha": "66212f1da71cc9afb2894a46fa8f234cbdd6c0d8",
                            "git_version": "66212f1", "git_is_dirty": False},
            },
        },
        "devices": [DEVICE],
        "benchmarks": [copy_sweep(), reduce(), simple()],
    }
    with open(os.path.join(HERE, JSON_NAME), "w") as out:
        json.dump(root, out, indent=2)
        out.write("\n")
    os.makedirs(os.path.join(HERE, JSON_NAME + "-bin"), exist_ok=True)
    with open(os.path.join(HERE, JSON_NAME + "-bin", "0.bin"), "wb") as out:
        out.write(struct.pack("<%df" % len(SAMPLE_TIMES_US), *(t * 1e-6 for t in SAMPLE_TIMES_US)))


if __name__ == "__main__":
    main()
