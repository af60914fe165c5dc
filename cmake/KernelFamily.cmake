# The registration API of the harness, the same in this repository and in a project that uses the
# harness (find_package(gpuperf) or FetchContent: README.md, "Use it in your repository"; docs/package.md).
#
# gpuperf_add_family(<name> {SOURCE_DIR <folder> | SOURCES <files...>} [LIBRARIES <targets...>] [BASELINES <folder>])
#   Builds one kernel family into a static library whose single entry point is
#     void gpuperf::register_<name>(gpuperf::Registry&);
#   SOURCE_DIR: every .cu and .cpp file directly in <folder> (relative: to this CMakeLists.txt) but unit
#   tests beside them (*_test.cu, *_test.cpp), found with file(GLOB CONFIGURE_DEPENDS): a new variant's
#   file is built with no list to edit, as the build looks for new files each time it runs. SOURCES: the
#   files, listed (with SOURCE_DIR: added to what it finds).
#   and records it, so that gpuperf_add_tests() calls that function and gives the family a correctness
#   test (correctness.<name>) and a place in the families' perf tests (perf.families, one shard a GPU on
#   a host of several: perf.families_1of4 ...; GPUPERF_PERF_SHARDS below). BASELINES: the folder of its per-GPU baseline
#   files (relative: to this CMakeLists.txt); default GPUPERF_BASELINE_DIR, else the top-level project's
#   baselines/. The folder must exist (it may be empty: perf tests skip until a GPU's first baseline).
#
# gpuperf_add_suite(<name> COMMAND <target or path> FORMAT gbench|nvbench [BASELINES <folder>] [ARGS <args...>])
#   A team's own benchmark suite, judged as a family is: CTest's perf.<name> runs perf_gate run --format
#   <format> on the binary (a target of this project, or a path), its benchmarks named <name>/... (the
#   suite's name is a family name; docs/suites.md), against <folder>/<gpu slug>.json (BASELINES as for a
#   family). ARGS go to each of its processes. FORMAT gbench: a Google Benchmark binary; nvbench: an nvbench
#   binary. Needs no family and no CUDA of its own; <build>/gpuperf-suites/<name>.txt tells
#   update_baseline.sh --build-dir <build> --suite <name> how to record its first baseline.
#
# gpuperf_add_tests()
#   Generates the programs of every family declared so far (gpuperf_bench, gpuperf_correctness, in this
#   directory's build folder), their CTest tests, and <build>/gpuperf-programs.txt, which tells the
#   scripts (update_baseline.sh, record_ncu.sh --build-dir <build>) where the programs and baselines are.
#   A project need not call it: the first gpuperf_add_family() schedules it for the end of the top-level
#   CMakeLists.txt. Call it to place the programs elsewhere; no family may be declared after it.
include_guard(GLOBAL)

# What the generated perf tests pass to perf_gate run; a project sets them like any cache variable.
set(GPUPERF_BASELINE_DIR "" CACHE PATH
    "The folder of the per-GPU baseline files (empty: baselines/ of the top-level project)")
option(GPUPERF_STRICT_BASELINE
       "A GPU without a baseline file fails the perf tests instead of skipping them" OFF)
set(GPUPERF_ONLY_FAMILIES "" CACHE STRING
    "Only these kernel families (gpuperf_add_family names; here: folders under kernels/), ;-separated; empty: all")
# Empty: perf_gate run's own defaults (30 samples; 3 processes a look, 3 re-measurements), which
# the gate's simulation and its figures in docs/statistics.md assume.
set(GPUPERF_REPETITIONS "" CACHE STRING "Timed samples per benchmark per process in a perf test (empty: the default)")
set(GPUPERF_PERF_MAX_REMEASURE "" CACHE STRING "Re-measurements of ambiguous benchmarks in a perf test (empty: the default)")
option(GPUPERF_SKIP_UNCHANGED
  "Perf tests leave untimed the benchmarks whose fingerprint (kernels, machine code, launches, libraries) and platform equal the baseline's; correctness is still checked (pull requests)"
  OFF)
# PLATFORM (the baseline's own code beyond its tolerance: the machine, driver or harness moved) passes by
# default; teams that gate driver or runner changes make it fail.
option(GPUPERF_FAIL_ON_PLATFORM
  "A PLATFORM verdict (the same code as the baseline's, beyond its tolerance) fails the perf tests instead of passing"
  OFF)
# A file the machine keeps between runs (a CI runner: a folder outside the checkout): the perf tests add
# their verdicts on unchanged code to it, and every report states the gate's false-alarm rate seen there.
set(GPUPERF_SAME_CODE_LEDGER "${CMAKE_BINARY_DIR}/same-code-ledger.json" CACHE FILEPATH
    "The running count of verdicts on unchanged code the perf tests add to (empty: none)")
# Where each correctness test records the cases it verified, with the fingerprint of the code that ran
# (perf_tests/harness/verified_cases.h), and the perf test of the same build reads them: a case whose code
# and GPU model are the verified run's is not compared with its host reference a second time. Relinking
# either program deletes the records. Empty: nothing is recorded; perf tests check every case.
set(GPUPERF_VERIFIED_CASES_DIR "${CMAKE_BINARY_DIR}/verified-cases" CACHE PATH
    "The folder where correctness tests record the cases they verified for the perf tests (empty: none)")
# The perf tests of the families: the suite cut into shards (perf_tests/gate/driver/shards.h), one test
# each, perf.families on one GPU, perf.families_1of4 ... perf.families_4of4 on four. Empty: one per GPU
# this host shows when it is configured (nvidia-smi, CUDA_VISIBLE_DEVICES), where the GPU tests can spread
# over them (see gpuperf_gpu_test_properties()), and no more than there are families; else one.
set(GPUPERF_PERF_SHARDS "" CACHE STRING
    "Perf tests the families' suite is cut into, one a GPU (empty: the host's GPUs)")
# The runners' histories of the baseline's code (perf_gate history-offsets; docs/history.md): a perf test
# judges a benchmark with enough runs on its GPU against that runner's own level, at the same-GPU
# tolerance. Empty: against the baseline alone.
set(GPUPERF_RUNNER_HISTORY "" CACHE FILEPATH
    "The runner-history file perf tests judge each runner against (perf_gate history-offsets; empty: none)")
# How many correctness tests check their cases on one GPU at once (1, 2 or 4); 1 for cases that need
# more than a quarter of the GPU's memory. A perf test always has its GPU to itself.
set(GPUPERF_CORRECTNESS_PER_GPU 4 CACHE STRING "Correctness tests side by side on one GPU (1, 2 or 4)")
set_property(CACHE GPUPERF_CORRECTNESS_PER_GPU PROPERTY STRINGS 1 2 4)
option(GPUPERF_GPU_RESOURCES "GPU tests take the host's GPUs from ctest --resource-spec-file (scripts/ci/gpu_tests.sh), not from the gpuperf.gpus fixture" OFF)

function(_gpuperf_require_cuda what)
  if(NOT CMAKE_CUDA_COMPILER_LOADED)
    message(FATAL_ERROR "${what}: the CUDA language is not enabled in ${CMAKE_CURRENT_SOURCE_DIR}, so its .cu "
                        "files would not be compiled. Enable it in the top-level CMakeLists.txt, before "
                        "find_package(gpuperf) or FetchContent: project(<name> LANGUAGES CXX CUDA) or "
                        "enable_language(CUDA)")
  endif()
endfunction()

# A family's or a suite's name: the rule of perf_tests/formats/names.h (a letter, then letters, digits, _;
# at most kMaxFamilyNameLength), which perf_gate would apply only when the test runs; and not the name of
# the families' perf tests together, perf.families and its shards perf.families_<i>of<n>. The rule is
# GpuperfNameRules.cmake's (perf_gate name-rules --cmake), included beside this file, here and in the
# installed package, from the function itself: a call from any scope has it.
function(_gpuperf_check_name call kind name names_what)
  include("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/GpuperfNameRules.cmake")
  string(LENGTH "${name}" length)
  if(NOT name MATCHES "^(${GPUPERF_FAMILY_NAME_RULE})$" OR length GREATER GPUPERF_MAX_FAMILY_NAME_LENGTH)
    message(FATAL_ERROR "${call}: '${name}' is not a ${kind} name: it must be a letter, then letters, digits and "
                        "_, at most ${GPUPERF_MAX_FAMILY_NAME_LENGTH} characters (perf_tests/formats/names.h), as it "
                        "names ${names_what} and the benchmarks ${name}/...: rename it (e.g. 'saxpy_suite', not "
                        "'saxpy-suite' or '1saxpy')")
  endif()
  if(name MATCHES "^families(_[0-9]+of[0-9]+)?$")
    message(FATAL_ERROR "${call}: '${name}' names the perf tests of the families together "
                        "(perf.families, perf.families_2of4) and their reports: give the ${kind} another name")
  endif()
endfunction()

# Every family and suite takes its name for its tests (correctness.<name>, perf.<name>) and for the files
# its perf test writes (perf-results/<name>.*): a second declaration of a name, as a family or as a suite,
# in either order, stops the configure naming both (else two CTest tests of one name share one set of
# result files).
function(_gpuperf_claim_name kind name)
  get_property(first GLOBAL PROPERTY GPUPERF_NAME_${name}_DECLARED)
  if(first)
    list(GET first 0 first_kind)
    list(GET first 1 first_file)
    if(first_kind STREQUAL kind)
      set(declarations "the ${kind} '${name}' is declared twice: in ${first_file} and in ${CMAKE_CURRENT_LIST_FILE}")
    else()
      string(CONCAT declarations "'${name}' is declared as a ${first_kind} (in ${first_file}) and as a ${kind} "
                                 "(in ${CMAKE_CURRENT_LIST_FILE})")
    endif()
    message(FATAL_ERROR "${declarations}. The name names the tests correctness.${name} and perf.${name} and the "
                        "perf tests' files perf-results/${name}.*: give each family and suite its own")
  endif()
  set_property(GLOBAL PROPERTY GPUPERF_NAME_${name}_DECLARED "${kind};${CMAKE_CURRENT_LIST_FILE}")
endfunction()

function(gpuperf_add_family name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "BASELINES;SOURCE_DIR" "SOURCES;LIBRARIES")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpuperf_add_family(${name}): unknown arguments '${ARG_UNPARSED_ARGUMENTS}'; it takes "
                        "SOURCE_DIR <folder> and/or SOURCES <files...>, [LIBRARIES <targets...>] [BASELINES <folder>]")
  endif()
  _gpuperf_check_name("gpuperf_add_family(${name})" family "${name}"
                      "the function register_${name}(Registry&), the tests correctness.${name} and perf.${name}")
  _gpuperf_require_cuda("gpuperf_add_family(${name})")
  set(sources ${ARG_SOURCES})
  if(DEFINED ARG_SOURCE_DIR)
    get_filename_component(source_dir "${ARG_SOURCE_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT IS_DIRECTORY "${source_dir}")
      message(FATAL_ERROR "gpuperf_add_family(${name}): SOURCE_DIR ${source_dir} is no folder: name the folder "
                          "of the family's files (relative: to ${CMAKE_CURRENT_SOURCE_DIR})")
    endif()
    file(GLOB found CONFIGURE_DEPENDS "${source_dir}/*.cu" "${source_dir}/*.cpp")
    list(FILTER found EXCLUDE REGEX "_test\\.(cu|cpp)$")
    if(NOT found)
      message(FATAL_ERROR "gpuperf_add_family(${name}): SOURCE_DIR ${source_dir} holds no .cu or .cpp file (unit "
                          "tests, *_test.cu and *_test.cpp, are not counted): name the folder of the family's "
                          "kernel files and of the one that defines gpuperf::register_${name}(gpuperf::Registry&)")
    endif()
    list(APPEND sources ${found})
  endif()
  if(NOT sources)
    message(FATAL_ERROR "gpuperf_add_family(${name}) has no SOURCES: name the folder of the family's files "
                        "(SOURCE_DIR <folder>), or list its kernel files and the one that defines "
                        "gpuperf::register_${name}(gpuperf::Registry&) (SOURCES <files...>)")
  endif()
  get_property(tests_added_in GLOBAL PROPERTY GPUPERF_TESTS_ADDED_IN)
  if(tests_added_in)
    message(FATAL_ERROR "gpuperf_add_family(${name}) comes after gpuperf_add_tests() (${tests_added_in}), which "
                        "has generated the programs and tests already: declare every family before it")
  endif()

  _gpuperf_claim_name(family "${name}")
  _gpuperf_baselines_folder(baselines "the family '${name}'" "${ARG_BASELINES}")

  set_property(GLOBAL APPEND PROPERTY GPUPERF_DECLARED_FAMILIES ${name})
  set(target gpuperf_family_${name})
  # A family GPUPERF_ONLY_FAMILIES leaves out keeps its target (a later command may name it), unbuilt.
  set(left_out "")
  if(GPUPERF_ONLY_FAMILIES AND NOT name IN_LIST GPUPERF_ONLY_FAMILIES)
    set(left_out EXCLUDE_FROM_ALL)
  endif()
  add_library(${target} STATIC ${left_out} ${sources})
  target_link_libraries(${target} PUBLIC gpuperf::common PRIVATE ${ARG_LIBRARIES})
  if(NOT left_out)
    set_property(GLOBAL APPEND PROPERTY GPUPERF_FAMILIES ${name})
    set_property(GLOBAL PROPERTY GPUPERF_FAMILY_${name}_BASELINES "${baselines}")
  endif()

  get_property(scheduled GLOBAL PROPERTY GPUPERF_TESTS_SCHEDULED)
  if(NOT scheduled)
    set_property(GLOBAL PROPERTY GPUPERF_TESTS_SCHEDULED TRUE)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _gpuperf_add_tests_unless_added)
  endif()
endfunction()

function(_gpuperf_add_tests_unless_added)
  get_property(tests_added_in GLOBAL PROPERTY GPUPERF_TESTS_ADDED_IN)
  if(NOT tests_added_in)
    gpuperf_add_tests()
  endif()
endfunction()

# The CTest properties of a GPU test. Each asks CTest for one "gpus" resource and runs through
# with_ctest_gpu.sh, which shows it only the GPU CTest allotted (CTEST_RESOURCE_GROUP_0_GPUS).
# A GPU offers 4 slots (scripts/ci/resource_spec.sh). A test that times takes all 4, a GPU to itself; one
# given SHARES_GPU (a correctness test: it times nothing) takes 4 / GPUPERF_CORRECTNESS_PER_GPU of them,
# so that several check their cases side by side on one GPU while no perf test runs there: on one H100 the
# nine correctness tests took 12.5 s one at a time, each mostly the start-up of its process.
# Where the host's GPUs come from:
# - CMake 3.28 or newer: a fixture test, gpuperf.gpus, lists them when ctest starts
#   (scripts/ci/resource_spec.sh, GENERATED_RESOURCE_SPEC_FILE), and every GPU test requires it: `ctest -j N`
#   (the perf test preset gives a -j) runs up to N of them at once, one GPU each, never two on one, with
#   no option to give. A host without GPUs gets one slot, and its tests skip.
# - GPUPERF_GPU_RESOURCES (CI's GPU job, scripts/ci/gpu_tests.sh): a spec file given to ctest instead,
#   which CTest does not take beside such a fixture.
# - Older CMake: a RESOURCE_LOCK runs them one at a time, and configuring says so once.
# perf_gate run also takes a lock per GPU UUID, against a second ctest started at the same time. Exit
# code 77 = skipped (no GPU, no baseline for this GPU, or nothing could be judged).
function(gpuperf_gpu_test_properties out_properties out_launcher)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "SHARES_GPU" "" "")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpuperf_gpu_test_properties(): unknown arguments ${ARG_UNPARSED_ARGUMENTS} (only SHARES_GPU)")
  endif()
  set(slots 4)  # a GPU's slots: resource_spec.sh writes as many
  if(ARG_SHARES_GPU)
    if(NOT GPUPERF_CORRECTNESS_PER_GPU MATCHES "^[124]$")
      message(FATAL_ERROR "GPUPERF_CORRECTNESS_PER_GPU is '${GPUPERF_CORRECTNESS_PER_GPU}': give 1, 2 or 4 (the "
                          "correctness tests that share a GPU at once)")
    endif()
    math(EXPR slots "4 / ${GPUPERF_CORRECTNESS_PER_GPU}")
  endif()
  set(properties SKIP_RETURN_CODE 77 RESOURCE_GROUPS gpus:${slots})
  get_property(scripts GLOBAL PROPERTY GPUPERF_SCRIPTS_DIR)
  if(GPUPERF_GPU_RESOURCES)
    # the spec file comes with ctest --resource-spec-file
  elseif(CMAKE_VERSION VERSION_GREATER_EQUAL 3.28)
    get_property(fixture_added GLOBAL PROPERTY GPUPERF_GPU_FIXTURE_ADDED)
    if(NOT fixture_added)
      set_property(GLOBAL PROPERTY GPUPERF_GPU_FIXTURE_ADDED ON)
      set(spec ${CMAKE_BINARY_DIR}/gpu-resources.json)
      add_test(NAME gpuperf.gpus COMMAND bash ${scripts}/ci/resource_spec.sh --or-none ${spec})
      set_tests_properties(gpuperf.gpus PROPERTIES
        FIXTURES_SETUP gpuperf_gpus GENERATED_RESOURCE_SPEC_FILE ${spec} TIMEOUT 60)
    endif()
    list(APPEND properties FIXTURES_REQUIRED gpuperf_gpus)
  else()
    get_property(said GLOBAL PROPERTY GPUPERF_GPU_SERIAL_SAID)
    if(NOT said)
      set_property(GLOBAL PROPERTY GPUPERF_GPU_SERIAL_SAID ON)
      message(STATUS "gpuperf: GPU tests run one at a time on one GPU: spreading them over the host's GPUs "
                     "needs CMake 3.28 or newer (this is ${CMAKE_VERSION}), or -DGPUPERF_GPU_RESOURCES=ON with "
                     "ctest --resource-spec-file (scripts/ci/gpu_tests.sh)")
    endif()
    list(APPEND properties RESOURCE_LOCK gpu)
  endif()
  set(${out_properties} ${properties} PARENT_SCOPE)
  set(${out_launcher} bash ${scripts}/ci/with_ctest_gpu.sh PARENT_SCOPE)
endfunction()

# How many shards the families' perf test is cut into (GPUPERF_PERF_SHARDS above).
function(_gpuperf_perf_shards out_count family_count)
  if(NOT GPUPERF_PERF_SHARDS STREQUAL "")
    if(NOT GPUPERF_PERF_SHARDS MATCHES "^[1-9][0-9]?$")
      message(FATAL_ERROR "GPUPERF_PERF_SHARDS is '${GPUPERF_PERF_SHARDS}': give the number of perf tests to cut the "
                          "families' suite into (1-64), or leave it empty for one a GPU")
    endif()
    set(${out_count} ${GPUPERF_PERF_SHARDS} PARENT_SCOPE)
    return()
  endif()
  set(gpus 1)
  if(GPUPERF_GPU_RESOURCES OR CMAKE_VERSION VERSION_GREATER_EQUAL 3.28)
    get_property(scripts GLOBAL PROPERTY GPUPERF_SCRIPTS_DIR)
    set(spec ${CMAKE_BINARY_DIR}/CMakeFiles/gpuperf-gpus-at-configure.json)
    execute_process(COMMAND bash ${scripts}/ci/resource_spec.sh --or-none ${spec} TIMEOUT 60
                    OUTPUT_VARIABLE listed OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
    if(NOT failed AND listed MATCHES "^[0-9]+$" AND listed GREATER 1)
      set(gpus ${listed})
    endif()
  endif()
  if(gpus GREATER family_count)
    set(gpus ${family_count})
  endif()
  if(gpus GREATER 1)
    message(STATUS "gpuperf: the families' perf test is cut into ${gpus} shards, one a GPU of this host "
                   "(perf.families_1of${gpus} ...; -DGPUPERF_PERF_SHARDS=N to choose)")
  endif()
  set(${out_count} ${gpus} PARENT_SCOPE)
endfunction()

# The options every perf test gives perf_gate run, from the cache variables above.
function(_gpuperf_perf_test_options out_options)
  set(perf_test_options "")
  if(GPUPERF_STRICT_BASELINE)
    list(APPEND perf_test_options --strict)
  endif()
  if(NOT GPUPERF_REPETITIONS STREQUAL "")
    list(APPEND perf_test_options --repetitions ${GPUPERF_REPETITIONS})
  endif()
  if(NOT GPUPERF_PERF_MAX_REMEASURE STREQUAL "")
    list(APPEND perf_test_options --max-remeasure ${GPUPERF_PERF_MAX_REMEASURE})
  endif()
  if(GPUPERF_SKIP_UNCHANGED)
    list(APPEND perf_test_options --skip-unchanged)
  endif()
  if(GPUPERF_FAIL_ON_PLATFORM)
    list(APPEND perf_test_options --fail-on-platform)
  endif()
  if(NOT GPUPERF_SAME_CODE_LEDGER STREQUAL "")
    list(APPEND perf_test_options --same-code-ledger ${GPUPERF_SAME_CODE_LEDGER})
  endif()
  if(NOT GPUPERF_RUNNER_HISTORY STREQUAL "")
    list(APPEND perf_test_options --runner-history ${GPUPERF_RUNNER_HISTORY})
  endif()
  set(${out_options} ${perf_test_options} PARENT_SCOPE)
endfunction()

# The folder of a family's or suite's baselines: BASELINES (relative: to this CMakeLists.txt), else
# GPUPERF_BASELINE_DIR, else the top-level project's baselines/. It must exist.
function(_gpuperf_baselines_folder out_folder what given)
  if(NOT given STREQUAL "")
    get_filename_component(baselines "${given}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  elseif(GPUPERF_BASELINE_DIR)
    get_filename_component(baselines "${GPUPERF_BASELINE_DIR}" ABSOLUTE BASE_DIR "${CMAKE_SOURCE_DIR}")
  else()
    set(baselines "${CMAKE_SOURCE_DIR}/baselines")
  endif()
  if(NOT IS_DIRECTORY "${baselines}")
    message(FATAL_ERROR "the baseline folder of ${what}, ${baselines}, does not exist. Create it "
                        "and commit it (a README.md in it is enough: perf tests skip until a GPU's first "
                        "baseline, recorded with update_baseline.sh --build-dir <build>), or name another "
                        "with BASELINES <folder> or -DGPUPERF_BASELINE_DIR=<folder>")
  endif()
  set(${out_folder} "${baselines}" PARENT_SCOPE)
endfunction()

function(gpuperf_add_suite name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "COMMAND;FORMAT;BASELINES" "ARGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpuperf_add_suite(${name}): unknown arguments '${ARG_UNPARSED_ARGUMENTS}'; it takes "
                        "COMMAND <target or path> FORMAT gbench|nvbench [BASELINES <folder>] [ARGS <args...>]")
  endif()
  # The name names the test perf.<name> and the suite's benchmarks, <name>/...: the family rule
  # (formats/names.h), here rather than when the test runs (docs/suites.md).
  _gpuperf_check_name("gpuperf_add_suite(${name})" suite "${name}" "the test perf.${name}")
  if(NOT ARG_COMMAND)
    message(FATAL_ERROR "gpuperf_add_suite(${name}) has no COMMAND: name the suite's benchmark binary (a target "
                        "of this project, or a path)")
  endif()
  if(NOT ARG_FORMAT MATCHES "^(gbench|nvbench)$")
    message(FATAL_ERROR "gpuperf_add_suite(${name}): FORMAT '${ARG_FORMAT}' is neither gbench (a Google Benchmark "
                        "binary) nor nvbench (an nvbench binary)")
  endif()
  # update_baseline.sh --suite reads the arguments back one line each (gpuperf-suites/<name>.txt, below).
  foreach(argument IN LISTS ARG_ARGS)
    if(argument MATCHES "[\r\n]")
      message(FATAL_ERROR "gpuperf_add_suite(${name}): the argument '${argument}' of ARGS holds a line break, "
                          "which the suite's file for update_baseline.sh (gpuperf-suites/${name}.txt, one "
                          "argument a line) cannot carry: pass the value without it (e.g. in a file the suite reads)")
    endif()
  endforeach()
  _gpuperf_claim_name(suite "${name}")
  set_property(GLOBAL APPEND PROPERTY GPUPERF_SUITES ${name})
  _gpuperf_baselines_folder(baselines "the suite '${name}'" "${ARG_BASELINES}")
  if(TARGET ${ARG_COMMAND})
    set(bench "$<TARGET_FILE:${ARG_COMMAND}>")
  else()
    get_filename_component(bench "${ARG_COMMAND}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  # The arguments as add_test() passes them (an empty one dropped), for the test and its file alike.
  set(arguments ${ARG_ARGS})
  set(suite_arguments "")
  # Quoted: not if(arguments), as a lone argument "0" or "OFF" is false; and an unset `arguments` (no ARGS)
  # unquoted would be the word itself, giving the test a bare "--" that perf_gate refuses.
  if(NOT "${arguments}" STREQUAL "")
    set(suite_arguments -- ${arguments})
  endif()

  gpuperf_gpu_test_properties(gpu_test_properties on_ctest_gpu)
  # perf_gate captures the suite's fingerprints with the capture library beside it (gpuperf::fingerprint_inject),
  # so --skip-unchanged applies as to our families.
  _gpuperf_perf_test_options(perf_test_options)
  set(perf_results_dir ${CMAKE_BINARY_DIR}/perf-results)
  cmake_language(DEFER DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" CALL enable_testing)
  if(NOT CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL enable_testing)
  endif()
  add_test(NAME perf.${name}
           COMMAND ${on_ctest_gpu} $<TARGET_FILE:gpuperf::perf_gate> run
                   --format ${ARG_FORMAT}
                   --family ${name}
                   --bench ${bench}
                   --baselines ${baselines}
                   --out ${perf_results_dir}
                   ${perf_test_options}
                   ${suite_arguments})
  set_tests_properties(perf.${name} PROPERTIES
    LABELS perf ${gpu_test_properties} ENVIRONMENT "GPUPERF_PHASES_DIR=${perf_results_dir}/phases" TIMEOUT 600)

  # What update_baseline.sh --build-dir <build> --suite <name> reads to record the suite's baseline
  # (perf_gate run --record): one key=value a line, split at the first '=', the suite's arguments one
  # arg= line each, in order, exactly as ARGS gives them to perf.<name> (no line break: refused above).
  set(argument_lines "")
  foreach(argument IN LISTS arguments)
    string(APPEND argument_lines "arg=${argument}\n")
  endforeach()
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/gpuperf-suites/${name}.txt CONTENT
"# Written by gpuperf_add_suite() (CMake): how to run the suite ${name}, for update_baseline.sh --suite.
gate=$<TARGET_FILE:gpuperf::perf_gate>
bench=${bench}
format=${ARG_FORMAT}
baselines=${baselines}
${argument_lines}")
endfunction()

function(gpuperf_add_tests)
  if(ARGN)
    message(FATAL_ERROR "gpuperf_add_tests() takes no arguments (given: ${ARGN})")
  endif()
  get_property(tests_added_in GLOBAL PROPERTY GPUPERF_TESTS_ADDED_IN)
  if(tests_added_in)
    message(FATAL_ERROR "gpuperf_add_tests() is called twice: in ${tests_added_in} and in ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  set_property(GLOBAL PROPERTY GPUPERF_TESTS_ADDED_IN "${CMAKE_CURRENT_LIST_FILE}")
  _gpuperf_require_cuda("gpuperf_add_tests()")
  if(NOT TARGET gpuperf::bench_main)
    message(FATAL_ERROR "gpuperf_add_tests() in ${CMAKE_CURRENT_SOURCE_DIR} does not see the harness's targets "
                        "(gpuperf::...): call find_package(gpuperf) (or FetchContent_MakeAvailable) in the "
                        "top-level CMakeLists.txt, whose targets every folder below sees")
  endif()

  get_property(declared GLOBAL PROPERTY GPUPERF_DECLARED_FAMILIES)
  get_property(families GLOBAL PROPERTY GPUPERF_FAMILIES)
  foreach(family IN LISTS GPUPERF_ONLY_FAMILIES)
    if(NOT family IN_LIST declared)
      message(FATAL_ERROR "GPUPERF_ONLY_FAMILIES names '${family}', which no gpuperf_add_family() declared "
                          "(declared: ${declared}); leave the option empty to build them all")
    endif()
  endforeach()
  if(NOT families)
    message(FATAL_ERROR "gpuperf_add_tests(): no kernel family to test; declare one before it with "
                        "gpuperf_add_family(<name> SOURCES ...)")
  endif()

  # The registry of every family (kernels/common/registry.h, register_all_families()).
  set(GPUPERF_FAMILY_DECLARATIONS "")
  set(GPUPERF_FAMILY_CALLS "")
  set(family_libraries "")
  set(all_baselines "")
  foreach(family IN LISTS families)
    string(APPEND GPUPERF_FAMILY_DECLARATIONS "void register_${family}(Registry& registry);\n")
    string(APPEND GPUPERF_FAMILY_CALLS "  registry.add_family(\"${family}\", register_${family});\n")
    list(APPEND family_libraries gpuperf_family_${family})
    get_property(baselines GLOBAL PROPERTY GPUPERF_FAMILY_${family}_BASELINES)
    list(APPEND all_baselines "${baselines}")
  endforeach()
  get_property(template GLOBAL PROPERTY GPUPERF_REGISTRY_TEMPLATE)
  configure_file(${template} ${CMAKE_CURRENT_BINARY_DIR}/all_families.cpp @ONLY)
  # Every program that links it compiles the registry itself (INTERFACE_SOURCES).
  add_library(gpuperf_registry INTERFACE)
  target_sources(gpuperf_registry INTERFACE ${CMAKE_CURRENT_BINARY_DIR}/all_families.cpp)
  target_link_libraries(gpuperf_registry INTERFACE gpuperf::common ${family_libraries})

  add_executable(gpuperf_bench)
  target_link_libraries(gpuperf_bench PRIVATE gpuperf::bench_main gpuperf_registry)
  add_executable(gpuperf_correctness)
  target_link_libraries(gpuperf_correctness PRIVATE gpuperf::correctness_main gpuperf_registry)
  if(TARGET gpuperf_harness_gpu_tests)  # the harness's own tests (GPUPERF_BUILD_TESTS): correctness.harness
    target_link_libraries(gpuperf_correctness PRIVATE gpuperf_harness_gpu_tests)
  endif()

  # --- one correctness and one perf test per family -------------------------------------------------
  gpuperf_gpu_test_properties(gpu_test_properties on_ctest_gpu)
  gpuperf_gpu_test_properties(correctness_test_properties on_ctest_gpu SHARES_GPU)
  set(perf_results_dir ${CMAKE_BINARY_DIR}/perf-results)
  _gpuperf_perf_test_options(perf_test_options)
  # Every GPU test records where its time went (scripts/ci/with_ctest_gpu.sh, perf_gate run) into
  # <build>/perf-results/phases, which perf_gate phases tabulates.
  set(test_environment "GPUPERF_PHASES_DIR=${perf_results_dir}/phases")
  # The verified cases (GPUPERF_VERIFIED_CASES_DIR): both tests of a family are told the folder; a relinked
  # program deletes the records, so that a perf test never trusts what the correctness test of another
  # build verified (the fingerprint covers the device code; this covers the host side, the references).
  if(NOT GPUPERF_VERIFIED_CASES_DIR STREQUAL "")
    get_filename_component(verified_cases_dir "${GPUPERF_VERIFIED_CASES_DIR}" ABSOLUTE BASE_DIR "${CMAKE_BINARY_DIR}")
    list(APPEND test_environment "GPUPERF_VERIFIED_CASES_DIR=${verified_cases_dir}")
    set(verified_cases_files "")
    foreach(family IN LISTS families)
      list(APPEND verified_cases_files "${verified_cases_dir}/${family}.json")
    endforeach()
    foreach(program IN ITEMS gpuperf_bench gpuperf_correctness)
      add_custom_command(TARGET ${program} POST_BUILD
                         COMMAND ${CMAKE_COMMAND} -E rm -f ${verified_cases_files} VERBATIM)
    endforeach()
  endif()
  # enable_testing() in this directory and at the top of the build folder, where ctest reads the tests
  # from; deferred, as it holds only where called at directory scope (not in this function).
  cmake_language(DEFER DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" CALL enable_testing)
  if(NOT CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL enable_testing)
  endif()
  set(correctness_tests "")
  foreach(family IN LISTS families)
    add_test(NAME correctness.${family}
             COMMAND ${on_ctest_gpu} $<TARGET_FILE:gpuperf_correctness> --gtest_filter=${family}.* --gtest_brief=1)
    set_tests_properties(correctness.${family} PROPERTIES
      LABELS correctness ${correctness_test_properties} ENVIRONMENT "${test_environment}" TIMEOUT 300)
    list(APPEND correctness_tests correctness.${family})
  endforeach()

  # The perf tests: the families' suite in shards, one a GPU (perf_tests/gate/driver/shards.h), where they
  # share a baseline folder; a perf test per family where they do not.
  list(REMOVE_DUPLICATES all_baselines)
  list(LENGTH all_baselines baseline_folders)
  list(LENGTH families family_count)
  set(perf_runs "")
  if(baseline_folders EQUAL 1)
    _gpuperf_perf_shards(shards ${family_count})
    foreach(shard RANGE 1 ${shards})
      if(shards EQUAL 1)
        set(test_name perf.families)
      else()
        set(test_name perf.families_${shard}of${shards})
      endif()
      list(APPEND perf_runs "${test_name}|--shard|${shard}/${shards}|${all_baselines}")
    endforeach()
  else()
    foreach(family IN LISTS families)
      get_property(baselines GLOBAL PROPERTY GPUPERF_FAMILY_${family}_BASELINES)
      list(APPEND perf_runs "perf.${family}|--family|${family}|${baselines}")
    endforeach()
  endif()
  foreach(perf_run IN LISTS perf_runs)
    string(REPLACE "|" ";" perf_run "${perf_run}")
    list(GET perf_run 0 test_name)
    list(GET perf_run 1 what_option)
    list(GET perf_run 2 what)
    list(GET perf_run 3 baselines)
    add_test(NAME ${test_name}
             COMMAND ${on_ctest_gpu} $<TARGET_FILE:gpuperf::perf_gate> run
                     ${what_option} ${what}
                     --bench $<TARGET_FILE:gpuperf_bench>
                     --baselines ${baselines}
                     --out ${perf_results_dir}
                     ${perf_test_options})
    # After the correctness tests when both run (ctest -j on a host of several GPUs): they record the cases
    # they verified, which the perf tests then leave unchecked. Order only: a failed correctness test does
    # not stop a perf test.
    set_tests_properties(${test_name} PROPERTIES
      LABELS perf ${gpu_test_properties} ENVIRONMENT "${test_environment}" TIMEOUT 600 DEPENDS "${correctness_tests}")
  endforeach()

  # What the scripts' --build-dir reads (scripts/lib/common.sh, harness_in): the baseline folder only
  # when every family shares one.
  set(baselines_line "")
  if(baseline_folders EQUAL 1)
    set(baselines_line "baselines=${all_baselines}\n")
  endif()
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/gpuperf-programs.txt CONTENT
"# Written by gpuperf_add_tests() (CMake): this build's programs and baseline folder, for the scripts'
# --build-dir (update_baseline.sh, record_ncu.sh).
bench=$<TARGET_FILE:gpuperf_bench>
gate=$<TARGET_FILE:gpuperf::perf_gate>
${baselines_line}")
endfunction()
