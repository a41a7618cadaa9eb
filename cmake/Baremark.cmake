# Firmware images from benchmark sources, for any board, from the kit's own build or from a user's
# project (add_subdirectory or FetchContent of the kit; see examples/out-of-tree):
#
#   baremark_add_firmware(NAME myimg [BOARD hifive1] [LIBC picolibc|newlib|none]
#                         [SOURCES a.c ...] [BENCHMARK_DIRS dir ...]        # your code: BM_WARN_FLAGS
#                         [THIRD_PARTY a.c ...] [THIRD_PARTY_DIRS dir ...]  # not yours: no -Werror
#                         [INCLUDES dir ...] [DEFINES X=1 ...] [COMPILE_OPTIONS ...] [LIBRARIES ...]
#                         [SELECT regex] [LABEL text] [NO_TESTS])
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
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/BaremarkToolchain.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/BaremarkOptions.cmake)

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

# Variables a board.cmake may set (boards/template/board.cmake documents each one)...
set(_BM_BOARD_VARS BM_ARCH BM_CPU_FLAGS BM_BOARD_SOURCES BM_BOARD_LIBS BM_BOARD_DEFINES BM_HOSTED
    BM_LIBC_DEFAULT BM_QEMU BM_QEMU_VARIANTS BM_EXIT_MAP BM_FLASH BM_POST_BUILD BM_TEST_BAD_ADDRESS
    BM_TEST_FLASH_WRITE BM_SUITE_SMALL BM_SELECT_DEFAULT BM_REQUIRE_RAM_FREE CACHE INTERNAL "")
# ...and its arch.cmake.
set(_BM_ARCH_VARS BM_ARCH_SOURCES BM_ARCH_INCLUDE BM_ARCH_FLAGS BM_ARCH_LINK_FLAGS BM_HOSTED_ARCH
    BM_PICOLIBC_TRIPLE BM_QEMU_PACKAGE BM_CROSS BM_ICOUNT_COUNTS_INSNS CACHE INTERNAL "")

# Reads a board's board.cmake and its arch's arch.cmake once; their variables become global
# properties BM_<board>_<VAR> (lists kept as lists).
function(_bm_board_load board)
  get_property(_done GLOBAL PROPERTY BM_${board}_BM_DIR SET)
  if(_done)
    return()
  endif()
  bm_find_board(${board} _dir)
  foreach(_v ${_BM_BOARD_VARS} ${_BM_ARCH_VARS})
    unset(${_v})
  endforeach()
  set(BM_BOARD_DIR ${_dir})
  include(${_dir}/board.cmake)
  if(NOT BM_ARCH OR NOT EXISTS ${BAREMARK_DIR}/arch/${BM_ARCH}/arch.cmake)
    message(FATAL_ERROR "${_dir}/board.cmake: BM_ARCH='${BM_ARCH}' is not a folder under arch/ (see boards/template/board.cmake)")
  endif()
  if(NOT BM_BOARD_SOURCES)
    message(FATAL_ERROR "${_dir}/board.cmake: BM_BOARD_SOURCES is not set (board.c and the drivers it uses)")
  endif()
  if(NOT BM_HOSTED AND NOT EXISTS ${_dir}/memory.ld)
    message(FATAL_ERROR "${_dir}: memory.ld is missing (the board's FLASH/RAM regions, see boards/template)")
  endif()
  if(NOT BM_EXIT_MAP)
    set(BM_EXIT_MAP direct)
  endif()
  if(NOT BM_EXIT_MAP MATCHES "^(direct|isa-debug-exit)$")
    message(FATAL_ERROR "${_dir}/board.cmake: BM_EXIT_MAP='${BM_EXIT_MAP}': use direct or isa-debug-exit")
  endif()
  if(NOT BM_LIBC_DEFAULT)
    set(BM_LIBC_DEFAULT picolibc)
  endif()
  include(${BAREMARK_DIR}/arch/${BM_ARCH}/arch.cmake)
  bm_arch_link_cpu_flags(_link_cpu)
  if(NOT BM_HOSTED_ARCH AND NOT "${BM_CROSS}gcc" STREQUAL "${CMAKE_C_COMPILER}" AND
     NOT CMAKE_C_COMPILER MATCHES "/${BM_CROSS}gcc(-[0-9.]+)?$")
    message(FATAL_ERROR "Board ${board} needs the ${BM_CROSS}gcc toolchain (arch ${BM_ARCH}), but this build "
                        "tree compiles with ${CMAKE_C_COMPILER}. One build tree holds one toolchain: configure "
                        "another tree with -DBM_BOARD=${board} (or include cmake/BaremarkToolchain.cmake with "
                        "BM_BOARD=${board} before project()).")
  endif()
  if(BM_HOSTED_ARCH AND CMAKE_CROSSCOMPILING)
    message(FATAL_ERROR "Board ${board} runs on this machine (a hosted build with its own compiler), but this "
                        "build tree cross-compiles with ${CMAKE_C_COMPILER}. One build tree holds one toolchain: "
                        "configure another tree with -DBM_BOARD=${board} (e.g. cmake --preset ${board}).")
  endif()
  set_property(GLOBAL PROPERTY BM_${board}_BM_DIR ${_dir})
  set_property(GLOBAL PROPERTY BM_${board}_LINK_CPU_FLAGS "${_link_cpu}")
  foreach(_v ${_BM_BOARD_VARS} ${_BM_ARCH_VARS})
    set_property(GLOBAL PROPERTY BM_${board}_${_v} "${${_v}}")
  endforeach()
  foreach(_v ${BM_QEMU_VARIANTS})
    set_property(GLOBAL PROPERTY BM_${board}_BM_QEMU_${_v} "${BM_QEMU_${_v}}")
  endforeach()
endfunction()

macro(_bm_get board var)
  get_property(${var} GLOBAL PROPERTY BM_${board}_${var})
endmacro()

# The C library's compile and link flags for a board: _bm_libc_flags(<board> <libc> <cflags> <lflags>).
function(_bm_libc_flags board libc cout lout)
  _bm_get(${board} BM_HOSTED)
  _bm_get(${board} BM_PICOLIBC_TRIPLE)
  if(BM_HOSTED)
    set(c)
    set(l)
  elseif(libc STREQUAL "picolibc")
    set(specs /usr/lib/picolibc/${BM_PICOLIBC_TRIPLE}/picolibc.specs)
    if(NOT BM_PICOLIBC_TRIPLE OR NOT EXISTS ${specs})
      message(FATAL_ERROR "Board ${board}: BM_LIBC=picolibc, but ${specs} is missing: install the picolibc "
                          "package for this toolchain (tools/setup does), or configure with -DBM_LIBC=none.")
    endif()
    set(c --specs=${specs})
    set(l --specs=${specs} -nostartfiles)
  elseif(libc STREQUAL "newlib")
    # Debian ships newlib(-nano) for arm-none-eabi only: say so here, not as a missing spec
    # file in the middle of the build.
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=nano.specs OUTPUT_VARIABLE specs
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT IS_ABSOLUTE "${specs}")
      message(FATAL_ERROR "Board ${board}: BM_LIBC=newlib, but ${CMAKE_C_COMPILER} has no newlib (nano.specs): "
                          "Debian ships it for arm-none-eabi only. Use BM_LIBC=picolibc or none for this board.")
    endif()
    set(c --specs=nano.specs)
    set(l --specs=nano.specs -nostartfiles)
  else()
    # The kit's own string/ctype/stdlib (core/libc/none.c) and their headers, ahead of any system
    # header directory (the x86 boards compile with the host's gcc, whose /usr/include is glibc's).
    set(c -ffreestanding -isystem ${BAREMARK_DIR}/core/libc/none-include)
    set(l -nostartfiles -nolibc) # libgcc (64-bit division on 32-bit cores) still after the objects
  endif()
  set(${cout} "${c}" PARENT_SCOPE)
  set(${lout} "${l}" PARENT_SCOPE)
endfunction()

# The flags every C file of an image for <board> gets, in command-line order: the CPU, the arch,
# the optimisation (unless CMAKE_C_FLAGS or the build type already set one: theirs apply), the
# kit's common flags and the C library's.
function(_bm_compile_flags board libc out)
  _bm_get(${board} BM_CPU_FLAGS)
  _bm_get(${board} BM_ARCH_FLAGS)
  _bm_libc_flags(${board} ${libc} libc_c libc_l)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _cfg)
  set(opt ${BM_OPT})
  if("${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${_cfg}}" MATCHES "(^| )(-O[^ ]*)")
    if(NOT BM_OPT STREQUAL "-O2")
      # (both chose: the build type's flags would come last and win, and -Os would build -O3)
      message(FATAL_ERROR "BM_OPT=${BM_OPT} and ${CMAKE_MATCH_2} from CMAKE_C_FLAGS or CMAKE_BUILD_TYPE="
                          "${CMAKE_BUILD_TYPE} both set the optimisation: drop one")
    endif()
    set(opt)
  endif()
  set(${out} ${BM_CPU_FLAGS} ${BM_ARCH_FLAGS} ${opt} ${BM_COMMON_FLAGS} ${libc_c} PARENT_SCOPE)
endfunction()

# The kit for one board and C library: core, arch, board and libc as an object library
# bm_kit_<board>_<libc>, compiled once per build tree with the kit's own warnings.
function(_bm_kit_target board libc out)
  set(kit bm_kit_${board}_${libc})
  set(${out} ${kit} PARENT_SCOPE)
  if(TARGET ${kit})
    return()
  endif()
  _bm_get(${board} BM_DIR)
  _bm_get(${board} BM_HOSTED)
  _bm_get(${board} BM_ARCH_SOURCES)
  _bm_get(${board} BM_ARCH_INCLUDE)
  _bm_get(${board} BM_BOARD_SOURCES)
  _bm_get(${board} BM_BOARD_DEFINES)
  _bm_get(${board} BM_BOARD_LIBS)
  _bm_get(${board} BM_ARCH_LINK_FLAGS)
  _bm_get(${board} LINK_CPU_FLAGS)
  list(TRANSFORM BM_BOARD_SOURCES PREPEND ${BM_DIR}/)
  set(srcs ${BM_CORE_SOURCES} ${BM_ARCH_SOURCES} ${BM_BOARD_SOURCES})
  if(BM_HOSTED)
    list(APPEND srcs ${BAREMARK_DIR}/core/libc/hosted.c)
  else()
    list(APPEND srcs ${BAREMARK_DIR}/core/crt/bm_crt.c ${BAREMARK_DIR}/core/libc/${libc}.c)
  endif()
  _bm_compile_flags(${board} ${libc} cflags)
  _bm_libc_flags(${board} ${libc} libc_c libc_l)

  # What an image's own sources see too: includes and flags.
  add_library(${kit}_usage INTERFACE)
  target_include_directories(${kit}_usage INTERFACE ${BAREMARK_DIR}/core/include ${BM_ARCH_INCLUDE})
  target_compile_options(${kit}_usage INTERFACE ${cflags})
  target_link_options(${kit}_usage INTERFACE ${LINK_CPU_FLAGS} ${BM_ARCH_LINK_FLAGS} ${libc_l} -Wl,--gc-sections)
  if(BM_BOARD_LIBS)
    target_link_libraries(${kit}_usage INTERFACE ${BM_BOARD_LIBS})
  endif()

  add_library(${kit} OBJECT ${srcs})
  target_link_libraries(${kit} PUBLIC ${kit}_usage)
  target_include_directories(${kit} PRIVATE ${BAREMARK_DIR}/boards/drivers ${BM_DIR})
  target_compile_options(${kit} PRIVATE $<$<COMPILE_LANGUAGE:C>:${BM_KIT_WARN_FLAGS}>)
  target_compile_definitions(${kit} PRIVATE BM_BOARD_NAME="${board}" BM_SAMPLES=${BM_SAMPLES}
                             BM_MIN_BATCH_CYCLES=${BM_MIN_BATCH_CYCLES} BM_KIT_VERSION="${BAREMARK_VERSION}"
                             BM_BENCH_TIMEOUT_MS=${BM_BENCH_TIMEOUT_MS} BM_HIST=$<BOOL:${BM_HIST}>
                             ${BM_BOARD_DEFINES})
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

# Every .c file under the given folders, recursively (re-globbed when files are added), but
# none from a build tree there (this one, or any folder with a CMakeCache.txt: `cmake -B build`
# inside the benchmarks' folder would otherwise build the kit's generated sources into every
# image twice). Other sources there are not built, and are named: C++ is not the kit's
# language, and assembly is one ISA's (give it to the images of its boards through SOURCES).
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
    file(GLOB_RECURSE f CONFIGURE_DEPENDS ${d}/*.c)
    file(GLOB_RECURSE other ${d}/*.cpp ${d}/*.cc ${d}/*.cxx ${d}/*.c++ ${d}/*.S ${d}/*.s ${d}/*.asm)
    _bm_outside(f "${skip}" ${f})
    _bm_outside(other "${skip}" ${other})
    list(SORT f)
    list(APPEND files ${f})
    if(other)
      list(SORT other)
      string(REPLACE ";" ", " other "${other}")
      message(WARNING "not built: ${other}: only .c files are built from a benchmark folder (C++ is not "
                      "supported; assembly goes to the images of its boards through SOURCES)")
    endif()
  endforeach()
  set(${out} ${files} PARENT_SCOPE)
endfunction()

# Replaces the placeholders of a board command: @ELF@ @BIN@ @HEX@ (the image's files), @OUTDIR@
# (their folder), @DIR@ (the board's folder).
function(_bm_subst out cmd name outdir board)
  _bm_get(${board} BM_DIR)
  string(REPLACE "@ELF@" "${outdir}/${name}.elf" cmd "${cmd}")
  string(REPLACE "@BIN@" "${outdir}/${name}.bin" cmd "${cmd}")
  string(REPLACE "@HEX@" "${outdir}/${name}.hex" cmd "${cmd}")
  string(REPLACE "@OUTDIR@" "${outdir}" cmd "${cmd}")
  string(REPLACE "@NAME@" "${name}" cmd "${cmd}")
  string(REPLACE "@DIR@" "${BM_DIR}" cmd "${cmd}")
  set(${out} "${cmd}" PARENT_SCOPE)
endfunction()

# bm_qemu_command(<out> <image name> <board> [variant]): the board's QEMU line for an image built
# in this folder, with the deterministic flags when BM_QEMU_ICOUNT is on. Empty on hardware-only
# boards.
function(bm_qemu_command out name board)
  _bm_get(${board} BM_QEMU)
  set(cmd "${BM_QEMU}")
  if(ARGC GREATER 3)
    get_property(cmd GLOBAL PROPERTY BM_${board}_BM_QEMU_${ARGV3})
  endif()
  get_target_property(outdir ${name} RUNTIME_OUTPUT_DIRECTORY)
  _bm_subst(cmd "${cmd}" ${name} ${outdir} ${board})
  _bm_get(${board} BM_HOSTED)
  if(cmd AND BM_QEMU_ICOUNT AND NOT BM_HOSTED)
    list(APPEND cmd ${BM_ICOUNT_ARGS})
  endif()
  set(${out} "${cmd}" PARENT_SCOPE)
endfunction()

# bm_runner(<out> <board>): the runner command line (tools/bm run) for the board's exit map.
function(bm_runner out board)
  _bm_get(${board} BM_EXIT_MAP)
  _bm_get(${board} BM_QEMU_PACKAGE)
  if(NOT BM_QEMU_PACKAGE)
    set(BM_QEMU_PACKAGE libc-bin) # a hosted board: the runner starts the program itself
  endif()
  set(${out} ${BM_RUNNER} --exit-map ${BM_EXIT_MAP} --timeout ${BM_QEMU_TIMEOUT}
      --package ${BM_QEMU_PACKAGE} PARENT_SCOPE)
endfunction()

function(baremark_add_firmware)
  cmake_parse_arguments(PARSE_ARGV 0 FW "NO_TESTS" "NAME;BOARD;LIBC;SELECT;LABEL"
                        "SOURCES;BENCHMARK_DIRS;THIRD_PARTY;THIRD_PARTY_DIRS;INCLUDES;DEFINES;COMPILE_OPTIONS;LIBRARIES")
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
  _bm_get(${board} BM_HOSTED)
  _bm_get(${board} BM_DIR)
  _bm_get(${board} BM_LIBC_DEFAULT)
  _bm_get(${board} BM_QEMU)
  _bm_get(${board} BM_FLASH)
  _bm_get(${board} BM_POST_BUILD)
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
  # A user's project: the kit's options that pick what is built apply to its images too (the
  # kit's own build passes them itself), and the ones that cannot are said, not ignored.
  string(FIND "${CMAKE_CURRENT_SOURCE_DIR}/" "${BAREMARK_DIR}/" _at)
  set(_users OFF)
  if(NOT _at EQUAL 0)
    set(_users ON)
  endif()
  set(select "${FW_SELECT}")
  if(_users AND NOT "${BM_SELECT}" STREQUAL "")
    if(select STREQUAL "" OR select STREQUAL "${BM_SELECT}")
      set(select "${BM_SELECT}")
    else()
      message(WARNING "baremark_add_firmware(${name}): its SELECT '${select}' is used, not BM_SELECT '${BM_SELECT}'")
    endif()
  endif()
  if(_users AND (BM_BENCHMARK_DIRS OR BM_THIRD_PARTY_DIRS))
    get_property(_said GLOBAL PROPERTY BM_USER_DIRS_SAID)
    if(NOT _said)
      set_property(GLOBAL PROPERTY BM_USER_DIRS_SAID ON)
      message(WARNING "BM_BENCHMARK_DIRS/BM_THIRD_PARTY_DIRS are read by the kit's own build only: in your "
                      "project, name the folders in baremark_add_firmware(... BENCHMARK_DIRS ...)")
    endif()
  endif()
  if(select STREQUAL "")
    _bm_get(${board} BM_SELECT_DEFAULT) # the board's default suite (e.g. smaller on 16 KiB parts)
    set(select "${BM_SELECT_DEFAULT}")
  endif()
  execute_process(COMMAND ${BAREMARK_DIR}/tools/bm-link --check-select "${select}"
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    string(STRIP "${_err}" _err)
    message(FATAL_ERROR "baremark_add_firmware(${name}): ${_err}")
  endif()
  set(label "${FW_LABEL}")
  if(NOT label OR (_users AND NOT "${BM_LABEL}" STREQUAL ""))
    set(label "${BM_LABEL}") # (given on the command line: it names this build, over the file's)
  endif()
  if(NOT label MATCHES "^[-A-Za-z0-9_.,:+=/@ ]*$")
    message(FATAL_ERROR "baremark_add_firmware(${name}): LABEL '${label}': use letters, digits, space and -_.,:+=/@ only.")
  endif()
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
  _bm_glob_c(own_dir_srcs ${FW_BENCHMARK_DIRS})
  _bm_glob_c(tp_dir_srcs ${FW_THIRD_PARTY_DIRS})
  set(own ${FW_SOURCES} ${own_dir_srcs})
  set(tp ${FW_THIRD_PARTY} ${tp_dir_srcs})
  if(NOT own AND NOT tp)
    message(FATAL_ERROR "baremark_add_firmware(${name}): no benchmark sources (SOURCES, BENCHMARK_DIRS, THIRD_PARTY, THIRD_PARTY_DIRS)")
  endif()
  set(outdir ${CMAKE_CURRENT_BINARY_DIR})
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/${name}.gen)
  file(MAKE_DIRECTORY ${gen})

  add_executable(${name} ${own} ${tp} ${gen}/build_info.c)
  set_target_properties(${name} PROPERTIES SUFFIX ".elf" RUNTIME_OUTPUT_DIRECTORY ${outdir}
                        EXPORT_COMPILE_COMMANDS ON)
  target_link_libraries(${name} PRIVATE ${kit} ${FW_LIBRARIES})
  # Each benchmark folder is on the include path of the image, with its include/ if it has one.
  foreach(d ${FW_BENCHMARK_DIRS} ${FW_THIRD_PARTY_DIRS})
    get_filename_component(d ${d} ABSOLUTE)
    target_include_directories(${name} PRIVATE ${d})
    if(IS_DIRECTORY ${d}/include)
      target_include_directories(${name} PRIVATE ${d}/include)
    endif()
  endforeach()
  target_include_directories(${name} PRIVATE ${FW_INCLUDES})
  target_compile_definitions(${name} PRIVATE ${FW_DEFINES})
  _bm_get(${board} BM_SUITE_SMALL)
  if(BM_SUITE_SMALL)
    target_compile_definitions(${name} PRIVATE BM_SUITE_SMALL=1) # little RAM: the kit's suite scales down
  endif()
  target_compile_options(${name} PRIVATE ${FW_COMPILE_OPTIONS})
  if(own)
    set_source_files_properties(${own} TARGET_DIRECTORY ${name} PROPERTIES COMPILE_OPTIONS "${BM_WARN_FLAGS}")
  endif()
  if(tp)
    set_source_files_properties(${tp} TARGET_DIRECTORY ${name} PROPERTIES COMPILE_OPTIONS "-Wno-error")
  endif()

  # Before the link: the registry (which benchmarks the image holds, in name order; duplicates
  # refused naming both files), the scratch it needs, and the build facts for the meta record
  # (the real compile line of its benchmark sources, the kit's version control id, the label).
  set(first_src ${own} ${tp})
  list(GET first_src 0 first_src)
  get_filename_component(first_src ${first_src} ABSOLUTE)
  # Libraries in LIBRARIES, and the libraries those reach: an object library named there has its
  # objects linked whole, so its benchmarks are the image's like any source's (bm-link registers
  # them); a static library's members are linked only when called, and an object library reached
  # through another library is not linked at all (CMake links its objects only into the targets
  # that name it), so a BM_BENCHMARK in either would never run, and bm-link says so. Worked out
  # when the whole project has been read (the libraries may be defined after this call), into the
  # image's _BM_LIBRARY_ARGS. (linker/common.ld's .bm_stray catches any registration that still
  # gets past.)
  set_property(TARGET ${name} PROPERTY _BM_LIBRARIES "${FW_LIBRARIES}")
  cmake_language(EVAL CODE "cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]] CALL _bm_library_args [[${name}]])")
  add_custom_command(TARGET ${name} PRE_LINK
    COMMAND ${BAREMARK_DIR}/tools/bm-link --nm=${CMAKE_NM} "--select=${select}"
            "$<TARGET_GENEX_EVAL:${name},$<TARGET_PROPERTY:${name},_BM_LIBRARY_ARGS>>"
            --out ${gen} --hosted $<BOOL:${BM_HOSTED}> "$<TARGET_OBJECTS:${name}>"
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR} COMMAND_EXPAND_LISTS VERBATIM)
  add_custom_target(${name}-build-info
    COMMAND ${BAREMARK_DIR}/tools/bm-build-info --out ${gen}/build_info.c --kit ${BAREMARK_DIR}
            --compile-commands ${CMAKE_BINARY_DIR}/compile_commands.json --source ${first_src} --target ${name}
            "--label=${label}" --built-for ${built_for}
    BYPRODUCTS ${gen}/build_info.c VERBATIM)
  add_dependencies(${name} ${name}-build-info)
  set_source_files_properties(${gen}/build_info.c TARGET_DIRECTORY ${name} PROPERTIES GENERATED ON)
  file(TOUCH ${gen}/bm_registry.ld ${gen}/bm_unselected.ld ${gen}/bm_stray.ld)
  if(NOT EXISTS ${gen}/build_info.c)
    file(WRITE ${gen}/build_info.c "/* written by tools/bm-build-info at build time */\n")
  endif()

  target_link_options(${name} PRIVATE -Wl,-Map=${outdir}/${name}.map -L${gen})
  if(BM_HOSTED)
    # The system's linker script, with the registry inserted after .rodata.
    target_link_options(${name} PRIVATE -Wl,-T,${gen}/bm_hosted.ld)
    file(TOUCH ${gen}/bm_hosted.ld)
  else()
    # Every section placed by name (linker/common.ld): an unplaced one fails the link.
    target_link_options(${name} PRIVATE -L${BAREMARK_DIR}/linker -T${BM_DIR}/memory.ld -Wl,--orphan-handling=error)
    set_property(TARGET ${name} APPEND PROPERTY LINK_DEPENDS ${BM_DIR}/memory.ld ${BAREMARK_DIR}/linker/common.ld)
    add_custom_command(TARGET ${name} POST_BUILD
      COMMAND ${CMAKE_OBJCOPY} -O binary ${name}.elf ${name}.bin
      COMMAND ${CMAKE_OBJCOPY} -O ihex ${name}.elf ${name}.hex
      COMMAND ${BAREMARK_DIR}/tools/bm-size --size ${CMAKE_SIZE} ${name}.elf
      WORKING_DIRECTORY ${outdir} BYPRODUCTS ${outdir}/${name}.bin ${outdir}/${name}.hex ${outdir}/${name}.map VERBATIM)
    if(BM_POST_BUILD)
      _bm_subst(post "${BM_POST_BUILD}" ${name} ${outdir} ${board})
      add_custom_command(TARGET ${name} POST_BUILD COMMAND ${post} WORKING_DIRECTORY ${outdir} VERBATIM)
    endif()
  endif()
  _bm_image_targets(${name} ${board} ${built_for})
  if(NOT FW_NO_TESTS AND BM_QEMU)
    bm_qemu_command(qemu ${name} ${board})
    bm_runner(runner ${board})
    add_test(NAME ${name}.boot COMMAND ${runner} --quiet --check -- ${qemu})
    set_tests_properties(${name}.boot PROPERTIES TIMEOUT 600)
  endif()
endfunction()

# The bm-link arguments of image `name` for its LIBRARIES (see baremark_add_firmware), when the
# project has been read: every library they reach, through INTERFACE_LINK_LIBRARIES (a static
# library's own dependencies are there too, as $<LINK_ONLY:...>), aliases resolved. Static ones,
# named or reached, are scanned (--library); object ones named are registered like the image's
# objects, reached ones scanned (--unlinked).
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

# <name>-run, -debug, -flash, -size; the plain names for the first image of the project.
function(_bm_image_targets name board built_for)
  _bm_board_json(${name} ${board} ${built_for})
  _bm_get(${board} BM_FLASH)
  _bm_get(${board} BM_DIR)
  bm_qemu_command(qemu ${name} ${board})
  bm_runner(runner ${board})
  get_target_property(outdir ${name} RUNTIME_OUTPUT_DIRECTORY)
  _bm_get(${board} BM_HOSTED)
  set(targets)
  if(NOT BM_HOSTED)
    add_custom_target(${name}-size COMMAND ${BAREMARK_DIR}/tools/bm-size --size ${CMAKE_SIZE} ${name}.elf
      WORKING_DIRECTORY ${outdir} DEPENDS ${name} VERBATIM)
    list(APPEND targets ${name}-size)
  endif()
  if(BM_HOSTED)
    add_custom_target(${name}-run COMMAND ${runner} -- ${qemu} DEPENDS ${name} USES_TERMINAL VERBATIM)
    add_custom_target(${name}-debug COMMAND gdb --args ${outdir}/${name}.elf DEPENDS ${name} USES_TERMINAL VERBATIM)
    list(APPEND targets ${name}-run ${name}-debug)
  elseif(qemu)
    add_custom_target(${name}-run COMMAND ${runner} -- ${qemu}
      DEPENDS ${name} USES_TERMINAL VERBATIM COMMENT "Booting ${name}.elf on ${board} under QEMU; Ctrl-A X quits")
    add_custom_target(${name}-debug
      COMMAND ${CMAKE_COMMAND} -E echo "QEMU waits for gdb on :1234. In another shell: gdb-multiarch ${outdir}/${name}.elf -ex 'target remote :1234'"
      COMMAND ${qemu} -s -S DEPENDS ${name} USES_TERMINAL VERBATIM)
    list(APPEND targets ${name}-run ${name}-debug)
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
endfunction()
