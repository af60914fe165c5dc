#!/usr/bin/env bash
# Turns benchmark results into one Markdown table per kernel family, for people: median time, GB/s,
# TFLOP/s, the fraction of this GPU's own ceiling measured in the same run (the ceiling family:
# device copy, read-only stream; cuBLAS for matmul), and the speedup over the family's first variant
# (the seed's naive one) at the same shape.
#
#   summarize.sh RESULTS.json [RESULTS.json ...] > summary.md
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
(($#)) || die "$EXIT_INVALID" "usage: $0 RESULTS.json [RESULTS.json ...]"
need_tool jq

# One document first: every file's samples, the first file's context.
jq -s '{context: .[0].context, benchmarks: [.[].benchmarks[]]}' "$@" | jq -r '
  def strip_suffixes: sub("(/(iterations|repeats|threads|min_time|min_warmup_time):[^/]+|/(manual_time|real_time|process_time))+$"; "");
  def to_us: if .time_unit == "ns" then .real_time / 1e3 elif .time_unit == "ms" then .real_time * 1e3
             elif .time_unit == "s" then .real_time * 1e6 else .real_time end;
  def median: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  def fmt(d): if . == null then "" else (. * pow(10; d) | round) / pow(10; d) | tostring end;

  (.context.gpu_name // "unknown GPU") as $gpu
  | [.benchmarks[] | select(.run_type == "iteration" and (.error_occurred | not))]
  | group_by(.run_name | strip_suffixes)
  | map((.[0].run_name | strip_suffixes) as $name | ($name | split("/")) as $parts
        | {name: $name, family: $parts[0], variant: $parts[1], shape: ($parts[2:] | join("/")),
           cycles: (.[0].cycles != null),
           median: (if .[0].cycles != null then map(.cycles) else map(to_us) end | median),
           order: .[0].family_index, bytes: (.[0].bytes // 0), flops: (.[0].flops // 0), samples: length})
  | map(. + {gbps: (if .cycles or .bytes == 0 then null else .bytes / .median / 1e3 end),
             tflops: (if .cycles or .flops == 0 then null else .flops / .median / 1e6 end)}) as $rows
  | ($rows | map(select(.family == "ceiling")) | map({key: .variant, value: .gbps}) | from_entries) as $ceil
  | "# Results on \($gpu)\n",
    ($rows | group_by(.family) | map(sort_by(.order)) | sort_by(.[0].order)[] | . as $fam
      | "## \($fam[0].family)\n",
        "| variant | shape | median | GB/s | TFLOP/s | % of ceiling | speedup vs \($fam[0].variant) |",
        "|---|---|---:|---:|---:|---:|---:|",
        ($fam[] | . as $r
          | ($fam | map(select(.shape == $r.shape)) | first) as $first
          | (if $r.family == "matmul" then
               ($fam | map(select(.shape == $r.shape and (.variant | test("^cublas"))))
                | map(select((.variant | test("tf32")) == ($r.variant | test("tf32"))))
                | first | .tflops) as $lib
               | (if $lib and $r.tflops then {pct: ($r.tflops / $lib * 100), of: "cuBLAS"} else null end)
             elif $r.gbps == null then null
             elif ($r.family == "reduction" or $r.family == "count_equal") then
               (if $ceil.read_only_stream then {pct: ($r.gbps / $ceil.read_only_stream * 100), of: "read"} else null end)
             else (if $ceil.device_copy then {pct: ($r.gbps / $ceil.device_copy * 100), of: "copy"} else null end)
             end) as $pct
          | "| \($r.variant) | \($r.shape) | \($r.median | fmt(if $r.cycles then 1 else 2 end)) \(if $r.cycles then "cycles" else "us" end) | \($r.gbps | fmt(0)) | \($r.tflops | fmt(1)) | \(if $pct then "\($pct.pct | fmt(0))% \($pct.of)" else "" end) | \(if $first.median > 0 and ($r.cycles | not) then ($first.median / $r.median | fmt(2)) + "x" else "" end) |"),
        "")'
