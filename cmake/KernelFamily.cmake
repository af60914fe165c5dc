# gpuperf_add_family(<name> SOURCES <files...> [LIBRARIES <targets...>])
#
# Builds one kernel family into a static library whose single entry point is
#   void gpuperf::register_<name>(gpuperf::Registry&);
# and records the family, so that perf_tests/ calls that function and gives the family a
# correctness test (correctness.<name>) and a perf test (perf.<name>). Adding a family is a
# folder under kernels/ with one call of this function, and one add_subdirectory line.
function(gpuperf_add_family name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  set(target gpuperf_family_${name})
  add_library(${target} STATIC ${ARG_SOURCES})
  target_link_libraries(${target} PUBLIC gpuperf_common PRIVATE gpuperf_warnings ${ARG_LIBRARIES})
  set_property(GLOBAL APPEND PROPERTY GPUPERF_FAMILIES ${name})
endfunction()
