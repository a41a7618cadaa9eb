# SPDX-License-Identifier: Apache-2.0
# The kit as a library in a project that chose its own toolchain, flags, start-up and linker
# script (docs/library.md), after add_subdirectory(<kit>) (or FetchContent):
#
#   baremark_add_library(NAME bmlib ARCH riscv|aarch64|armv7m|x86_64|hosted
#                        [SOURCES a.c ...] [BENCHMARK_DIRS dir ...]        # your code: BM_WARN_FLAGS
#                        [THIRD_PARTY a.c ...] [THIRD_PARTY_DIRS dir ...]  # not yours: no -Werror
#                        [THIRD_PARTY_FILES glob ...] [THIRD_PARTY_EXCLUDE glob ...]
#                        [INCLUDES dir ...] [DEFINES X=1 ...] [COMPILE_OPTIONS ...]
#                        [SELECT regex] [LABEL text] [BUILT_FOR hardware|qemu|qemu-icount|hosted])
#
# gives the static library <NAME>: the core (registry, harness, statistics, records and table, the
# guards that need no ownership of the machine), the arch's counter readers, the library's port
# (core/lib/bm_lib.c: console, timer and the run's end from bm_lib_run's config) and the selected
# benchmarks (the kit's benchmarks/ and the ones given, as an image holds them); linking it gives
# bm/lib.h's include folder. No start-up, vectors, linker script, console driver or board. The
# project's CMAKE_C_FLAGS apply (its -O, else BM_OPT). The registry is a C file generated before
# the archive is made (tools/bm-link --registry-c), so any linker script links it; for Make or an
# IDE, <NAME>.mk beside it lists every source, include folder and definition (docs/library.md).
include_guard(GLOBAL)

function(baremark_add_library)
  cmake_parse_arguments(PARSE_ARGV 0 FW "" "NAME;ARCH;SELECT;LABEL;BUILT_FOR"
                        "SOURCES;BENCHMARK_DIRS;THIRD_PARTY;THIRD_PARTY_DIRS;THIRD_PARTY_FILES;THIRD_PARTY_EXCLUDE;INCLUDES;DEFINES;COMPILE_OPTIONS")
  set(name ${FW_NAME})
  if(FW_UNPARSED_ARGUMENTS OR NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_.-]*$")
    message(FATAL_ERROR "baremark_add_library: NAME '${name}' is missing or not a target name, or unknown "
                        "arguments '${FW_UNPARSED_ARGUMENTS}'")
  endif()
  _bm_lib_arch(${name} "${FW_ARCH}" arch_srcs arch_incs arch_flags hosted)
  foreach(kind BENCHMARK_DIRS THIRD_PARTY_DIRS)
    foreach(d ${FW_${kind}})
      get_filename_component(abs "${d}" ABSOLUTE)
      if(NOT IS_DIRECTORY "${abs}")
        message(FATAL_ERROR "baremark_add_library(${name}): ${kind} '${d}' is not a folder")
      endif()
    endforeach()
  endforeach()
  execute_process(COMMAND ${BAREMARK_DIR}/tools/bm-link --check-select "${FW_SELECT}" RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(STRIP "${err}" err)
    message(FATAL_ERROR "baremark_add_library(${name}): ${err}")
  endif()
  set(built_for ${FW_BUILT_FOR})
  if(NOT built_for)
    set(built_for hardware)
    if(hosted)
      set(built_for hosted)
    endif()
  endif()
  if(NOT built_for IN_LIST BM_BUILT_FOR_VALUES)
    message(FATAL_ERROR "baremark_add_library(${name}): BUILT_FOR '${built_for}': one of ${BM_BUILT_FOR_VALUES}")
  endif()
  _bm_glob_c(kit_benches ${BAREMARK_DIR}/benchmarks)
  _bm_glob_c(own_dir ${FW_BENCHMARK_DIRS})
  _bm_pick_third_party(tp_dir)
  set(own ${kit_benches} ${FW_SOURCES} ${own_dir})
  set(tp ${FW_THIRD_PARTY} ${tp_dir})

  # The flags of every source of the library: the project's, then the kit's (its -O unless the
  # project's flags have one) and the library build's definitions.
  string(TOUPPER "${CMAKE_BUILD_TYPE}" cfg)
  set(opt ${BM_OPT})
  if("${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${cfg}}" MATCHES "(^| )-O")
    set(opt)
  endif()
  set(flags ${arch_flags} ${opt} ${BM_COMMON_FLAGS})
  set(defs BM_LIB=1 ARCH_USER_ISOLATED=0 ARCH_USER_STACK_BOUNDED=0 $<$<BOOL:${hosted}>:BM_HOSTED=1>)
  set(kit_defs BM_SAMPLES=${BM_SAMPLES} BM_MIN_BATCH_CYCLES=${BM_MIN_BATCH_CYCLES} BM_KIT_VERSION="${BAREMARK_VERSION}"
      BM_BENCH_TIMEOUT_MS=${BM_BENCH_TIMEOUT_MS} BM_HIST=$<BOOL:${BM_HIST}>)
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/${name}.gen)
  file(MAKE_DIRECTORY ${gen})

  # The benchmarks, compiled as an image's are (their folders and include/ on their path).
  add_library(${name}_benchmarks OBJECT ${own} ${tp})
  set_target_properties(${name}_benchmarks PROPERTIES EXPORT_COMPILE_COMMANDS ON)
  target_include_directories(${name}_benchmarks PRIVATE ${BAREMARK_DIR}/core/include ${arch_incs} ${FW_INCLUDES})
  set(bench_incs) # (the .mk's too)
  foreach(d ${FW_BENCHMARK_DIRS} ${FW_THIRD_PARTY_DIRS})
    get_filename_component(d ${d} ABSOLUTE)
    list(APPEND bench_incs ${d})
    foreach(sub include inc Inc)
      if(IS_DIRECTORY ${d}/${sub})
        list(APPEND bench_incs ${d}/${sub})
      endif()
    endforeach()
  endforeach()
  target_include_directories(${name}_benchmarks PRIVATE ${bench_incs})
  target_compile_definitions(${name}_benchmarks PRIVATE ${defs} ${FW_DEFINES})
  target_compile_options(${name}_benchmarks PRIVATE ${flags} ${FW_COMPILE_OPTIONS})
  set_source_files_properties(${own} TARGET_DIRECTORY ${name}_benchmarks PROPERTIES COMPILE_OPTIONS "${BM_WARN_FLAGS}")
  if(tp)
    set_source_files_properties(${tp} TARGET_DIRECTORY ${name}_benchmarks PROPERTIES COMPILE_OPTIONS "-Wno-error")
  endif()

  # The registry (which benchmarks, in name order; duplicates refused) and the build facts.
  add_custom_command(OUTPUT ${gen}/bm_registry.c
    COMMAND ${BAREMARK_DIR}/tools/bm-link --nm=${CMAKE_NM} "--select=${FW_SELECT}" --out ${gen}
            --registry-c ${gen}/bm_registry.c "$<TARGET_OBJECTS:${name}_benchmarks>"
    DEPENDS ${name}_benchmarks $<TARGET_OBJECTS:${name}_benchmarks> ${BAREMARK_DIR}/tools/bm-link
    COMMAND_EXPAND_LISTS VERBATIM COMMENT "The registry of ${name}")
  list(GET own 0 first_src)
  add_custom_target(${name}-build-info
    COMMAND ${BAREMARK_DIR}/tools/bm-build-info --out ${gen}/build_info.c --kit ${BAREMARK_DIR}
            --compile-commands ${CMAKE_BINARY_DIR}/compile_commands.json --source ${first_src}
            --target ${name}_benchmarks "--label=${FW_LABEL}" --built-for ${built_for}
    BYPRODUCTS ${gen}/build_info.c VERBATIM)
  if(NOT EXISTS ${gen}/build_info.c)
    file(WRITE ${gen}/build_info.c "/* written by tools/bm-build-info at build time */\n")
  endif()

  # The library: the kit's code with the kit's warnings, the benchmarks' objects, the registry.
  set(kit_srcs ${BM_CORE_SOURCES} ${BAREMARK_DIR}/core/lib/bm_lib.c ${arch_srcs})
  add_library(${name} STATIC ${kit_srcs} ${gen}/bm_registry.c ${gen}/build_info.c $<TARGET_OBJECTS:${name}_benchmarks>)
  add_dependencies(${name} ${name}-build-info)
  target_include_directories(${name} PUBLIC ${BAREMARK_DIR}/core/include)
  target_include_directories(${name} PRIVATE ${arch_incs} ${BAREMARK_DIR}/core)
  target_compile_definitions(${name} PRIVATE ${defs} ${kit_defs})
  target_compile_options(${name} PRIVATE ${flags} $<$<COMPILE_LANGUAGE:C>:${BM_KIT_WARN_FLAGS}>)
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C)
  if(hosted)
    target_link_libraries(${name} PUBLIC m)
  endif()
  # (one set of flags for every source in a Make project: the benchmarks' folders, DEFINES and
  # COMPILE_OPTIONS included, or what they need would be missing there)
  _bm_lib_export(${name} "${kit_srcs};${own};${tp};${gen}/bm_registry.c;${gen}/build_info.c"
                 "${BAREMARK_DIR}/core/include;${arch_incs};${BAREMARK_DIR}/core;${FW_INCLUDES};${bench_incs}"
                 "${defs};${kit_defs};${FW_DEFINES}" "${flags};${FW_COMPILE_OPTIONS}")
endfunction()

# The arch's part of a library: its counter readers (arch/<arch>/include) and its library cold
# path; hosted: this machine's CPU's (its host arch folder), its signals left to the program.
function(_bm_lib_arch name arch srcs_out incs_out flags_out hosted_out)
  set(hosted OFF)
  if(arch STREQUAL "hosted")
    cmake_host_system_information(RESULT cpu QUERY OS_PLATFORM)
    set(dir ${BAREMARK_DIR}/arch/host-${cpu})
    set(srcs ${dir}/arch.c ${BAREMARK_DIR}/arch/hosted/lib.c)
    set(hosted ON)
  elseif(arch MATCHES "^(riscv|aarch64|armv7m|x86_64)$")
    set(dir ${BAREMARK_DIR}/arch/${arch})
    set(srcs ${dir}/lib.c)
  else()
    message(FATAL_ERROR "baremark_add_library(${name}): ARCH '${arch}': use riscv, aarch64, armv7m, x86_64 or hosted")
  endif()
  if(NOT EXISTS ${dir}/arch.cmake)
    message(FATAL_ERROR "baremark_add_library(${name}): no ${dir}/arch.cmake for ARCH ${arch} on this machine")
  endif()
  include(${dir}/arch.cmake) # (variables only: BM_ARCH_INCLUDE, BM_ARCH_FLAGS)
  set(${srcs_out} ${srcs} PARENT_SCOPE)
  set(${incs_out} ${BM_ARCH_INCLUDE} PARENT_SCOPE)
  set(${flags_out} ${BM_ARCH_FLAGS} PARENT_SCOPE)
  set(${hosted_out} ${hosted} PARENT_SCOPE)
endfunction()

# <name>.mk beside the library, for a Make or IDE project that builds the same sources itself:
# BAREMARK_SOURCES, BAREMARK_INCLUDES, BAREMARK_DEFINES, BAREMARK_CFLAGS (the registry and the
# build facts are generated files of this tree: build the target once first).
function(_bm_lib_export name srcs incs defs flags)
  set(text "# Generated by baremark_add_library(NAME ${name}): what a Make or IDE project builds for it.\n")
  foreach(v SOURCES INCLUDES DEFINES CFLAGS)
    set(list ${srcs})
    if(v STREQUAL "INCLUDES")
      set(list ${incs})
    elseif(v STREQUAL "DEFINES")
      set(list ${defs})
    elseif(v STREQUAL "CFLAGS")
      set(list ${flags})
    endif()
    string(REPLACE "\"" "\\\"" list "${list}")
    list(JOIN list " \\\n  " joined)
    string(APPEND text "BAREMARK_${v} := \\\n  ${joined}\n")
  endforeach()
  file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${name}.mk CONTENT "${text}")
endfunction()
