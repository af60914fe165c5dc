# cmake --install <build> --prefix <prefix>: the harness as a CMake package a project finds with
# find_package(gpuperf 0.1 CONFIG) (README.md, "Use it in your repository"; docs/package.md):
#   lib/cmake/gpuperf/    gpuperfConfig.cmake, gpuperfConfigVersion.cmake (same major version), the
#                         targets gpuperf::..., gpuperfDependencies.cmake (where to find GoogleTest, Google
#                         Benchmark and nlohmann-json), KernelFamily.cmake (gpuperf_add_family), the name
#                         rule it checks (GpuperfNameRules.cmake) and the registry's template
#   lib/cmake/{GTest,benchmark}/, share/cmake/nlohmann_json/, ...   only those of the three libraries the
#                         build downloaded and built (cmake/FindOrFetch.cmake): their own install rules
#   lib/, include/gpuperf/, bin/perf_gate   the libraries and objects the generated programs link, the
#                         headers a family includes ("common/registry.h", ...; "formats/version.h", the
#                         harness's version, generated), the gate, and the capture library CUDA loads into
#                         a team's benchmark binary for its fingerprints (lib/libgpuperf_fingerprint_inject.so,
#                         found by perf_gate beside itself)
#   share/gpuperf/scripts/  what the generated tests and perf_gate run call (ci/with_ctest_gpu.sh,
#                         ncu_profile.sh), the scripts that record baselines for a project's build
#                         (update_baseline.sh, record_ncu.sh), and perf_test.sh and ab_compare.sh, wrappers
#                         of perf_gate run and ab-run kept for one release
include(CMakePackageConfigHelpers)

set(GPUPERF_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/gpuperf")
set(GPUPERF_INSTALL_SCRIPTSDIR "${CMAKE_INSTALL_DATADIR}/gpuperf/scripts")

# gpuperf_version's header set is the generated formats/version.h: installed beside the other formats
# headers (include/gpuperf/formats/version.h).
install(TARGETS gpuperf_formats gpuperf_version gpuperf_common gpuperf_harness gpuperf_gate gpuperf_gate_core
                gpuperf_gate_ledger gpuperf_gate_history gpuperf_gate_recording gpuperf_gate_ncu gpuperf_gate_fleet
                gpuperf_gate_phases gpuperf_gate_lab gpuperf_gate_reports gpuperf_gate_driver gpuperf_fingerprint
                gpuperf_cupti_capture gpuperf_fingerprint_inject gpuperf_bench_main gpuperf_correctness_main
                gpuperf_warnings perf_gate
        EXPORT gpuperfTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/gpuperf/objects
        FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpuperf)
install(EXPORT gpuperfTargets NAMESPACE gpuperf:: DESTINATION ${GPUPERF_INSTALL_CMAKEDIR})

# The headers, as the targets' include paths name them: formats/, common/, harness/, harness/fingerprint/,
# gate/<concept>/ (every folder of the gate but its tests and fuzz target).
file(GLOB_RECURSE gate_headers RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/perf_tests/gate/*.h)
list(FILTER gate_headers EXCLUDE REGEX "^perf_tests/gate/(tests|fuzz)/")
foreach(header IN LISTS gate_headers)
  get_filename_component(folder ${header} DIRECTORY)
  string(REGEX REPLACE "^perf_tests/" "" installed_folder ${folder})
  install(FILES ${PROJECT_SOURCE_DIR}/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpuperf/${installed_folder})
endforeach()
foreach(folder IN ITEMS perf_tests/formats kernels/common perf_tests/harness perf_tests/harness/fingerprint)
  file(GLOB headers ${PROJECT_SOURCE_DIR}/${folder}/*.h ${PROJECT_SOURCE_DIR}/${folder}/*.cuh)
  string(REGEX REPLACE "^(kernels|perf_tests)/" "" installed_folder ${folder})
  install(FILES ${headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpuperf/${installed_folder})
endforeach()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gpuperfConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/gpuperfConfig.cmake
                              INSTALL_DESTINATION ${GPUPERF_INSTALL_CMAKEDIR}
                              PATH_VARS GPUPERF_INSTALL_SCRIPTSDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpuperfConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
gpuperf_install_dependency_config(${GPUPERF_INSTALL_CMAKEDIR})
install(FILES ${PROJECT_BINARY_DIR}/gpuperfConfig.cmake ${PROJECT_BINARY_DIR}/gpuperfConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/KernelFamily.cmake ${PROJECT_SOURCE_DIR}/cmake/GpuperfNameRules.cmake
              ${PROJECT_SOURCE_DIR}/perf_tests/harness/all_families.cpp.in
        DESTINATION ${GPUPERF_INSTALL_CMAKEDIR})

set(scripts ${PROJECT_SOURCE_DIR}/scripts)
install(PROGRAMS ${scripts}/perf_test.sh ${scripts}/ncu_profile.sh ${scripts}/update_baseline.sh
                 ${scripts}/record_ncu.sh ${scripts}/ab_compare.sh
        DESTINATION ${GPUPERF_INSTALL_SCRIPTSDIR})
file(GLOB script_library ${scripts}/lib/*.sh)
install(PROGRAMS ${script_library} DESTINATION ${GPUPERF_INSTALL_SCRIPTSDIR}/lib)
# What a project's generated tests run (cmake/KernelFamily.cmake): each GPU test, and the fixture that lists
# the host's GPUs (unit.consumer_installed checks that every script KernelFamily.cmake names is here).
install(PROGRAMS ${scripts}/ci/with_ctest_gpu.sh ${scripts}/ci/resource_spec.sh
        DESTINATION ${GPUPERF_INSTALL_SCRIPTSDIR}/ci)
