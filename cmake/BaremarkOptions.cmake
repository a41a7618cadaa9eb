# User-facing options, validated here so a typo gets a clear message instead of a broken build.
set(BM_LIBC "picolibc" CACHE STRING "C library for firmware: picolibc or none (the core needs none)")
set_property(CACHE BM_LIBC PROPERTY STRINGS picolibc none)
option(BM_QEMU_ICOUNT "Run QEMU deterministically (-icount shift=0): cycles = instructions, repeatable" OFF)
set(BM_SAMPLES 1000 CACHE STRING "Timed batches per benchmark")
set(BM_MIN_BATCH_CYCLES 2000 CACHE STRING "Calibration: a timed batch lasts at least this many cycles")
set(BM_QEMU_TIMEOUT 120 CACHE STRING "Seconds a QEMU run may take before the runner kills it")

if(NOT BM_LIBC MATCHES "^(picolibc|none)$")
  message(FATAL_ERROR "BM_LIBC='${BM_LIBC}' is not supported: use picolibc or none.")
endif()
foreach(_opt BM_SAMPLES BM_MIN_BATCH_CYCLES BM_QEMU_TIMEOUT)
  if(NOT ${_opt} MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "${_opt}='${${_opt}}' must be a positive whole number.")
  endif()
endforeach()
if(BM_SAMPLES GREATER 100000000)
  message(FATAL_ERROR "BM_SAMPLES=${BM_SAMPLES} is too large (at most 100000000).")
endif()

# Warnings are errors on every toolchain.
set(BM_WARN_FLAGS -Wall -Wextra -Werror)

if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()
# Host builds (unit tests, tools) run under AddressSanitizer and UBSan.
set(BM_HOST_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
