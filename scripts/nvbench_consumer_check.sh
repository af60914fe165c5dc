#!/usr/bin/env bash
# A team's nvbench suite judged by the installed harness, end to end on a GPU host: the harness built in
# BUILD is installed into a fresh prefix; a copy of examples/nvbench_suite (a project of its own: two CUDA
# kernels timed by nvbench over their axes, gpuperf_add_suite ... FORMAT nvbench) is configured against it
# and an installed nvbench, built and tested; it records its first baseline with the installed
# update_baseline.sh --suite; a second build of it carries examples/nvbench_suite/planted_slowdown.patch
# (saxpy at 2^26 elements launched with a sixteenth of the blocks that fill the GPU), and is compared with
# the first by the installed perf_gate ab-run; then the patch is applied to the first build too, which is
# judged against the baseline.
#
#   nvbench_consumer_check.sh BUILD OUTDIR [--nvbench-prefix P]
#
# --nvbench-prefix: where nvbench is installed (scripts/build_nvbench.sh P); default $NVBENCH_PREFIX.
# Expected, and checked: perf.nvbench_suite is skipped before the baseline exists, passes once it does,
# and fails after the planted change with a SLOW line for nvbench_suite/saxpy/Elements:67108864 and a code
# line naming saxpy_kernel's grid (the fingerprints the capture library took); the A/B comparison of the
# clean and the planted build fails on the same state, naming the same change; --skip-unchanged times that
# state alone (the 5 others UNCHANGED). The first baseline's and the clean check's times are printed
# (OUTDIR/times.txt). Logs and reports land in OUTDIR.
# Exit: 0 every expectation held, 1 one did not, 2 bad usage or a failed build, 77 no GPU or no nvbench.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
source "$(dirname "${BASH_SOURCE[0]}")/lib/example_check.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"

nvbench_prefix=${NVBENCH_PREFIX:-}
positional=()
while (($#)); do
  case $1 in
    --nvbench-prefix) need_value "$@"; nvbench_prefix=$2; shift 2 ;;
    -*) die "$EXIT_INVALID" "unknown option '$1' (see $(basename "$0") --help)" ;;
    *) positional+=("$1"); shift ;;
  esac
done
[[ -n $nvbench_prefix ]] ||
  die "$EXIT_NOT_JUDGED" "nvbench is not installed: no --nvbench-prefix nor NVBENCH_PREFIX (build it with scripts/build_nvbench.sh PREFIX)"
compgen -G "$nvbench_prefix/lib*/cmake/nvbench/nvbench-config.cmake" >/dev/null ||
  die "$EXIT_NOT_JUDGED" "nvbench is not installed in $nvbench_prefix: no lib*/cmake/nvbench/nvbench-config.cmake (build it with scripts/build_nvbench.sh $nvbench_prefix)"
nvbench_prefix=$(cd "$nvbench_prefix" && pwd)
example_check_start "$0" "${positional[@]}"

# The example finds the harness and nvbench, each in its own prefix (a CMake list).
harness_prefix="$out/prefix"
install_harness "$harness_prefix"
prefix="$harness_prefix;$nvbench_prefix" project="$out/nvbench_suite" planted="$out/nvbench_suite_planted"
example_copy "$root/examples/nvbench_suite" "$project"
example_copy "$root/examples/nvbench_suite" "$planted" planted
build_example "$project" "$prefix"
build_example "$planted" "$prefix"
prefix=$harness_prefix
team_suite_check nvbench nvbench_suite nvbench_bench nvbench_suite/saxpy/Elements:67108864 saxpy_kernel 6 5
example_check_end examples/nvbench_suite
