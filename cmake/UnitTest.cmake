# gpuperf_add_unit_test(<name> SOURCES <files...> [LIBRARIES <targets...>])
#
# A GoogleTest executable of host-only code, registered with CTest as unit.<name> (label "unit"): it
# runs on every machine, GPU or not. Only the harness's own tests (GPUPERF_BUILD_TESTS): otherwise it
# makes nothing, and callers check if(TARGET unit_<name>) before adding to it.
function(gpuperf_add_unit_test name)
  if(NOT GPUPERF_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  set(target unit_${name})
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE ${ARG_LIBRARIES} gpuperf_warnings GTest::gtest_main)
  add_test(NAME unit.${name} COMMAND ${target})
  set_tests_properties(unit.${name} PROPERTIES LABELS unit TIMEOUT 120)
endfunction()
