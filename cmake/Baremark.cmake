# SPDX-License-Identifier: Apache-2.0
# Firmware images from benchmark sources, for any board, from the kit's own build or from a user's
# project (add_subdirectory or FetchContent of the kit; see examples/out-of-tree):
#
#   baremark_add_firmware(NAME myimg [BOARD hifive1] [LIBC picolibc|newlib|none]
#                         [SOURCES a.c ...] [BENCHMARK_DIRS dir ...]        # your code: BM_WARN_FLAGS
#                         [THIRD_PARTY a.c ...] [THIRD_PARTY_DIRS dir ...]  # not yours: no -Werror
#                         [THIRD_PARTY_FILES glob ...] [THIRD_PARTY_EXCLUDE glob ...]
#                         [INCLUDES dir ...] [DEFINES X=1 ...] [COMPILE_OPTIONS ...] [LIBRARIES ...]
#                         [SELECT regex] [LABEL text] [HEAP_BYTES n] [STACK_BYTES n] [NO_TESTS])
#
# gives <NAME>.elf/.bin/.hex/.map, a size report, targets <NAME>-run (boot under QEMU, stream the
# console, return the guest's status), <NAME>-debug (QEMU waiting for gdb), <NAME>-flash (boards
# that flash), <NAME>-size, and a ctest boot test <NAME>.boot; the first image of a project also
# gets the plain names run, debug, flash and size. All images of one build tree share its
# toolchain (one arch), so one project can build for several boards of that arch. LIBRARIES are
# for the code benchmarks call; a BM_BENCHMARK in an object library named there is registered
# like the image's own, one in a static library (named or reached through another library) or in
# an object library reached only through another library is refused at build time (it would
# never be linked, so it would never run); benchmark names are letters, digits and _.
#
# A suite whose programs each define main and share helper names (docs/firmware.md, "Third-party
# code"): each program's objects with its global names prefixed, as a library to give an image's
# LIBRARIES (a wrapper source of yours registers the renamed entry points, bm/wrap.h):
#   baremark_wrap_program(<target> PREFIX fir_ SOURCES upstream/fir/fir.c ... [BOARD b] [LIBC l]
#                         [INCLUDES dir ...] [DEFINES X=1 ...] [COMPILE_OPTIONS ...])
#
# For tests of your own beside an image (cmake/BaremarkBoard.cmake):
#   baremark_board_property(<board> <VAR> <out-var>)    a variable of its board.cmake or arch.cmake
#   bm_qemu_command(<out-var> <image> <board> [variant]) the QEMU line that boots the image
#   bm_runner(<out-var> <board>)                        the runner (tools/bm run) for the board
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/BaremarkToolchain.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/BaremarkOptions.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/BaremarkBoard.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/BaremarkLibrary.cmake) # baremark_add_library (docs/library.md)

# The module's constants are internal cache entries: global, so the functions below see them when
# a user's project calls them from its own folder (normal variables are per folder).
set(BAREMARK_VERSION 0.2.0 CACHE INTERNAL "")
set(BM_COMMON_FLAGS -g -ffunction-sections -fdata-sections -fno-common CACHE INTERNAL "")
set(BM_ICOUNT_ARGS -icount shift=0,sleep=off CACHE INTERNAL "")
set(BM_RUNNER ${BAREMARK_DIR}/tools/bm run CACHE INTERNAL "")
include(${BAREMARK_DIR}/core/sources.cmake)
set(_bm_core ${BM_CORE_SOURCE_NAMES})
list(TRANSFORM _bm_core PREPEND ${BAREMARK_DIR}/core/)
set(BM_CORE_SOURCES ${_bm_core} CACHE INTERNAL "")

# C++ benchmarks in the kit's own build (BM_BENCHMARK_DIRS): C++ is enabled when the arch's g++
# is there (a user's project names CXX in its project() call instead). Here, at file scope of the
# top folder, where enable_language must be called.
if(CMAKE_SOURCE_DIR STREQUAL BAREMARK_DIR AND NOT BM_BOARD STREQUAL "host" AND NOT CMAKE_CXX_COMPILER_LOADED)
  include(CheckLanguage)
  check_language(CXX)
  if(CMAKE_CXX_COMPILER)
    enable_language(CXX)
  endif()
endif()
# Freestanding C++: no exceptions, no RTTI, no guards around local statics and no atexit
# registration (nothing of the C++ runtime to link), as embedded C++ is written.
set(BM_CXX_FLAGS -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit CACHE INTERNAL "")
# The call graph with frame sizes (GCC's .ci files beside the objects) of an image's sources, the
# kit's and its LIBRARIES' that the project builds: the fit plan's stack figure (tools/bm-size).
set(BM_CALLGRAPH_FLAGS -fcallgraph-info=su CACHE INTERNAL "")

function(baremark_add_firmware)
  cmake_parse_arguments(PARSE_ARGV 0 FW "NO_TESTS" "NAME;BOARD;LIBC;SELECT;LABEL;HEAP_BYTES;STACK_BYTES"
                        "SOURCES;BENCHMARK_DIRS;THIRD_PARTY;THIRD_PARTY_DIRS;THIRD_PARTY_FILES;THIRD_PARTY_EXCLUDE;INCLUDES;DEFINES;COMPILE_OPTIONS;LIBRARIES")
  _bm_fw_resolve()
  _bm_fw_image(${FW_NAME} ${board} ${kit} "${own}" "${tp}")
  _bm_fw_link(${FW_NAME} ${board} "${select}" "${label}" ${built_for})
  _bm_fw_targets(${FW_NAME} ${board} ${built_for} "${FW_NO_TESTS}")
endfunction()

function(baremark_wrap_program target)
  cmake_parse_arguments(PARSE_ARGV 1 WP "" "PREFIX;BOARD;LIBC" "SOURCES;INCLUDES;DEFINES;COMPILE_OPTIONS")
  if(WP_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "baremark_wrap_program(${target}): unknown arguments '${WP_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT WP_PREFIX MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "baremark_wrap_program(${target}): PREFIX '${WP_PREFIX}' is missing or not the start of a C identifier")
  endif()
  if(NOT WP_SOURCES)
    message(FATAL_ERROR "baremark_wrap_program(${target}): no SOURCES")
  endif()
  set(board ${WP_BOARD})
  if(NOT board)
    set(board ${BM_BOARD})
  endif()
  _bm_board_load(${board})
  set(FW_LIBC ${WP_LIBC})
  _bm_fw_libc(${target} ${board} libc)
  _bm_kit_target(${board} ${libc} kit)
  # Compiled as the image's third-party sources are: the board's flags and the kit's headers.
  add_library(${target}_objects OBJECT ${WP_SOURCES})
  target_link_libraries(${target}_objects PRIVATE ${kit}_usage)
  target_include_directories(${target}_objects PRIVATE ${WP_INCLUDES})
  target_compile_definitions(${target}_objects PRIVATE ${WP_DEFINES})
  target_compile_options(${target}_objects PRIVATE ${WP_COMPILE_OPTIONS})
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.prefixed)
  file(MAKE_DIRECTORY ${dir})
  set(outs)
  list(LENGTH WP_SOURCES n)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    list(APPEND outs ${dir}/${i}.o)
  endforeach()
  string(REPLACE ";" "|" outs_arg "${outs}")
  add_custom_command(OUTPUT ${outs}
    COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DOBJCOPY=${CMAKE_OBJCOPY} -DPREFIX=${WP_PREFIX}
            "-DOBJECTS=$<JOIN:$<TARGET_OBJECTS:${target}_objects>,|>" "-DOUT=${outs_arg}"
            -P ${BAREMARK_DIR}/cmake/bm-prefix-symbols.cmake
    DEPENDS ${target}_objects $<TARGET_OBJECTS:${target}_objects> ${BAREMARK_DIR}/cmake/bm-prefix-symbols.cmake
    COMMENT "Prefixing the global names of ${target} with ${WP_PREFIX}" VERBATIM)
  set_source_files_properties(${outs} PROPERTIES EXTERNAL_OBJECT ON GENERATED ON)
  # A static library: the image links the objects its wrapper calls into (a program's main and
  # what that reaches).
  add_library(${target} STATIC ${outs})
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
endfunction()

# Step 1 of baremark_add_firmware, from its FW_* arguments, the options and the board: sets
# board, libc, select, label, built_for, kit (the kit's object library for the board and libc),
# own and tp (the benchmark sources: yours, and not yours) in the caller.
function(_bm_fw_resolve)
  if(FW_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "baremark_add_firmware: unknown arguments '${FW_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT FW_NAME OR NOT FW_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_.-]*$")
    message(FATAL_ERROR "baremark_add_firmware: NAME '${FW_NAME}' is missing or not a target name")
  endif()
  set(name ${FW_NAME})
  set(board ${FW_BOARD})
  if(NOT board)
    set(board ${BM_BOARD})
  endif()
  if(NOT board)
    message(FATAL_ERROR "baremark_add_firmware(${name}): no BOARD given and BM_BOARD is not set")
  endif()
  _bm_board_load(${board})
  _bm_fw_libc(${name} ${board} libc)
  # A user's project: the kit's options that pick what is built apply to its images too (the
  # kit's own build passes them itself), and the ones that cannot are said, not ignored.
  string(FIND "${CMAKE_CURRENT_SOURCE_DIR}/" "${BAREMARK_DIR}/" _at)
  set(users OFF)
  if(NOT _at EQUAL 0)
    set(users ON)
  endif()
  _bm_fw_select(${name} ${board} ${users} select)
  set(label "${FW_LABEL}")
  if(NOT label OR (users AND NOT "${BM_LABEL}" STREQUAL ""))
    set(label "${BM_LABEL}") # (given on the command line: it names this build, over the file's)
  endif()
  if(NOT label MATCHES "^[-A-Za-z0-9_.,:+=/@ ]*$")
    message(FATAL_ERROR "baremark_add_firmware(${name}): LABEL '${label}': use letters, digits, space and -_.,:+=/@ only.")
  endif()
  _bm_fw_built_for(${name} ${board} built_for)
  # A misspelled folder, or a keyword swallowed into the list (BENCHMARK_DIRS src SAMPLES 3), would
  # leave its benchmarks out of the image without a word.
  foreach(kind BENCHMARK_DIRS THIRD_PARTY_DIRS)
    foreach(d ${FW_${kind}})
      get_filename_component(abs "${d}" ABSOLUTE)
      if(NOT IS_DIRECTORY "${abs}")
        message(FATAL_ERROR "baremark_add_firmware(${name}): ${kind} '${d}' is not a folder "
                            "(absolute, or relative to ${CMAKE_CURRENT_SOURCE_DIR})")
      endif()
    endforeach()
  endforeach()
  _bm_kit_target(${board} ${libc} kit)
  # The kit's own build: its options name the third-party files and extra include folders of the
  # image that reads BM_THIRD_PARTY_DIRS (a user's project gives them as arguments).
  if(NOT users)
    foreach(v THIRD_PARTY_FILES THIRD_PARTY_EXCLUDE)
      if(NOT FW_${v} AND FW_THIRD_PARTY_DIRS AND "${FW_THIRD_PARTY_DIRS}" STREQUAL "${BM_THIRD_PARTY_DIRS}")
        set(FW_${v} ${BM_${v}})
      endif()
    endforeach()
    list(APPEND FW_INCLUDES ${BM_INCLUDE_DIRS})
    set(FW_INCLUDES "${FW_INCLUDES}" PARENT_SCOPE)
  endif()
  if((FW_THIRD_PARTY_FILES OR FW_THIRD_PARTY_EXCLUDE) AND NOT FW_THIRD_PARTY_DIRS)
    message(FATAL_ERROR "baremark_add_firmware(${name}): THIRD_PARTY_FILES/THIRD_PARTY_EXCLUDE pick files "
                        "of THIRD_PARTY_DIRS, and no THIRD_PARTY_DIRS is given")
  endif()
  _bm_glob_c(own_dir_srcs ${FW_BENCHMARK_DIRS})
  _bm_pick_third_party(tp_dir_srcs)
  set(own ${FW_SOURCES} ${own_dir_srcs})
  set(tp ${FW_THIRD_PARTY} ${tp_dir_srcs})
  _bm_fw_cxx(${name} ${board} ${own} ${tp})
  if(NOT own AND NOT tp)
    message(FATAL_ERROR "baremark_add_firmware(${name}): no benchmark sources (SOURCES, BENCHMARK_DIRS, THIRD_PARTY, THIRD_PARTY_DIRS)")
  endif()
  foreach(v board libc select label built_for kit own tp)
    set(${v} "${${v}}" PARENT_SCOPE)
  endforeach()
endfunction()

# C++ sources of an image need the CXX language enabled, from the arch's g++: refused here, when
# configured, naming what to install or what to add, not as a missing rule in the middle of the build.
function(_bm_fw_cxx name board)
  set(cxx)
  foreach(f ${ARGN})
    if(f MATCHES "\\.(cpp|cc|cxx|c\\+\\+)$")
      list(APPEND cxx ${f})
    endif()
  endforeach()
  if(NOT cxx)
    return()
  endif()
  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("CXX" IN_LIST langs)
    return()
  endif()
  list(GET cxx 0 first)
  _bm_get(${board} BM_ARCH)
  find_program(_gxx NAMES ${BM_CROSS}g++ NO_CACHE)
  if(NOT _gxx)
    set(pkg "g++")
    if(BM_CROSS MATCHES "^aarch64-linux-gnu-$")
      set(pkg g++-aarch64-linux-gnu)
    elseif(NOT BM_CROSS STREQUAL "")
      set(pkg "the package of ${BM_CROSS}gcc")
    endif()
    message(FATAL_ERROR "baremark_add_firmware(${name}): ${first} is C++, and ${board}'s arch (${BM_ARCH}) has no C++ "
                        "compiler here: ${BM_CROSS}g++ is missing. Install it (sudo apt-get install ${pkg}), or "
                        "leave the C++ sources out of this board's images.")
  endif()
  message(FATAL_ERROR "baremark_add_firmware(${name}): ${first} is C++, and C++ is not enabled in this project: "
                      "name CXX in its project() call, e.g. project(mine C CXX ASM)")
endfunction()

# The image's C library: LIBC, else BM_LIBC, else the board's default; a hosted board's own.
function(_bm_fw_libc name board out)
  _bm_get(${board} BM_HOSTED)
  _bm_get(${board} BM_LIBC_DEFAULT)
  set(libc ${FW_LIBC})
  if(NOT libc)
    set(libc ${BM_LIBC})
  endif()
  if(NOT libc)
    set(libc ${BM_LIBC_DEFAULT})
  endif()
  if(BM_HOSTED)
    set(libc hosted)
  elseif(NOT libc MATCHES "^(picolibc|newlib|none)$")
    message(FATAL_ERROR "baremark_add_firmware(${name}): LIBC '${libc}': use picolibc, newlib or none")
  endif()
  set(${out} ${libc} PARENT_SCOPE)
endfunction()

# The image's selection: SELECT, or in a user's project BM_SELECT, else the board's default
# suite (e.g. smaller on 16 KiB parts); a regex that bm-link cannot read is refused here, when
# the build is configured.
function(_bm_fw_select name board users out)
  set(select "${FW_SELECT}")
  if(users AND NOT "${BM_SELECT}" STREQUAL "")
    if(select STREQUAL "" OR select STREQUAL "${BM_SELECT}")
      set(select "${BM_SELECT}")
    else()
      message(WARNING "baremark_add_firmware(${name}): its SELECT '${select}' is used, not BM_SELECT '${BM_SELECT}'")
    endif()
  endif()
  if(users AND (BM_BENCHMARK_DIRS OR BM_THIRD_PARTY_DIRS OR BM_THIRD_PARTY_FILES OR BM_THIRD_PARTY_EXCLUDE
                OR BM_INCLUDE_DIRS))
    get_property(_said GLOBAL PROPERTY BM_USER_DIRS_SAID)
    if(NOT _said)
      set_property(GLOBAL PROPERTY BM_USER_DIRS_SAID ON)
      message(WARNING "BM_BENCHMARK_DIRS, BM_THIRD_PARTY_DIRS, BM_THIRD_PARTY_FILES, BM_THIRD_PARTY_EXCLUDE and "
                      "BM_INCLUDE_DIRS are read by the kit's own build only: in your project, give them to "
                      "baremark_add_firmware(... BENCHMARK_DIRS, THIRD_PARTY_DIRS, THIRD_PARTY_FILES, "
                      "THIRD_PARTY_EXCLUDE, INCLUDES ...)")
    endif()
  endif()
  if(select STREQUAL "")
    _bm_get(${board} BM_SELECT_DEFAULT)
    set(select "${BM_SELECT_DEFAULT}")
  endif()
  execute_process(COMMAND ${BAREMARK_DIR}/tools/bm-link --check-select "${select}"
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    string(STRIP "${_err}" _err)
    message(FATAL_ERROR "baremark_add_firmware(${name}): ${_err}")
  endif()
  set(${out} "${select}" PARENT_SCOPE)
endfunction()

# What the image is built for, as its meta record says: hosted, hardware, qemu-icount or qemu.
function(_bm_fw_built_for name board out)
  _bm_get(${board} BM_HOSTED)
  _bm_get(${board} BM_QEMU)
  _bm_get(${board} BM_FLASH)
  if(BM_FOR_HARDWARE AND NOT BM_HOSTED AND NOT BM_FLASH AND board MATCHES "^qemu-")
    # (its records would say built_for hardware of runs that can only be QEMU's)
    message(FATAL_ERROR "baremark_add_firmware(${name}): BM_FOR_HARDWARE=ON, but ${board} is a QEMU machine "
                        "with no hardware to run on. For a QEMU run that is not deterministic, use "
                        "-DBM_QEMU_ICOUNT=OFF instead (records say built_for qemu).")
  endif()
  if(BM_HOSTED)
    set(built_for hosted)
  elseif(NOT BM_QEMU OR BM_FOR_HARDWARE)
    set(built_for hardware)
  elseif(BM_QEMU_ICOUNT)
    set(built_for qemu-icount)
  else()
    set(built_for qemu)
  endif()
  if(NOT built_for IN_LIST BM_BUILT_FOR_VALUES) # (tools/bmlib/shared.py's BUILT_FOR: bm check takes no other)
    message(FATAL_ERROR "baremark_add_firmware(${name}): built_for '${built_for}' is not one of tools/bmlib/shared.py's "
                        "BUILT_FOR (${BM_BUILT_FOR_VALUES})")
  endif()
  set(${out} ${built_for} PARENT_SCOPE)
endfunction()

# The paths of ARGN under none of the folders in `dirs` (a prefix test: paths are not regexes).
function(_bm_outside out dirs)
  set(kept)
  foreach(x ${ARGN})
    set(in 0)
    foreach(t ${dirs})
      string(FIND "${x}" "${t}/" pos)
      if(pos EQUAL 0)
        set(in 1)
      endif()
    endforeach()
    if(NOT in)
      list(APPEND kept ${x})
    endif()
  endforeach()
  set(${out} ${kept} PARENT_SCOPE)
endfunction()

# Every C and C++ file (.c, .cpp, .cc, .cxx) under the given folders, recursively (re-globbed
# when files are added), but none from a build tree there (this one, or any folder with a
# CMakeCache.txt: `cmake -B build` inside the benchmarks' folder would otherwise build the kit's
# generated sources into every image twice). Assembly there is not built, and is named: it is one
# ISA's (give it to the images of its boards through SOURCES).
function(_bm_glob_c out)
  set(files)
  foreach(d ${ARGN})
    get_filename_component(d ${d} ABSOLUTE)
    file(GLOB_RECURSE trees ${d}/CMakeCache.txt)
    set(skip ${CMAKE_BINARY_DIR})
    foreach(t ${trees})
      get_filename_component(t ${t} DIRECTORY)
      list(APPEND skip ${t})
    endforeach()
    file(GLOB_RECURSE f CONFIGURE_DEPENDS ${d}/*.c ${d}/*.cpp ${d}/*.cc ${d}/*.cxx)
    file(GLOB_RECURSE other ${d}/*.S ${d}/*.s ${d}/*.asm)
    _bm_outside(f "${skip}" ${f})
    _bm_outside(other "${skip}" ${other})
    list(SORT f)
    list(APPEND files ${f})
    if(other)
      list(SORT other)
      string(REPLACE ";" ", " other "${other}")
      message(WARNING "not built: ${other}: C and C++ files are built from a benchmark folder, not assembly "
                      "(one ISA's: it goes to the images of its boards through SOURCES)")
    endif()
  endforeach()
  set(${out} ${files} PARENT_SCOPE)
endfunction()

# A glob as a regex over a path relative to its folder: `*` and `?` stay within one folder, `**/`
# is any number of folders (none included), `**` anything.
function(_bm_glob_regex out glob)
  string(REGEX REPLACE "([][.+^$(){}|\\])" "\\\\\\1" r "${glob}")
  # (in this order, through placeholders: no path holds a newline or a tab)
  set(from "**/" "**" "*" "?" "\n" "\t")
  set(to "\n" "\t" "[^/]*" "[^/]" "(.*/)?" ".*")
  foreach(f t IN ZIP_LISTS from to)
    string(REPLACE "${f}" "${t}" r "${r}")
  endforeach()
  set(${out} "^${r}$" PARENT_SCOPE)
endfunction()

# The sources of FW_THIRD_PARTY_DIRS: every .c file under each folder (_bm_glob_c), or those whose
# path relative to their folder matches a glob of FW_THIRD_PARTY_FILES, less those matching one of
# FW_THIRD_PARTY_EXCLUDE, so an upstream tree (every program with its own main, test drivers,
# ports for other systems) is built as it is. A glob that picks nothing is an error: a typo would
# otherwise drop benchmarks from the image without a word.
function(_bm_pick_third_party out)
  set(picked)
  foreach(kind FILES EXCLUDE)
    set(${kind}_hit)
  endforeach()
  foreach(d ${FW_THIRD_PARTY_DIRS})
    get_filename_component(d ${d} ABSOLUTE)
    _bm_glob_c(all ${d})
    foreach(f ${all})
      file(RELATIVE_PATH rel ${d} ${f})
      set(keep 1)
      foreach(kind FILES EXCLUDE)
        set(i 0)
        set(matched 0)
        foreach(g ${FW_THIRD_PARTY_${kind}})
          _bm_glob_regex(re "${g}")
          if(rel MATCHES "${re}")
            set(matched 1)
            list(APPEND ${kind}_hit ${i})
          endif()
          math(EXPR i "${i} + 1")
        endforeach()
        if((kind STREQUAL "FILES" AND FW_THIRD_PARTY_FILES AND NOT matched) OR (kind STREQUAL "EXCLUDE" AND matched))
          set(keep 0)
        endif()
      endforeach()
      if(keep)
        list(APPEND picked ${f})
      endif()
    endforeach()
  endforeach()
  foreach(kind FILES EXCLUDE)
    set(i 0)
    foreach(g ${FW_THIRD_PARTY_${kind}})
      if(NOT i IN_LIST ${kind}_hit)
        message(FATAL_ERROR "baremark_add_firmware(${FW_NAME}): THIRD_PARTY_${kind} '${g}' matches no source "
                            "under ${FW_THIRD_PARTY_DIRS} (globs are relative to the folder: * and ? within one "
                            "folder, **/ any folders)")
      endif()
      math(EXPR i "${i} + 1")
    endforeach()
  endforeach()
  set(${out} ${picked} PARENT_SCOPE)
endfunction()

# Step 2 of baremark_add_firmware: the executable <name>.elf from your sources (own, with
# BM_WARN_FLAGS), the others' (tp, without -Werror) and the kit, with the FW_* arguments'
# folders, includes, definitions, options and libraries.
function(_bm_fw_image name board kit own tp)
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/${name}.gen)
  file(MAKE_DIRECTORY ${gen})
  add_executable(${name} ${own} ${tp} ${gen}/build_info.c)
  set_target_properties(${name} PROPERTIES SUFFIX ".elf" RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
                        EXPORT_COMPILE_COMMANDS ON)
  target_link_libraries(${name} PRIVATE ${kit} ${FW_LIBRARIES})
  # Each benchmark folder is on the include path of the image, with its include/, inc/ and Inc/
  # (STM32Cube's) if it has them; other folders go in INCLUDES (BM_INCLUDE_DIRS in the kit's build).
  foreach(d ${FW_BENCHMARK_DIRS} ${FW_THIRD_PARTY_DIRS})
    get_filename_component(d ${d} ABSOLUTE)
    target_include_directories(${name} PRIVATE ${d})
    foreach(sub include inc Inc)
      if(IS_DIRECTORY ${d}/${sub})
        target_include_directories(${name} PRIVATE ${d}/${sub})
      endif()
    endforeach()
  endforeach()
  target_include_directories(${name} PRIVATE ${FW_INCLUDES})
  target_compile_definitions(${name} PRIVATE ${FW_DEFINES})
  _bm_get(${board} BM_SUITE_SMALL)
  if(BM_SUITE_SMALL)
    target_compile_definitions(${name} PRIVATE BM_SUITE_SMALL=1) # little RAM: the kit's suite scales down
  endif()
  # -fstack-usage and -fcallgraph-info=su: each function's frame and callees in <object>.su and .ci,
  # the stack figure of the fit plan (tools/bm-size; no change to the code).
  target_compile_options(${name} PRIVATE ${FW_COMPILE_OPTIONS} "$<$<COMPILE_LANGUAGE:CXX>:${BM_CXX_FLAGS}>" -fstack-usage
                         ${BM_CALLGRAPH_FLAGS})
  # Linked by the C driver, with or without C++ sources: g++ would add the C++ library, which
  # freestanding code does not call (and most bare-metal toolchains here do not ship).
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C)
  if(own)
    set_source_files_properties(${own} TARGET_DIRECTORY ${name} PROPERTIES COMPILE_OPTIONS "${BM_WARN_FLAGS}")
  endif()
  if(tp)
    set_source_files_properties(${tp} TARGET_DIRECTORY ${name} PROPERTIES COMPILE_OPTIONS "-Wno-error")
    # Each third-party source's benchmarks carry its real compile line (result "cflags"): the
    # source names a symbol (bm/bench.h's BM_TU_CFLAGS, one per file, whatever the image) that
    # tools/bm-build-info defines from compile_commands.json in the image's build_info.c.
    set(tu)
    foreach(s ${tp})
      get_filename_component(abs ${s} ABSOLUTE)
      string(MD5 h "${abs}")
      string(SUBSTRING ${h} 0 16 h)
      get_property(defs SOURCE ${s} TARGET_DIRECTORY ${name} PROPERTY COMPILE_DEFINITIONS)
      if(NOT "BM_TU_CFLAGS=bm_cflags_${h}" IN_LIST defs)
        set_property(SOURCE ${s} TARGET_DIRECTORY ${name} APPEND PROPERTY COMPILE_DEFINITIONS BM_TU_CFLAGS=bm_cflags_${h})
      endif()
      list(APPEND tu "--source-cflags=bm_cflags_${h}=${abs}")
    endforeach()
    set_property(TARGET ${name} PROPERTY _BM_TU_CFLAGS_ARGS "${tu}")
  endif()
endfunction()

# Step 2, the link: before it the registry (which benchmarks the image holds, in name order;
# duplicates refused naming both files), the scratch it needs, and the build facts for the meta
# record (the real compile line of its benchmark sources, the kit's version control id, the
# label); the memory map and linker scripts; after it the .bin, .hex and size report.
function(_bm_fw_link name board select label built_for)
  _bm_get(${board} BM_HOSTED)
  _bm_get(${board} BM_DIR)
  _bm_get(${board} BM_POST_BUILD)
  set(outdir ${CMAKE_CURRENT_BINARY_DIR})
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/${name}.gen)
  get_target_property(first_src ${name} SOURCES) # (its benchmark sources first)
  list(GET first_src 0 first_src)
  get_filename_component(first_src ${first_src} ABSOLUTE)
  # Libraries in LIBRARIES, and the libraries those reach, are worked out when the whole project
  # has been read (they may be defined after this call), into the image's _BM_LIBRARY_ARGS
  # (_bm_library_args). linker/common.ld's .bm_stray catches any registration that still gets past.
  set_property(TARGET ${name} PROPERTY _BM_LIBRARIES "${FW_LIBRARIES}")
  cmake_language(EVAL CODE "cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]] CALL _bm_library_args [[${name}]])")
  add_custom_command(TARGET ${name} PRE_LINK
    COMMAND ${BAREMARK_DIR}/tools/bm-link --nm=${CMAKE_NM} "--select=${select}"
            "$<TARGET_GENEX_EVAL:${name},$<TARGET_PROPERTY:${name},_BM_LIBRARY_ARGS>>"
            --out ${gen} --hosted $<BOOL:${BM_HOSTED}> "$<TARGET_OBJECTS:${name}>"
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR} COMMAND_EXPAND_LISTS VERBATIM)
  get_target_property(tu_cflags ${name} _BM_TU_CFLAGS_ARGS)
  if(NOT tu_cflags)
    set(tu_cflags)
  endif()
  add_custom_target(${name}-build-info
    COMMAND ${BAREMARK_DIR}/tools/bm-build-info --out ${gen}/build_info.c --kit ${BAREMARK_DIR}
            --compile-commands ${CMAKE_BINARY_DIR}/compile_commands.json --source ${first_src} --target ${name}
            "--label=${label}" --built-for ${built_for} ${tu_cflags}
    BYPRODUCTS ${gen}/build_info.c VERBATIM)
  add_dependencies(${name} ${name}-build-info)
  set_source_files_properties(${gen}/build_info.c TARGET_DIRECTORY ${name} PROPERTIES GENERATED ON)
  file(TOUCH ${gen}/bm_registry.ld ${gen}/bm_unselected.ld ${gen}/bm_stray.ld)
  if(NOT EXISTS ${gen}/build_info.c)
    file(WRITE ${gen}/build_info.c "/* written by tools/bm-build-info at build time */\n")
  endif()

  target_link_options(${name} PRIVATE -Wl,-Map=${outdir}/${name}.map -L${gen})
  _bm_fw_sizes(${name} ${gen}) # (checked on a hosted board too, where the process's heap and stack serve)
  if(BM_HOSTED)
    # The system's linker script, with the registry inserted after .rodata.
    target_link_options(${name} PRIVATE -Wl,-T,${gen}/bm_hosted.ld)
    file(TOUCH ${gen}/bm_hosted.ld)
    return()
  endif()
  # Every section placed by name (linker/common.ld): an unplaced one fails the link.
  target_link_options(${name} PRIVATE -L${BAREMARK_DIR}/linker -T${BM_DIR}/memory.ld -Wl,--orphan-handling=error)
  set_property(TARGET ${name} APPEND PROPERTY LINK_DEPENDS ${BM_DIR}/memory.ld ${BAREMARK_DIR}/linker/common.ld
               ${gen}/bm_image.ld)
  # The link through bm-size: an image that does not fit its board prints the fit plan (what each
  # benchmark needs, a BM_SELECT that fits), is left unbuilt (<name>.not-built says why) and the
  # tree's build goes on; the steps after the link then have nothing to do.
  set(bm_size ${BAREMARK_DIR}/tools/bm-size --size ${CMAKE_SIZE})
  set(own_select)
  if(NOT "${FW_SELECT}" STREQUAL "")
    set(own_select --select-of ${name}) # (the plan names the image's SELECT, not BM_SELECT)
  endif()
  string(REPLACE ";" " " launch "${bm_size} ${own_select} --link ${outdir}/${name}.elf --")
  set_property(TARGET ${name} PROPERTY RULE_LAUNCH_LINK "${launch}")
  set(if_built ${bm_size} --if-built ${name}.elf --)
  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND ${if_built} ${CMAKE_OBJCOPY} -O binary ${name}.elf ${name}.bin
    COMMAND ${if_built} ${CMAKE_OBJCOPY} -O ihex ${name}.elf ${name}.hex
    COMMAND ${if_built} ${bm_size} ${name}.elf
    WORKING_DIRECTORY ${outdir} BYPRODUCTS ${outdir}/${name}.bin ${outdir}/${name}.hex ${outdir}/${name}.map VERBATIM)
  if(BM_POST_BUILD)
    _bm_subst(post "${BM_POST_BUILD}" ${name} ${outdir} ${board})
    add_custom_command(TARGET ${name} POST_BUILD COMMAND ${if_built} ${post} WORKING_DIRECTORY ${outdir} VERBATIM)
  endif()
endfunction()

# The image's heap and stack sizes (HEAP_BYTES, STACK_BYTES, else BM_HEAP_BYTES, BM_STACK_BYTES,
# else the board's memory.ld) as linker/common.ld's per-image include, <gen>/bm_image.ld. An image
# without a C library's malloc (libc none) has no heap. Reads FW_* and libc from the caller.
function(_bm_fw_sizes name gen)
  set(text "/* Generated by cmake/Baremark.cmake: this image's sizes (empty: its board's). */\n")
  foreach(kind HEAP STACK)
    set(v "${FW_${kind}_BYTES}")
    if(v STREQUAL "")
      set(v "${BM_${kind}_BYTES}")
    endif()
    if(NOT v MATCHES "^(|0|[1-9][0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?)$")
      message(FATAL_ERROR "baremark_add_firmware(${name}): ${kind}_BYTES '${v}' must be a whole number of bytes")
    endif()
    # (the heap's end is malloc's alignment; the benchmarks' frames need a floor: the kit's own
    # frames on their stack take some 100-200 bytes of it)
    if(NOT v STREQUAL "")
      math(EXPR rem "${v} % 16")
      if(NOT rem EQUAL 0)
        message(FATAL_ERROR "baremark_add_firmware(${name}): ${kind}_BYTES ${v} must be a multiple of 16 bytes")
      endif()
      if(kind STREQUAL "STACK" AND v LESS 256)
        message(FATAL_ERROR "baremark_add_firmware(${name}): STACK_BYTES ${v} leaves benchmark code no room for "
                            "its frames: at least 256 bytes (or none given: the board's)")
      endif()
    endif()
    if(kind STREQUAL "HEAP" AND libc STREQUAL "none")
      if(NOT v STREQUAL "" AND NOT v STREQUAL "0")
        message(FATAL_ERROR "baremark_add_firmware(${name}): a heap of ${v} bytes (HEAP_BYTES, BM_HEAP_BYTES), and the image "
                            "is built with BM_LIBC=none, which has no malloc: use BM_LIBC=picolibc (or newlib), or no "
                            "heap (HEAP_BYTES 0 on this image, or BM_HEAP_BYTES left empty)")
      endif()
      set(v 0)
    endif()
    if(NOT v STREQUAL "")
      string(TOLOWER ${kind} k)
      string(APPEND text "__bm_${k}_bytes = ${v};\n")
    endif()
  endforeach()
  file(GENERATE OUTPUT ${gen}/bm_image.ld CONTENT "${text}")
endfunction()

# The bm-link arguments of image `name` for its LIBRARIES, when the project has been read: every
# library they reach, through INTERFACE_LINK_LIBRARIES (a static library's own dependencies are
# there too, as $<LINK_ONLY:...>), aliases resolved. An object library named there has its
# objects linked whole, so its benchmarks are registered like the image's objects; a static
# library's members are linked only when called, and an object library reached through another
# library is not linked at all (CMake links its objects only into the targets that name it), so a
# BM_BENCHMARK in either would never run: they are scanned (--library, --unlinked) and bm-link
# refuses one.
function(_bm_library_args name)
  get_target_property(todo ${name} _BM_LIBRARIES)
  set(direct 1)
  set(seen)
  set(args)
  while(todo)
    set(next)
    foreach(l IN LISTS todo)
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" l "${l}")
      if(l MATCHES "\\.a$" AND NOT l MATCHES "^\\$<") # a static library by its path
        list(APPEND args "--library=${l}")
        continue()
      endif()
      if(NOT l MATCHES "^[A-Za-z0-9_.+:-]+$" OR l MATCHES "^-" OR NOT TARGET ${l})
        continue() # not a target (a flag, a system library, a generator expression): linked as is
      endif()
      get_target_property(real ${l} ALIASED_TARGET)
      if(real)
        set(l ${real})
      endif()
      if(l IN_LIST seen)
        continue()
      endif()
      list(APPEND seen ${l})
      get_target_property(type ${l} TYPE)
      get_target_property(imported ${l} IMPORTED)
      if(NOT imported AND type MATCHES "^(STATIC|OBJECT)_LIBRARY$") # (its call graph for the fit plan)
        target_compile_options(${l} PRIVATE $<$<COMPILE_LANG_AND_ID:C,GNU>:${BM_CALLGRAPH_FLAGS}>
                               $<$<COMPILE_LANG_AND_ID:CXX,GNU>:${BM_CALLGRAPH_FLAGS}>)
      endif()
      if(type STREQUAL "STATIC_LIBRARY")
        list(APPEND args "--library=$<TARGET_FILE:${l}>")
      elseif(type STREQUAL "OBJECT_LIBRARY" AND direct)
        list(APPEND args "$<TARGET_OBJECTS:${l}>")
      elseif(type STREQUAL "OBJECT_LIBRARY")
        list(APPEND args "--unlinked=$<JOIN:$<TARGET_OBJECTS:${l}>,$<SEMICOLON>--unlinked=>")
        add_dependencies(${name} ${l}) # (not a link dependency: built for the scan)
      endif()
      get_target_property(deps ${l} INTERFACE_LINK_LIBRARIES)
      if(deps)
        list(APPEND next ${deps})
      endif()
    endforeach()
    set(todo ${next})
    set(direct 0)
  endwhile()
  set_property(TARGET ${name} PROPERTY _BM_LIBRARY_ARGS "${args}")
endfunction()

# <name>.board.json beside the image: what a host tool needs to run it elsewhere (a LAVA job, a
# lab's script): the board, its QEMU line (the image's path in it, deterministic flags included
# when built so) and variants, how QEMU's status maps to the guest's, the flash command.
function(_bm_board_json name board built_for)
  _bm_get(${board} BM_QEMU_VARIANTS)
  _bm_get(${board} BM_EXIT_MAP)
  _bm_get(${board} BM_FLASH)
  _bm_get(${board} BM_QEMU_PACKAGE)
  get_target_property(outdir ${name} RUNTIME_OUTPUT_DIRECTORY)
  bm_qemu_command(qemu ${name} ${board})
  macro(_json_list out list)
    set(${out} "")
    foreach(_a ${list})
      string(REPLACE "\\" "\\\\" _a "${_a}")
      string(REPLACE "\"" "\\\"" _a "${_a}")
      string(APPEND ${out} "\"${_a}\", ")
    endforeach()
    string(REGEX REPLACE ", $" "" ${out} "${${out}}")
  endmacro()
  _json_list(q "${qemu}")
  set(variants "")
  foreach(v ${BM_QEMU_VARIANTS})
    bm_qemu_command(vq ${name} ${board} ${v})
    _json_list(vj "${vq}")
    string(APPEND variants "\"${v}\": [${vj}], ")
  endforeach()
  string(REGEX REPLACE ", $" "" variants "${variants}")
  _bm_subst(flash "${BM_FLASH}" ${name} ${outdir} ${board})
  _json_list(f "${flash}")
  file(WRITE ${outdir}/${name}.board.json "{\n  \"board\": \"${board}\",\n  \"image\": \"${outdir}/${name}.elf\",\n"
    "  \"built_for\": \"${built_for}\",\n  \"qemu\": [${q}],\n  \"qemu_variants\": {${variants}},\n"
    "  \"qemu_package\": \"${BM_QEMU_PACKAGE}\",\n  \"exit_map\": \"${BM_EXIT_MAP}\",\n  \"flash\": [${f}]\n}\n")
endfunction()

# Step 3 of baremark_add_firmware: <name>.board.json, the targets <name>-run, -debug, -flash and
# -size (and the plain names for the first image of the project), the ctest boot test unless
# no_tests.
function(_bm_fw_targets name board built_for no_tests)
  _bm_board_json(${name} ${board} ${built_for})
  _bm_get(${board} BM_FLASH)
  _bm_get(${board} BM_HOSTED)
  _bm_get(${board} BM_QEMU)
  bm_qemu_command(qemu ${name} ${board})
  bm_runner(runner ${board})
  get_target_property(outdir ${name} RUNTIME_OUTPUT_DIRECTORY)
  set(targets)
  if(NOT BM_HOSTED)
    add_custom_target(${name}-size COMMAND ${BAREMARK_DIR}/tools/bm-size --size ${CMAKE_SIZE} ${name}.elf
      WORKING_DIRECTORY ${outdir} DEPENDS ${name} VERBATIM)
    list(APPEND targets ${name}-size)
  endif()
  # -run streams the console (records hidden on a terminal, BM_SHOW=all shows them) and saves all
  # of it as <name>.run.log; bm run exits with the firmware's status, which Ninja (the presets'
  # generator) reports as 1 and make as 2 for any failure (tools/bm run --board-json
  # <name>.board.json returns it unchanged). Through the board.json, as that command: an image the
  # fit plan left unbuilt is refused with the plan's reason (status 2), nothing is booted and the
  # console saved before is kept. USES_TERMINAL: Ninja's console pool, so the console streams as
  # it arrives and Ctrl-C reaches QEMU (other pools buffer a command's output).
  set(run_it ${runner} --save ${outdir}/${name}.run.log --board-json ${outdir}/${name}.board.json)
  if(BM_HOSTED)
    add_custom_target(${name}-run COMMAND ${run_it} DEPENDS ${name} USES_TERMINAL VERBATIM)
    add_custom_target(${name}-debug COMMAND gdb --args ${outdir}/${name}.elf DEPENDS ${name} USES_TERMINAL VERBATIM)
    list(APPEND targets ${name}-run ${name}-debug)
  elseif(qemu)
    add_custom_target(${name}-run COMMAND ${run_it}
      DEPENDS ${name} USES_TERMINAL VERBATIM COMMENT "Booting ${name}.elf on ${board} under QEMU; Ctrl-C stops it")
    # (an image the fit plan left unbuilt: "not built" and why, status 1, as the run target; bm-size --boot-test)
    add_custom_target(${name}-debug
      COMMAND ${CMAKE_COMMAND} -E echo "QEMU waits for gdb on :1234. In another shell: gdb-multiarch ${outdir}/${name}.elf -ex 'target remote :1234'"
      COMMAND ${BAREMARK_DIR}/tools/bm-size --boot-test ${outdir}/${name}.elf -- ${qemu} -s -S
      DEPENDS ${name} USES_TERMINAL VERBATIM)
    list(APPEND targets ${name}-run ${name}-debug)
    if(TARGET bm_qemu_model) # (the run loads the cache model's plugin: cmake/BaremarkModel.cmake)
      add_dependencies(${name}-run bm_qemu_model)
    endif()
  endif()
  if(BM_FLASH)
    _bm_subst(flash "${BM_FLASH}" ${name} ${outdir} ${board})
    if(built_for STREQUAL "hardware")
      add_custom_target(${name}-flash COMMAND ${flash} DEPENDS ${name} USES_TERMINAL VERBATIM)
    else()
      # The records of a flashed image must not say they came from QEMU.
      add_custom_target(${name}-flash
        COMMAND ${CMAKE_COMMAND} -E echo "flash: ${name}.elf was built for ${built_for}; configure with -DBM_FOR_HARDWARE=ON to flash it"
        COMMAND ${CMAKE_COMMAND} -E false VERBATIM)
    endif()
    list(APPEND targets ${name}-flash)
  endif()
  foreach(t ${targets})
    string(REPLACE "${name}-" "" plain ${t})
    if(NOT TARGET ${plain})
      add_custom_target(${plain})
      add_dependencies(${plain} ${t})
    endif()
  endforeach()
  if(NOT no_tests AND BM_QEMU)
    # (an image that did not fit: the test says "not built" and why, bm-size --link)
    set(if_built ${BAREMARK_DIR}/tools/bm-size --boot-test ${outdir}/${name}.elf --)
    if(BM_HOSTED)
      set(if_built)
    endif()
    add_test(NAME ${name}.boot COMMAND ${if_built} ${runner} --quiet --check -- ${qemu})
    set_tests_properties(${name}.boot PROPERTIES TIMEOUT 600)
  endif()
endfunction()
