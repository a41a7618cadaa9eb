# SPDX-License-Identifier: Apache-2.0
# User-facing options, validated here so a typo gets a clear message naming the option instead
# of a broken build or a silently different one. The defaults are tools/bmlib/shared.py's
# (BM_DEFAULT_*, generated into BaremarkShared.cmake), which the firmware and bm run take too.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/BaremarkShared.cmake)

set(BM_LIBC "" CACHE STRING "C library for firmware: picolibc, newlib or none (empty: the board's default)")
set_property(CACHE BM_LIBC PROPERTY STRINGS "" picolibc newlib none)
set(BM_OPT "-O2" CACHE STRING "Optimisation flag of the kit and the benchmarks (-O0..-O3, -Os, -Oz, -Og, -Ofast)")
set(BM_QEMU_ICOUNT ON CACHE STRING "Run QEMU deterministically (-icount shift=0,sleep=off): cycles = instructions")
set(BM_FOR_HARDWARE OFF CACHE STRING "Build for the real board, not its QEMU model (records say built_for=hardware)")
set(BM_SAMPLES ${BM_DEFAULT_SAMPLES} CACHE STRING "Timed batches per benchmark")
set(BM_HIST ${BM_DEFAULT_HIST} CACHE STRING "A hist record (the whole distribution) after each ok result; OFF for slow links")
set(BM_SERVE OFF CACHE STRING "A served image: after its meta record it runs the benchmarks the console's commands name")
set(BM_MIN_BATCH_CYCLES ${BM_DEFAULT_MIN_BATCH_CYCLES} CACHE STRING "Calibration: a timed batch lasts at least this many cycles")
set(BM_QEMU_TIMEOUT_S ${BM_DEFAULT_QEMU_TIMEOUT_S} CACHE STRING "Seconds a QEMU run may go without a new record before the runner stops it")
set(BM_BENCH_TIMEOUT_MS ${BM_DEFAULT_BENCH_TIMEOUT_MS} CACHE STRING "Watchdog: a benchmark's time budget in ms, setup to teardown (0: none)")
set(BM_LABEL "" CACHE STRING "A label for this build, printed in the meta record (e.g. gcc12-O2)")
set(BM_SELECT "" CACHE STRING "Regular expression (Python re.search): the benchmarks an image contains (empty: all)")
set(BM_BENCHMARK_DIRS "" CACHE STRING "Folders of your own benchmarks, searched recursively for .c files")
set(BM_THIRD_PARTY_DIRS "" CACHE STRING "Folders of benchmark code you do not own: built without -Werror")
set(BM_THIRD_PARTY_FILES "" CACHE STRING "Globs (relative to a BM_THIRD_PARTY_DIRS folder) of the files to build there (empty: every .c)")
set(BM_THIRD_PARTY_EXCLUDE "" CACHE STRING "Globs (relative to a BM_THIRD_PARTY_DIRS folder) of files not to build there")
set(BM_INCLUDE_DIRS "" CACHE STRING "Extra include folders for the benchmark sources (absolute paths)")
set(BM_WARN_FLAGS "-Wall;-Wextra;-Werror" CACHE STRING "Warning flags for your own benchmark sources")
# Renamed options (old:new; the unit is in the new name): an old one given still works, with a
# warning naming the new one, and leaves the cache (given again, it is read again).
foreach(_r BM_QEMU_TIMEOUT:BM_QEMU_TIMEOUT_S)
  string(REPLACE ":" ";" _r "${_r}")
  list(GET _r 0 _old)
  list(GET _r 1 _new)
  if(DEFINED ${_old})
    message(WARNING "${_old} is now called ${_new} (the unit in its name): ${_new}=${${_old}} is used; "
                    "use -D${_new}=... instead.")
    set_property(CACHE ${_new} PROPERTY VALUE "${${_old}}")
    unset(${_old} CACHE)
    unset(${_old})
  endif()
endforeach()

# Booleans: CMake's own truth values only, so "maybe" or "yes please" is refused, not read as OFF.
foreach(_opt BM_QEMU_ICOUNT BM_FOR_HARDWARE BM_HIST BM_SERVE)
  string(TOUPPER "${${_opt}}" _v)
  if(NOT _v MATCHES "^(ON|OFF|TRUE|FALSE|YES|NO|Y|N|1|0)$")
    message(FATAL_ERROR "${_opt}='${${_opt}}' is not a boolean: use ON or OFF.")
  endif()
endforeach()
if(NOT BM_LIBC MATCHES "^(|picolibc|newlib|none)$")
  message(FATAL_ERROR "BM_LIBC='${BM_LIBC}' is not supported: use picolibc, newlib or none.")
endif()
if(NOT BM_OPT MATCHES "^-O([0-3sgz]|fast)?$")
  message(FATAL_ERROR "BM_OPT='${BM_OPT}' is not an optimisation flag: use -O0, -O1, -O2, -O3, -Os, -Oz, -Og or -Ofast "
                      "(other flags go in CMAKE_C_FLAGS).")
endif()
foreach(_opt BM_SAMPLES BM_MIN_BATCH_CYCLES BM_QEMU_TIMEOUT_S)
  if(NOT ${_opt} MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "${_opt}='${${_opt}}' must be a positive whole number.")
  endif()
endforeach()
string(LENGTH "${BM_BENCH_TIMEOUT_MS}" _len)
if(NOT BM_BENCH_TIMEOUT_MS MATCHES "^(0|[1-9][0-9]*)$" OR _len GREATER 9 OR BM_BENCH_TIMEOUT_MS GREATER 86400000)
  message(FATAL_ERROR "BM_BENCH_TIMEOUT_MS='${BM_BENCH_TIMEOUT_MS}' must be a whole number of ms, 0 (no watchdog) to 86400000.")
endif()
# Bounds: what the harness holds (u32 samples; a batch target the calibration can reach in u32
# repeats) and what a QEMU run can finish before its timeout.
if(BM_SAMPLES GREATER 10000000)
  message(FATAL_ERROR "BM_SAMPLES=${BM_SAMPLES} is too large (at most 10000000).")
endif()
string(LENGTH "${BM_MIN_BATCH_CYCLES}" _len)
if(_len GREATER 12 OR BM_MIN_BATCH_CYCLES GREATER 100000000000)
  message(FATAL_ERROR "BM_MIN_BATCH_CYCLES=${BM_MIN_BATCH_CYCLES} is too large (at most 100000000000).")
endif()
if(BM_QEMU_TIMEOUT_S GREATER 86400)
  message(FATAL_ERROR "BM_QEMU_TIMEOUT_S=${BM_QEMU_TIMEOUT_S} is too large (at most 86400 s).")
endif()
# (Whether a benchmark's samples fit in BM_QEMU_TIMEOUT_S is the board's question, at the board's
# measured rate: _bm_qemu_budget in cmake/BaremarkBoard.cmake.)
# The label goes into a C string and a JSON string: a small, safe alphabet.
if(NOT BM_LABEL MATCHES "^[-A-Za-z0-9_.,:+=/@ ]*$")
  message(FATAL_ERROR "BM_LABEL='${BM_LABEL}': use letters, digits, space and -_.,:+=/@ only.")
endif()
foreach(_var BM_BENCHMARK_DIRS BM_THIRD_PARTY_DIRS BM_INCLUDE_DIRS)
  foreach(_d ${${_var}})
    if(NOT IS_ABSOLUTE "${_d}")
      # (relative to what? the kit's folder has a benchmarks/ of its own, and a build re-runs
      # CMake from the build folder: only an absolute path means one folder)
      message(FATAL_ERROR "${_var}: '${_d}' is a relative path: give it absolute "
                          "(e.g. -D${_var}=\"$PWD/${_d}\").")
    endif()
    if(NOT IS_DIRECTORY "${_d}")
      message(FATAL_ERROR "${_var}: '${_d}' is not a folder.")
    endif()
  endforeach()
endforeach()

# Warnings are errors on the kit's own code, on every toolchain.
set(BM_KIT_WARN_FLAGS -Wall -Wextra -Werror CACHE INTERNAL "")
# Host builds (unit tests, tools) run under AddressSanitizer and UBSan.
set(BM_HOST_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer CACHE INTERNAL "")
