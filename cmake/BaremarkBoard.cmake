# SPDX-License-Identifier: Apache-2.0
# What a board is to the build: its board.cmake and its arch's arch.cmake, read once; the kit's
# object library for a board and C library (core, arch, board, libc, with their flags); the
# board's QEMU and runner command lines. Included by cmake/Baremark.cmake.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/BaremarkModel.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/BaremarkEvents.cmake)

# Variables a board.cmake may set (boards/template/board.cmake documents each one)...
set(_BM_BOARD_VARS BM_ARCH BM_CPU_FLAGS BM_BOARD_SOURCES BM_BOARD_LIBS BM_BOARD_DEFINES BM_HOSTED
    BM_LIBC_DEFAULT BM_QEMU BM_QEMU_VARIANTS BM_QEMU_MCYCLES_PER_S BM_EXIT_MAP BM_FLASH BM_POST_BUILD BM_TEST_BAD_ADDRESS
    BM_TEST_FLASH_WRITE BM_TEST_CONSOLE_OFF BM_SUITE_SMALL BM_SELECT_DEFAULT BM_REQUIRE_RAM_FREE_BYTES
    BM_DESCRIPTION BM_RUNS_ON BM_PRESET_CACHE BM_PRESET_VARIANTS BM_CACHE_L1D BM_CACHE_L1I BM_CACHE_L2
    BM_EVENTS_DEFAULT BM_EVENT_CODES BM_CONSOLE_INPUT CACHE INTERNAL "")
# The console drivers that read (their getc, bm/port.h): a board whose console is one of them can
# be built served (BM_SERVE) without saying so.
set(_BM_CONSOLE_INPUT_DRIVERS uart_ns16550 uart_cmsdk CACHE INTERNAL "")
# ...under an older name (old:new, read with a warning naming the new one)...
set(_BM_BOARD_RENAMED BM_REQUIRE_RAM_FREE:BM_REQUIRE_RAM_FREE_BYTES CACHE INTERNAL "")
# ...and its arch.cmake.
set(_BM_ARCH_VARS BM_ARCH_SOURCES BM_ARCH_INCLUDE BM_ARCH_FLAGS BM_ARCH_LINK_FLAGS BM_HOSTED_ARCH
    BM_PICOLIBC_TRIPLE BM_QEMU_PACKAGE BM_CROSS BM_ICOUNT_COUNTS_INSNS BM_USER_ISOLATED
    BM_USER_STACK_BOUNDED BM_EVENT_SLOTS_MAX CACHE INTERNAL "")

# Reads a board's board.cmake and its arch's arch.cmake once; their variables become global
# properties BM_<board>_<VAR> (lists kept as lists).
function(_bm_board_load board)
  get_property(_done GLOBAL PROPERTY BM_${board}_BM_DIR SET)
  if(_done)
    return()
  endif()
  bm_find_board(${board} _dir)
  foreach(_v ${_BM_BOARD_VARS} ${_BM_ARCH_VARS} ${_BM_BOARD_RENAMED})
    string(REGEX REPLACE ":.*" "" _v "${_v}")
    unset(${_v})
  endforeach()
  set(BM_BOARD_DIR ${_dir})
  # What a board.cmake names the kit's code by, so that its folder builds wherever it is: the
  # drivers as ${BM_DRIVERS}/<driver>.c, a family's code as ${BM_FAMILIES}/<family>/<file>.c.
  set(BM_DRIVERS ${BAREMARK_DIR}/boards/drivers)
  set(BM_FAMILIES ${BAREMARK_DIR}/boards/families)
  include(${_dir}/board.cmake)
  _bm_board_check(${_dir})
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

# What a board.cmake must hold, and its defaults; in the scope of _bm_board_load (a macro: it
# sets the defaults and the renamed variables there).
macro(_bm_board_check dir)
  if(NOT BM_ARCH OR NOT EXISTS ${BAREMARK_DIR}/arch/${BM_ARCH}/arch.cmake)
    message(FATAL_ERROR "${dir}/board.cmake: BM_ARCH='${BM_ARCH}' is not a folder under arch/ (see boards/template/board.cmake)")
  endif()
  if(NOT BM_BOARD_SOURCES)
    message(FATAL_ERROR "${dir}/board.cmake: BM_BOARD_SOURCES is not set (board.c and the drivers it uses)")
  endif()
  if(NOT BM_HOSTED AND NOT EXISTS ${dir}/memory.ld)
    message(FATAL_ERROR "${dir}: memory.ld is missing (the board's FLASH/RAM regions, see boards/template)")
  endif()
  if(NOT BM_EXIT_MAP)
    set(BM_EXIT_MAP direct)
  endif()
  if(NOT BM_EXIT_MAP MATCHES "^(direct|isa-debug-exit)$")
    message(FATAL_ERROR "${dir}/board.cmake: BM_EXIT_MAP='${BM_EXIT_MAP}': use direct or isa-debug-exit")
  endif()
  if(NOT BM_LIBC_DEFAULT)
    set(BM_LIBC_DEFAULT picolibc)
  endif()
  # Whether the console reads (a served image's commands, BM_SERVE): the board says so, or its
  # console is a driver with a getc (boards/drivers/README.md).
  if(NOT DEFINED BM_CONSOLE_INPUT)
    set(BM_CONSOLE_INPUT OFF)
    foreach(_s ${BM_BOARD_SOURCES})
      get_filename_component(_s ${_s} NAME_WE)
      if(_s IN_LIST _BM_CONSOLE_INPUT_DRIVERS)
        set(BM_CONSOLE_INPUT ON)
      endif()
    endforeach()
  endif()
  if(BM_TEST_CONSOLE_OFF AND NOT BM_TEST_CONSOLE_OFF MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${dir}/board.cmake: BM_TEST_CONSOLE_OFF='${BM_TEST_CONSOLE_OFF}': name the console "
                        "driver's hook that turns it off (e.g. cmsdk_uart_tx_off, boards/drivers/README.md), "
                        "not a register")
  endif()
  foreach(_r ${_BM_BOARD_RENAMED})
    string(REPLACE ":" ";" _r "${_r}")
    list(GET _r 0 _old)
    list(GET _r 1 _new)
    if(DEFINED ${_old})
      message(WARNING "${dir}/board.cmake: ${_old} is now called ${_new} (the unit in its name): rename it there.")
      if(NOT DEFINED ${_new})
        set(${_new} "${${_old}}")
      endif()
    endif()
  endforeach()
endmacro()

macro(_bm_get board var)
  get_property(${var} GLOBAL PROPERTY BM_${board}_${var})
endmacro()

# baremark_board_property(<board> <VAR> <out-var>): a variable of the board's board.cmake or of
# its arch's arch.cmake (boards/template/board.cmake and arch/README.md list them), with the
# kit's defaults applied; also BM_QEMU_<variant> (one of BM_QEMU_VARIANTS) and BM_DIR (the
# board's folder). Reads the board if no image has yet. A board of another arch than this build
# tree's toolchain is refused, as for an image.
function(baremark_board_property board var out)
  _bm_board_load(${board})
  get_property(_vars GLOBAL PROPERTY BM_${board}_BM_QEMU_VARIANTS)
  list(TRANSFORM _vars PREPEND BM_QEMU_)
  if(NOT var IN_LIST _BM_BOARD_VARS AND NOT var IN_LIST _BM_ARCH_VARS AND NOT var IN_LIST _vars AND
     NOT var STREQUAL "BM_DIR")
    message(FATAL_ERROR "baremark_board_property: '${var}' is not a board property (boards/template/board.cmake "
                        "lists them; also BM_DIR and BM_QEMU_<variant>)")
  endif()
  get_property(_v GLOBAL PROPERTY BM_${board}_${var})
  set(${out} "${_v}" PARENT_SCOPE)
endfunction()

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
  foreach(_v BM_DIR BM_HOSTED BM_ARCH_SOURCES BM_ARCH_INCLUDE BM_BOARD_SOURCES BM_BOARD_DEFINES
             BM_BOARD_LIBS BM_ARCH_LINK_FLAGS LINK_CPU_FLAGS BM_USER_ISOLATED BM_USER_STACK_BOUNDED BM_CONSOLE_INPUT)
    _bm_get(${board} ${_v})
  endforeach()
  if(BM_SERVE AND NOT BM_CONSOLE_INPUT)
    message(FATAL_ERROR "BM_SERVE=ON, but board ${board}'s console cannot read (its driver has no getc, "
                        "boards/drivers/README.md): a served image reads its commands there. Configure it "
                        "without BM_SERVE, or give its console driver a getc.")
  endif()
  # Board sources are relative to the board's folder, or absolute (the kit's drivers and
  # families through ${BM_DRIVERS} and ${BM_FAMILIES}, set while board.cmake is read).
  list(TRANSFORM BM_BOARD_SOURCES PREPEND ${BM_DIR}/ REGEX "^[^/]")
  set(srcs ${BM_CORE_SOURCES} ${BM_ARCH_SOURCES} ${BM_BOARD_SOURCES})
  if(BM_HOSTED)
    list(APPEND srcs ${BAREMARK_DIR}/core/libc/hosted.c)
  else()
    list(APPEND srcs ${BAREMARK_DIR}/core/crt/bm_crt.c ${BAREMARK_DIR}/core/libc/${libc}.c)
    if(libc MATCHES "^(picolibc|newlib)$") # (their malloc's sbrk and heap)
      list(APPEND srcs ${BAREMARK_DIR}/core/libc/heap.c)
    endif()
  endif()
  _bm_compile_flags(${board} ${libc} cflags)
  _bm_libc_flags(${board} ${libc} libc_c libc_l)

  # What an image's own sources see too: includes and flags.
  add_library(${kit}_usage INTERFACE)
  target_include_directories(${kit}_usage INTERFACE ${BAREMARK_DIR}/core/include ${BM_ARCH_INCLUDE})
  target_compile_options(${kit}_usage INTERFACE ${cflags})
  _bm_events_defs(${board} ev_usage ev_kit)
  # Whether the arch isolates benchmark code is its arch.cmake's to say (the tests read it there):
  # the C (bm/port.h, an image's own tests) gets it from here, never from a second copy.
  target_compile_definitions(${kit}_usage INTERFACE ${ev_usage} ARCH_USER_ISOLATED=$<BOOL:${BM_USER_ISOLATED}>
                             ARCH_USER_STACK_BOUNDED=$<BOOL:${BM_USER_STACK_BOUNDED}>)
  # A benchmark built as a normal program (host-linux) is told so (docs/building.md): compilers'
  # own macros do not say it (__linux__ is defined by the bare-metal aarch64-linux-gnu-gcc too).
  if(BM_HOSTED)
    target_compile_definitions(${kit}_usage INTERFACE BM_HOSTED=1)
  endif()
  target_link_options(${kit}_usage INTERFACE ${LINK_CPU_FLAGS} ${BM_ARCH_LINK_FLAGS} ${libc_l} -Wl,--gc-sections)
  if(BM_BOARD_LIBS)
    target_link_libraries(${kit}_usage INTERFACE ${BM_BOARD_LIBS})
  endif()

  add_library(${kit} OBJECT ${srcs})
  target_link_libraries(${kit} PUBLIC ${kit}_usage)
  # (a family's header by its folder: #include "mps/mps.h"; core/ itself: the core's private
  # headers, not on an image's own path)
  target_include_directories(${kit} PRIVATE ${BAREMARK_DIR}/boards/drivers ${BAREMARK_DIR}/boards/families ${BM_DIR}
                             ${BAREMARK_DIR}/core)
  target_compile_options(${kit} PRIVATE $<$<COMPILE_LANGUAGE:C>:${BM_KIT_WARN_FLAGS}>)
  if(NOT BM_HOSTED) # (the kit's frames on the benchmarks' stack, for the fit plan: tools/bm-size)
    target_compile_options(${kit} PRIVATE ${BM_CALLGRAPH_FLAGS})
  endif()
  target_compile_definitions(${kit} PRIVATE BM_BOARD_NAME="${board}" BM_SAMPLES=${BM_SAMPLES}
                             BM_MIN_BATCH_CYCLES=${BM_MIN_BATCH_CYCLES} BM_KIT_VERSION="${BAREMARK_VERSION}"
                             BM_BENCH_TIMEOUT_MS=${BM_BENCH_TIMEOUT_MS} BM_HIST=$<BOOL:${BM_HIST}>
                             $<$<BOOL:${BM_SERVE}>:BM_SERVE=1>
                             ${ev_kit} ${BM_BOARD_DEFINES})
  if(BM_QEMU_MODEL STREQUAL "cache") # the cache model's marker area (cmake/BaremarkModel.cmake)
    target_compile_definitions(${kit} PRIVATE BM_MODEL=1)
  endif()
endfunction()

# Replaces the placeholders of a board command: @ELF@ @BIN@ @HEX@ (the image's files), @NAME@
# (its name), @OUTDIR@ (their folder), @DIR@ (the board's folder).
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

# The runner stops a run that goes BM_QEMU_TIMEOUT_S without a record: every benchmark runs at
# least BM_SAMPLES batches of BM_MIN_BATCH_CYCLES between two records, which must fit in what the
# board's QEMU line runs in that time (BM_QEMU_MCYCLES_PER_S, measured by tools/bench/qemu-rate;
# 10 where a board gives none).
function(_bm_qemu_budget board)
  _bm_get(${board} BM_QEMU)
  _bm_get(${board} BM_HOSTED)
  _bm_get(${board} BM_QEMU_MCYCLES_PER_S)
  if(NOT BM_QEMU OR BM_HOSTED)
    return()
  endif()
  if(NOT BM_QEMU_MCYCLES_PER_S)
    set(BM_QEMU_MCYCLES_PER_S 10)
  endif()
  math(EXPR need "${BM_SAMPLES} * ${BM_MIN_BATCH_CYCLES} / 1000000")
  math(EXPR can "${BM_QEMU_TIMEOUT_S} * ${BM_QEMU_MCYCLES_PER_S}")
  if(need GREATER can)
    message(FATAL_ERROR "BM_SAMPLES=${BM_SAMPLES} x BM_MIN_BATCH_CYCLES=${BM_MIN_BATCH_CYCLES} is at least ${need} "
                        "million cycles per benchmark, more than ${board}'s QEMU runs in BM_QEMU_TIMEOUT_S="
                        "${BM_QEMU_TIMEOUT_S} s (${BM_QEMU_MCYCLES_PER_S} million a second, its "
                        "BM_QEMU_MCYCLES_PER_S): lower one, or raise BM_QEMU_TIMEOUT_S.")
  endif()
endfunction()

# bm_runner(<out> <board>): the runner command line (tools/bm run) for the board's exit map.
function(bm_runner out board)
  _bm_qemu_budget(${board})
  _bm_get(${board} BM_EXIT_MAP)
  _bm_get(${board} BM_QEMU_PACKAGE)
  if(NOT BM_QEMU_PACKAGE)
    set(BM_QEMU_PACKAGE libc-bin) # a hosted board: the runner starts the program itself
  endif()
  bm_model_runner_args(model ${board})
  set(${out} ${BM_RUNNER} --exit-map ${BM_EXIT_MAP} --timeout ${BM_QEMU_TIMEOUT_S}
      --package ${BM_QEMU_PACKAGE} ${model} PARENT_SCOPE)
endfunction()
