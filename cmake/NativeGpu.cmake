# CMAKE_CUDA_ARCHITECTURES=native (the dev preset, which `cmake --workflow --preset perf` configures) builds
# for the GPUs of this machine. Where it has none, each CUDA check of project() fails on its own (CMake
# 3.25 printed "no GPU was detected" 15 times) and never says what to do instead: checked once here, before
# project(), with one message.
#
# gpuperf_require_native_gpu()
#   Nothing unless "native" is among CMAKE_CUDA_ARCHITECTURES. Then the GPUs are those nvidia-smi -L lists
#   (GPUPERF_NVIDIA_SMI: found on PATH, or given), else, without nvidia-smi, the driver's
#   /proc/driver/nvidia/gpus/; none is a configure error naming the ci preset and the option.
include_guard(GLOBAL)

function(gpuperf_require_native_gpu)
  if(NOT "native" IN_LIST CMAKE_CUDA_ARCHITECTURES)
    return()
  endif()
  find_program(GPUPERF_NVIDIA_SMI nvidia-smi DOC "nvidia-smi, which lists the GPUs that CMAKE_CUDA_ARCHITECTURES=native builds for")
  if(GPUPERF_NVIDIA_SMI)
    execute_process(COMMAND "${GPUPERF_NVIDIA_SMI}" -L TIMEOUT 20 OUTPUT_VARIABLE listed ERROR_VARIABLE listed
                    RESULT_VARIABLE failed)
    string(REGEX MATCHALL "(^|\n)GPU [0-9]+:" gpus "${listed}")
    string(STRIP "${listed}" listed)
    set(seen "${GPUPERF_NVIDIA_SMI} -L: ${listed}")
  else()
    file(GLOB gpus /proc/driver/nvidia/gpus/*)
    set(seen "no nvidia-smi on PATH, and no GPU in /proc/driver/nvidia/gpus/")
  endif()
  if(gpus)
    return()
  endif()
  message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES is '${CMAKE_CUDA_ARCHITECTURES}' (the dev preset, which "
                      "`cmake --workflow --preset perf` configures), but no GPU was detected on this machine "
                      "(${seen}). On a machine without a GPU use `cmake --workflow --preset ci` (every "
                      "architecture; the GPU tests report skipped), or name the architectures to build for: "
                      "-DCMAKE_CUDA_ARCHITECTURES=90 (H100, H200)")
endfunction()
