#!/usr/bin/env bash
# Stands in for cmake in scripts/tests/test_bisect.sh (linked as cmake on PATH): every call is logged to
# FAKE_LOG. Configure (-S SOURCE -B BUILD) records the source; --build BUILD makes a build of perf tests
# whose benchmark binary is scripts/tests/fake_bench.sh shaped by the committed files of that source:
#   slowdown_pct   every sample that much slower (and fake/long's machine code changed, when not 0)
#   build_fails    the build fails
#   payload        planted code: building it appends the file's text to FAKE_PAYLOAD_LOG (it ran)
# FAKE_GPU_GONE=FILE: the built binary sees no GPU once FILE exists; FAKE_GPU_GONE_AT=SUBJECT: building the
# commit of that subject creates FILE (the GPU falls off the bus during a bisection).
set -euo pipefail
echo "cmake $*" >>"${FAKE_LOG:-/dev/null}"
src=. build="" action=configure target=""
while (($#)); do
  case "$1" in
    -S) src=$2; shift 2 ;;
    -B) build=$2; shift 2 ;;
    --version) echo "cmake version 3.25.1"; exit 0 ;;
    --build) action=build target=$2; shift 2 ;;
    *) shift ;;
  esac
done
if [[ $action == configure ]]; then
  mkdir -p "$build"
  (cd "$src" && pwd) >"$build/fake-source.txt"
  exit 0
fi
src=$(cat "$target/fake-source.txt")
[[ -f $src/build_fails ]] && { echo "fake cmake: error: the build of $src fails" >&2; exit 1; }
[[ -f $src/payload ]] && cat "$src/payload" >>"${FAKE_PAYLOAD_LOG:-/dev/null}"
if [[ -n ${FAKE_GPU_GONE_AT:-} && $(git -C "$src" log -1 --format=%s) == "$FAKE_GPU_GONE_AT" ]]; then
  touch "$FAKE_GPU_GONE"
fi
slowdown=$(cat "$src/slowdown_pct" 2>/dev/null || echo 0)
code_change=""
[[ $slowdown != 0 ]] && code_change=1
mkdir -p "$target/perf_tests/gate"
ln -sf "$FAKE_PERF_GATE" "$target/perf_tests/gate/perf_gate"
# shellcheck disable=SC2016  # the stand-in binary expands its own variables
printf '#!/usr/bin/env bash\n[[ -n ${FAKE_GPU_GONE:-} && -f $FAKE_GPU_GONE ]] && export FAKE_GPU=none\nFAKE_SLOWDOWN_PCT=%q FAKE_FINGERPRINTS=1 FAKE_CODE_CHANGE=%q exec bash %q "$@"\n' \
  "$slowdown" "$code_change" "$(dirname "$(realpath "$0")")/fake_bench.sh" >"$target/perf_tests/gpuperf_bench"
chmod +x "$target/perf_tests/gpuperf_bench"
