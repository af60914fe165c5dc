# unit.versions: every program given prints "gpuperf <VERSION>" for --version, alone on stdout, and exits 0,
# with no GPU visible (CUDA_VISIBLE_DEVICES empty: a program that looked for one would exit 77). VERSION is
# the top-level project()'s, so the three programs and CMake's package version cannot drift apart.
#
#   cmake -DVERSION=0.1.0 -P check_versions.cmake PROGRAM...
if(NOT DEFINED VERSION)
  message(FATAL_ERROR "usage: cmake -DVERSION=X.Y.Z -P check_versions.cmake PROGRAM...")
endif()
# The programs are the arguments after the script's path (cmake ... -P <script> PROGRAM...).
set(programs)
set(first_program -1)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(first_program EQUAL -1 AND CMAKE_ARGV${i} STREQUAL "-P")
    math(EXPR first_program "${i} + 2")
  elseif(first_program GREATER 0 AND i GREATER_EQUAL first_program)
    list(APPEND programs "${CMAKE_ARGV${i}}")
  endif()
endforeach()
list(LENGTH programs count)
if(count EQUAL 0)
  message(FATAL_ERROR "no program given: cmake -DVERSION=X.Y.Z -P check_versions.cmake PROGRAM...")
endif()

set(failures 0)
foreach(program IN LISTS programs)
  get_filename_component(name "${program}" NAME)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env CUDA_VISIBLE_DEVICES= "${program}" --version
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 30)
  if(NOT code EQUAL 0 OR NOT out STREQUAL "gpuperf ${VERSION}\n" OR NOT err STREQUAL "")
    string(STRIP "${out}" out)
    string(STRIP "${err}" err)
    message(SEND_ERROR "${name} --version: exit ${code}, stdout '${out}', stderr '${err}'; expected exit 0 and "
                       "'gpuperf ${VERSION}' (the project's version) with nothing on stderr")
    math(EXPR failures "${failures} + 1")
  else()
    message(STATUS "${name} --version: gpuperf ${VERSION}")
  endif()
endforeach()
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} of ${count} programs do not print the project's version")
endif()
