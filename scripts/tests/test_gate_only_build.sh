#!/usr/bin/env bash
# The gate-only build (GPUPERF_GATE_ONLY=ON, the top-level CMakeLists.txt) that the pull-request comment
# job runs on a hosted runner without CUDA (.github/workflows/pr-comment-call.yml): configured in a
# scratch folder with no nvcc reachable (CMAKE_CUDA_COMPILER and CUDACXX name a path that does not exist,
# and no folder of PATH holds an nvcc), it builds perf_gate alone, and that perf_gate renders the CI
# fixtures' comment (scripts/ci/pr_comment_body.sh) byte for byte as the reviewed golden.
# Its time is the gate's compilation: about 2 minutes on 2 cores.
#   test_gate_only_build.sh
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() {  # check <description> <command...>: passes when the command succeeds
  local what=$1
  shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}

# PATH without any folder that holds nvcc (a CI machine may have the CUDA toolkit installed).
path=""
IFS=: read -ra folders <<<"$PATH"
for folder in "${folders[@]}"; do
  [[ -n $folder && ! -e $folder/nvcc ]] && path+="${path:+:}$folder"
done
no_cuda=(env -u CUDACXX -u CUDA_PATH "PATH=$path")
check "no nvcc is reachable" "${no_cuda[@]}" bash -c '! command -v nvcc >/dev/null'

build="$work/build"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if ! "${no_cuda[@]}" cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DGPUPERF_GATE_ONLY=ON \
  -DCMAKE_CUDA_COMPILER="$work/no-such-nvcc" -DGPUPERF_FETCH_DEPENDENCIES=OFF >"$work/configure.log" 2>&1; then
  echo "FAIL: the gate-only build does not configure without CUDA:" && sed 's/^/    /' "$work/configure.log"
  exit 1
fi
check "CUDA was never enabled" bash -c "! ls '$build'/CMakeFiles/*/CMakeCUDACompiler.cmake >/dev/null 2>&1"
if ! "${no_cuda[@]}" cmake --build "$build" --target perf_gate >"$work/build.log" 2>&1; then
  echo "FAIL: perf_gate does not build without CUDA:" && tail -n 40 "$work/build.log" | sed 's/^/    /'
  exit 1
fi
gate="$build/perf_tests/gate/perf_gate"
check "perf_gate is built" test -x "$gate"
check "and nothing of the kernels or the tests" bash -c "! ls '$build'/perf_tests/gpuperf_bench '$build'/perf_tests/gate/unit_gate 2>/dev/null | grep -q ."

mkdir -p "$work/artifact/a" "$work/artifact/b"
cp "$here/fixtures/ci/error/fake.verdict.json" "$work/artifact/a/"
cp "$here/fixtures/ci/slow/fake.verdict.json" "$work/artifact/b/"
bash "$root/scripts/ci/pr_comment_body.sh" --gate "$gate" "$work/artifact" https://example.invalid/run/1 >"$work/comment.md"
check "its comment of the CI fixtures is the golden, byte for byte" \
  diff -u "$root/perf_tests/gate/testdata/pr_comment/fake_error_slow.md" "$work/comment.md"

echo "$passed passed, $failed failed"
((failed == 0))
