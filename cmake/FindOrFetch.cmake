# GoogleTest, Google Benchmark and nlohmann-json: found where they are installed, else built from a pinned
# release, else a configure error that says what to install (docs/dependencies.md).
#
# gpuperf_find_or_fetch(<package>...)    <package>: GTest, benchmark, nlohmann_json
#   For each: its targets if the project already has them (a parent project's FetchContent or CPM); else
#   find_package(<package> [<minimum version>]) (system packages, conda, Spack, CMAKE_PREFIX_PATH); else its
#   release below, built with this project by FetchContent: from FETCHCONTENT_SOURCE_DIR_<NAME> where given
#   (nothing is downloaded), else downloaded and checked against its SHA-256, unless downloading is off
#   (GPUPERF_FETCH_DEPENDENCIES=OFF, or FETCHCONTENT_FULLY_DISCONNECTED=ON without an earlier download).
#   What is left is one FATAL_ERROR naming the packages to install on each platform.
#   The packages it built are appended to the global property GPUPERF_FETCHED_PACKAGES.
#
# gpuperf_install_dependency_config(<destination>)
#   Installs gpuperfDependencies.cmake into <destination> (the package's CMake folder): the find_dependency()
#   calls of the installed package, which find each library where this build took it from (see there).
include_guard(GLOBAL)
include(FetchContent)
include(CMakePackageConfigHelpers)

option(GPUPERF_FETCH_DEPENDENCIES
       "Download the pinned release of GoogleTest, Google Benchmark or nlohmann-json when find_package finds none (OFF: stop and name the packages to install)"
       ON)
# One attempt per release, bounded: offline, FetchContent's own download retries for 90 s and then stops
# with a stack trace that names no package. [seconds]
set(GPUPERF_DOWNLOAD_TIMEOUT 120 CACHE STRING "Seconds a dependency's release may take to download before the configure names the packages to install")
set(GPUPERF_DOWNLOAD_INACTIVITY_TIMEOUT 15 CACHE STRING "Seconds a dependency's download may go without progress")

# The releases, pinned by the SHA-256 of their archives. googletest and benchmark: the archives of their
# release tags, the same bytes as `git archive --format=tar --prefix=<name>-<version>/ <tag> | gzip -n` of
# the tag; nlohmann-json: json.tar.xz, the release's CMake-ready asset (sources and CMake files, 110 KB;
# the tag's archive carries 8 MB of test data).
set(_gpuperf_GTest_content googletest)
set(_gpuperf_GTest_release 1.15.2)
set(_gpuperf_GTest_url https://github.com/google/googletest/releases/download/v1.15.2/googletest-1.15.2.tar.gz)
set(_gpuperf_GTest_sha256 7b42b4d6ed48810c5362c265a17faebe90dc2373c885e5216439d37927f02926)
set(_gpuperf_GTest_minimum "")
set(_gpuperf_GTest_targets GTest::gtest GTest::gtest_main)
set(_gpuperf_GTest_label "GoogleTest")

set(_gpuperf_benchmark_content benchmark)
set(_gpuperf_benchmark_release 1.8.5)
set(_gpuperf_benchmark_url https://github.com/google/benchmark/archive/refs/tags/v1.8.5.tar.gz)
set(_gpuperf_benchmark_sha256 d26789a2b46d8808a48a4556ee58ccc7c497fcd4c0af9b90197674a81e04798a)
set(_gpuperf_benchmark_minimum "")
set(_gpuperf_benchmark_targets benchmark::benchmark)
set(_gpuperf_benchmark_label "Google Benchmark")

set(_gpuperf_nlohmann_json_content nlohmann_json)
set(_gpuperf_nlohmann_json_release 3.11.3)
set(_gpuperf_nlohmann_json_url https://github.com/nlohmann/json/releases/download/v3.11.3/json.tar.xz)
set(_gpuperf_nlohmann_json_sha256 d6c65aca6b1ed68e7a182f4757257b107ae403032760ed6ef121c9d55e81757d)
set(_gpuperf_nlohmann_json_minimum 3.11)
set(_gpuperf_nlohmann_json_targets nlohmann_json::nlohmann_json)
set(_gpuperf_nlohmann_json_label "nlohmann-json >= 3.11")

# What to install instead, per platform: the development packages that give find_package the package.
# RHEL's come from EPEL; Spack's are found once loaded (spack load).
set(_gpuperf_platforms debian fedora conda spack)
set(_gpuperf_debian_how "Debian/Ubuntu:       apt-get install")
set(_gpuperf_fedora_how "Fedora, RHEL (EPEL): dnf install")
set(_gpuperf_conda_how "conda-forge:         conda install -c conda-forge")
set(_gpuperf_spack_how "Spack:               spack install")
set(_gpuperf_GTest_packages libgtest-dev gtest-devel gtest googletest)
set(_gpuperf_benchmark_packages libbenchmark-dev google-benchmark-devel benchmark benchmark)
set(_gpuperf_nlohmann_json_packages nlohmann-json3-dev json-devel nlohmann_json nlohmann-json)

# The options of each release's own build: the library alone (no tests, docs or gmock), no -Werror of
# theirs (a newer compiler's warning must not stop ours), installed with the harness where the harness is.
macro(_gpuperf_fetch_options package)
  if(GPUPERF_INSTALL)
    set(_gpuperf_install ON)
  else()
    set(_gpuperf_install OFF)
  endif()
  if(${package} STREQUAL GTest)
    set(BUILD_GMOCK OFF)
    set(INSTALL_GTEST ${_gpuperf_install})
  elseif(${package} STREQUAL benchmark)
    set(BENCHMARK_ENABLE_TESTING OFF)
    set(BENCHMARK_ENABLE_GTEST_TESTS OFF)
    set(BENCHMARK_ENABLE_WERROR OFF)
    set(BENCHMARK_INSTALL_DOCS OFF)
    set(BENCHMARK_ENABLE_INSTALL ${_gpuperf_install})
  elseif(${package} STREQUAL nlohmann_json)
    set(JSON_BuildTests OFF)
    set(JSON_Install ${_gpuperf_install})
  endif()
endmacro()

# The options are normal variables of this function's scope, which the releases' option() calls take
# (policy CMP0077, NEW in each of them); nothing lands in the cache.
function(gpuperf_find_or_fetch)
  set(missing "")
  foreach(package IN LISTS ARGN)
    if(NOT DEFINED _gpuperf_${package}_content)
      message(FATAL_ERROR "gpuperf_find_or_fetch(): unknown package '${package}' (known: GTest, benchmark, nlohmann_json)")
    endif()
    set(have_targets ON)
    foreach(target IN LISTS _gpuperf_${package}_targets)
      if(NOT TARGET ${target})
        set(have_targets OFF)
      endif()
    endforeach()
    if(have_targets)
      continue()
    endif()
    find_package(${package} ${_gpuperf_${package}_minimum} QUIET)
    if(${package}_FOUND)
      continue()
    endif()

    set(content ${_gpuperf_${package}_content})
    string(TOUPPER ${content} content_upper)
    set(release "${content} ${_gpuperf_${package}_release}")
    if(FETCHCONTENT_SOURCE_DIR_${content_upper})
      set(from "${FETCHCONTENT_SOURCE_DIR_${content_upper}} (FETCHCONTENT_SOURCE_DIR_${content_upper})")
    elseif(FETCHCONTENT_FULLY_DISCONNECTED AND EXISTS "${FETCHCONTENT_BASE_DIR}/${content}-src/CMakeLists.txt")
      set(from "${release}, downloaded before into ${FETCHCONTENT_BASE_DIR}/${content}-src")
    elseif(GPUPERF_FETCH_DEPENDENCIES AND NOT FETCHCONTENT_FULLY_DISCONNECTED)
      _gpuperf_download_release(${package} archive failure)
      if(failure)
        list(APPEND missing ${package})
        list(APPEND download_failures "${failure}")
        continue()
      endif()
      set(from "${release}, downloaded from ${_gpuperf_${package}_url}")
    else()
      list(APPEND missing ${package})
      continue()
    endif()
    set(url ${_gpuperf_${package}_url})
    if(DEFINED archive)
      set(url "file://${archive}")  # downloaded and checked above: FetchContent only unpacks it
      unset(archive)
    endif()
    message(STATUS "gpuperf: find_package(${package}) found no ${_gpuperf_${package}_label}: building ${from}")
    # SYSTEM: their headers are not ours to warn about. First, as CMake 3.25 passes what follows the URL's
    # options on to them (SYSTEM after URL_HASH became part of the hash).
    FetchContent_Declare(${content} SYSTEM
      URL ${url}
      URL_HASH SHA256=${_gpuperf_${package}_sha256}
      DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
    _gpuperf_fetch_options(${package})
    FetchContent_MakeAvailable(${content})
    set_property(GLOBAL APPEND PROPERTY GPUPERF_FETCHED_PACKAGES ${package})
  endforeach()

  if(missing)
    list(JOIN download_failures "; " download_failures)
    _gpuperf_missing_message(text "${missing}" "${download_failures}")
    message(FATAL_ERROR "${text}")
  endif()
endfunction()

# Downloads the pinned release of <package> once, into FETCHCONTENT_BASE_DIR/downloads/ (kept: a later
# configure reuses it), within GPUPERF_DOWNLOAD_TIMEOUT; checks its SHA-256. Sets <out_archive> to the file,
# or <out_failure> to why it could not (offline, a proxy, a server that refused). A file whose hash is not
# the pinned one stops the configure.
function(_gpuperf_download_release package out_archive out_failure)
  set(url ${_gpuperf_${package}_url})
  set(sha256 ${_gpuperf_${package}_sha256})
  get_filename_component(name "${url}" NAME)
  set(archive "${FETCHCONTENT_BASE_DIR}/downloads/${_gpuperf_${package}_content}-${name}")
  set(${out_failure} "" PARENT_SCOPE)
  set(${out_archive} "${archive}" PARENT_SCOPE)
  if(EXISTS "${archive}")
    file(SHA256 "${archive}" actual)
    if(actual STREQUAL sha256)
      return()
    endif()
  endif()
  message(STATUS "gpuperf: downloading ${url}")
  file(DOWNLOAD "${url}" "${archive}.part" STATUS status TIMEOUT ${GPUPERF_DOWNLOAD_TIMEOUT}
       INACTIVITY_TIMEOUT ${GPUPERF_DOWNLOAD_INACTIVITY_TIMEOUT})
  list(GET status 0 code)
  if(NOT code EQUAL 0)
    list(GET status 1 why)
    file(REMOVE "${archive}.part")
    set(${out_failure} "${url}: ${why}" PARENT_SCOPE)
    return()
  endif()
  file(SHA256 "${archive}.part" actual)
  if(NOT actual STREQUAL sha256)
    file(REMOVE "${archive}.part")
    message(FATAL_ERROR "${url} is not the release the harness pins (SHA-256 expected: '${sha256}' actual: "
                        "'${actual}'): a proxy or mirror gave other bytes. Fetch it from elsewhere and give its "
                        "sources (-DFETCHCONTENT_SOURCE_DIR_<NAME>), or install the package (docs/dependencies.md)")
  endif()
  file(RENAME "${archive}.part" "${archive}")
endfunction()

# The configure error for the packages in <missing>: why, then one install command per platform, then the
# other ways out.
function(_gpuperf_missing_message out missing download_failures)
  set(labels "")
  set(releases "")
  set(source_options "")
  foreach(package IN LISTS missing)
    list(APPEND labels "${_gpuperf_${package}_label}")
    list(APPEND releases "${_gpuperf_${package}_content} ${_gpuperf_${package}_release}")
    string(TOUPPER ${_gpuperf_${package}_content} content_upper)
    string(APPEND source_options "\n  -DFETCHCONTENT_SOURCE_DIR_${content_upper}=<its source folder>")
  endforeach()
  list(LENGTH labels count)
  if(count EQUAL 1)
    set(their "its pinned release")
    set(them "it")
  else()
    set(their "their pinned releases")
    set(them "them")
  endif()
  list(POP_BACK labels last)
  list(JOIN labels ", " labels)
  if(labels)
    set(labels "${labels} and ${last}")
  else()
    set(labels "${last}")
  endif()
  list(JOIN releases ", " releases)
  if(download_failures)
    set(allow "")
  elseif(NOT GPUPERF_FETCH_DEPENDENCIES AND FETCHCONTENT_FULLY_DISCONNECTED)
    set(off "GPUPERF_FETCH_DEPENDENCIES=OFF, FETCHCONTENT_FULLY_DISCONNECTED=ON")
    set(allow "-DGPUPERF_FETCH_DEPENDENCIES=ON -DFETCHCONTENT_FULLY_DISCONNECTED=OFF")
  elseif(NOT GPUPERF_FETCH_DEPENDENCIES)
    set(off "GPUPERF_FETCH_DEPENDENCIES=OFF")
    set(allow "-DGPUPERF_FETCH_DEPENDENCIES=ON")
  else()
    set(off "FETCHCONTENT_FULLY_DISCONNECTED=ON")
    set(allow "-DFETCHCONTENT_FULLY_DISCONNECTED=OFF")
  endif()
  if(download_failures)
    string(CONCAT text "The harness needs ${labels}, which find_package() did not find, and downloading ${their} "
                       "failed (${download_failures}). Install ${them} with one of:\n")
  else()
    string(CONCAT text "The harness needs ${labels}, which find_package() did not find, and downloading ${their} is "
                       "off (${off}). Install ${them} with one of:\n")
  endif()
  set(index 0)
  foreach(platform IN LISTS _gpuperf_platforms)
    set(names "")
    foreach(package IN LISTS missing)
      list(GET _gpuperf_${package}_packages ${index} name)
      string(APPEND names " ${name}")
    endforeach()
    string(APPEND text "  ${_gpuperf_${platform}_how}${names}\n")
    math(EXPR index "${index} + 1")
  endforeach()
  if(allow)
    set(download "let the build download ${them} (${allow})")
  else()
    set(download "configure again where ${them} can be downloaded")
  endif()
  string(APPEND text "and configure again (a prefix outside CMake's default paths: -DCMAKE_PREFIX_PATH=<prefix>). "
                     "Or ${download}, or give the sources (${releases}):${source_options}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(_gpuperf_dependency_template "${CMAKE_CURRENT_LIST_DIR}/gpuperfDependencies.cmake.in")
function(gpuperf_install_dependency_config destination)
  get_property(GPUPERF_FETCHED_PACKAGES GLOBAL PROPERTY GPUPERF_FETCHED_PACKAGES)
  configure_package_config_file(${_gpuperf_dependency_template} ${PROJECT_BINARY_DIR}/gpuperfDependencies.cmake
                                INSTALL_DESTINATION ${destination})
  install(FILES ${PROJECT_BINARY_DIR}/gpuperfDependencies.cmake DESTINATION ${destination})
endfunction()
