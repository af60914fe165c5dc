# gpuperf_configure_version_header(<folder> <version>): writes <folder>/formats/version.h from version.h.in
# with <version> (MAJOR.MINOR.PATCH, the top-level project()'s), so that sources include "formats/version.h"
# with <folder> on their include path. Rewritten only when the version changes (configure_file leaves an
# unchanged file alone), so a configure run recompiles nothing.
function(gpuperf_configure_version_header folder version)
  if(NOT version MATCHES "^([0-9]+)\\.([0-9]+)\\.([0-9]+)$")
    message(FATAL_ERROR "gpuperf's version '${version}' is not MAJOR.MINOR.PATCH: set it in the top-level "
                        "project(gpuperf VERSION ...)")
  endif()
  set(GPUPERF_VERSION ${version})
  set(GPUPERF_VERSION_MAJOR ${CMAKE_MATCH_1})
  set(GPUPERF_VERSION_MINOR ${CMAKE_MATCH_2})
  set(GPUPERF_VERSION_PATCH ${CMAKE_MATCH_3})
  configure_file(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/version.h.in ${folder}/formats/version.h @ONLY)
endfunction()
