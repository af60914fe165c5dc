#!/usr/bin/env bash
# A team's Google Benchmark suite judged by the installed harness, end to end on a GPU host: the harness
# built in BUILD is installed into a fresh prefix; a copy of examples/gbench_suite (a project of its own:
# two CUDA kernels timed with events as manual time, gpuperf_add_suite) is configured against it, built and
# tested; it records its first baseline with the installed update_baseline.sh --suite; a second build of
# it carries examples/gbench_suite/planted_slowdown.patch (saxpy launched with a sixteenth of the blocks
# that fill the GPU), and is compared with the first by the installed perf_gate ab-run; then the patch is
# applied to the first build too, which is judged against the baseline.
#
#   gbench_consumer_check.sh BUILD OUTDIR
#
# Expected, and checked: perf.saxpy_suite is skipped before the baseline exists, passes once it does,
# and fails after the planted change with a SLOW line for BM_saxpy at 2^26 elements and a code line
# naming saxpy_kernel's grid (the fingerprints the capture library took); the A/B comparison of the clean
# and the planted build fails on the same benchmark, naming the same change; --skip-unchanged times
# BM_saxpy alone (BM_scale UNCHANGED). The first baseline's and the clean check's times are printed
# (OUTDIR/times.txt). Logs and reports land in OUTDIR.
# Exit: 0 every expectation held, 1 one did not, 2 bad usage or a failed build, 77 no GPU.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
source "$(dirname "${BASH_SOURCE[0]}")/lib/example_check.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
example_check_start "$0" "$@"

example_prepare "$root/examples/gbench_suite"

team_suite_check gbench saxpy_suite saxpy_bench saxpy_suite/BM_saxpy/67108864 saxpy_kernel 2 1
example_check_end examples/gbench_suite
