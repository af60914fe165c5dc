# The formats' sources: the library below and the gate's libFuzzer target (which compiles them again,
# instrumented, in a build of its own) both take them from here.
set(gpuperf_formats_sources atomic_file.cpp case_listing.cpp escape.cpp fingerprint.cpp foreign_names.cpp json_fields.cpp json_input.cpp names.cpp nearest_name.cpp results_context.cpp runtime_folder.cpp)
list(TRANSFORM gpuperf_formats_sources PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
