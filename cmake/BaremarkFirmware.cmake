# Firmware for one board: the arch, the board and the core compiled with the board's flags,
# linked with the board's memory.ld (which INCLUDEs linker/common.ld). bm_add_firmware() makes
# an image from benchmark sources, with .bin/.hex beside the .elf and a size report.
include(${PROJECT_SOURCE_DIR}/arch/${BM_ARCH}/arch.cmake)

set(BM_OPT_FLAGS -O2 -g -ffunction-sections -fdata-sections -fno-common ${BM_BOARD_OPT_FLAGS})
if(BM_HOSTED)
  # A hosted board (host-linux) is a normal program: the system's libc, crt0 and linker script.
  set(BM_LIBC "hosted")
  set(BM_LIBC_COMPILE)
  set(BM_LIBC_LINK)
  set(BM_LINKER_SCRIPT_FLAGS)
elseif(BM_LIBC STREQUAL "picolibc")
  if(NOT EXISTS "${BM_PICOLIBC_SPECS}")
    message(FATAL_ERROR "BM_LIBC=picolibc but ${BM_PICOLIBC_SPECS} is missing: install the picolibc package for this toolchain (tools/setup does), or configure with -DBM_LIBC=none.")
  endif()
  set(BM_LIBC_COMPILE --specs=${BM_PICOLIBC_SPECS})
  set(BM_LIBC_LINK --specs=${BM_PICOLIBC_SPECS} -nostartfiles)
else()
  set(BM_LIBC_COMPILE -ffreestanding)
  set(BM_LIBC_LINK -nostdlib -nostartfiles -lgcc)
endif()
if(NOT BM_HOSTED)
  set(BM_LINKER_SCRIPT_FLAGS -L${PROJECT_SOURCE_DIR}/linker -T${BM_BOARD_DIR}/memory.ld)
endif()

# The flags as the meta record reports them.
string(REPLACE ";" " " BM_CFLAGS_STRING "${BM_ARCH_FLAGS};${BM_OPT_FLAGS};${BM_LIBC_COMPILE}")
string(REPLACE "${BM_PICOLIBC_SPECS}" "picolibc.specs" BM_CFLAGS_STRING "${BM_CFLAGS_STRING}")
configure_file(${PROJECT_SOURCE_DIR}/core/bm_build_info.h.in ${CMAKE_BINARY_DIR}/generated/bm_build_info.h @ONLY)

add_library(bm_target INTERFACE)
target_include_directories(bm_target INTERFACE
  ${PROJECT_SOURCE_DIR}/core/include ${BM_ARCH_INCLUDE} ${PROJECT_SOURCE_DIR}/boards/drivers
  ${CMAKE_BINARY_DIR}/generated)
target_compile_options(bm_target INTERFACE ${BM_ARCH_FLAGS} ${BM_OPT_FLAGS} ${BM_LIBC_COMPILE}
  $<$<COMPILE_LANGUAGE:C>:${BM_WARN_FLAGS}>)
target_compile_definitions(bm_target INTERFACE BM_SAMPLES=${BM_SAMPLES}
  BM_MIN_BATCH_CYCLES=${BM_MIN_BATCH_CYCLES} ${BM_BOARD_DEFINES})
target_link_options(bm_target INTERFACE ${BM_ARCH_LINK_FLAGS} ${BM_LIBC_LINK}
  ${BM_LINKER_SCRIPT_FLAGS} -Wl,--gc-sections)

list(TRANSFORM BM_BOARD_SOURCES PREPEND ${BM_BOARD_DIR}/)
add_library(bm_platform OBJECT ${BM_ARCH_SOURCES} ${BM_BOARD_SOURCES})
target_link_libraries(bm_platform PUBLIC bm_target)

# bm_add_firmware(<name> <sources...>): <name>.elf, .bin, .hex, a map file and a size report.
function(bm_add_firmware name)
  add_executable(${name} ${ARGN} $<TARGET_OBJECTS:bm_core> $<TARGET_OBJECTS:bm_platform>)
  set_target_properties(${name} PROPERTIES SUFFIX ".elf")
  target_link_libraries(${name} PRIVATE bm_target)
  target_link_options(${name} PRIVATE -Wl,-Map=${name}.map)
  if(BM_HOSTED)
    return()
  endif()
  set_property(TARGET ${name} APPEND PROPERTY LINK_DEPENDS
    ${BM_BOARD_DIR}/memory.ld ${PROJECT_SOURCE_DIR}/linker/common.ld)
  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND ${CMAKE_OBJCOPY} -O binary ${name}.elf ${name}.bin
    COMMAND ${CMAKE_OBJCOPY} -O ihex ${name}.elf ${name}.hex
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/bm-size --size ${CMAKE_SIZE} ${name}.elf
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
    BYPRODUCTS ${name}.bin ${name}.hex ${name}.map VERBATIM)
  # A board's own step for the kit image (board.cmake: BM_BOARD_POST_BUILD, run in the build
  # directory after .bin exists), e.g. raspi3b's kernel8.img.
  if(name STREQUAL "baremark" AND BM_BOARD_POST_BUILD)
    add_custom_command(TARGET ${name} POST_BUILD COMMAND ${BM_BOARD_POST_BUILD}
      WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR} VERBATIM)
  endif()
endfunction()

# The kit: every benchmark under benchmarks/.
file(GLOB BM_BENCH_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/benchmarks/*.c)
bm_add_firmware(baremark ${BM_BENCH_SOURCES})

# QEMU command lines. BM_QEMU_COMMAND comes from board.cmake with @ELF@ for the image.
set(BM_ICOUNT_ARGS -icount shift=0,sleep=off)
function(bm_qemu_command out elf)
  string(REPLACE "@ELF@" "${elf}" cmd "${BM_QEMU_COMMAND}")
  set(${out} ${cmd} PARENT_SCOPE)
endfunction()
bm_qemu_command(BM_QEMU_RUN ${CMAKE_BINARY_DIR}/baremark.elf)
if(BM_QEMU_ICOUNT)
  list(APPEND BM_QEMU_RUN ${BM_ICOUNT_ARGS})
endif()
set(BM_RUNNER ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/bm-run --exit-map ${BM_EXIT_MAP}
    --timeout ${BM_QEMU_TIMEOUT} --package ${BM_QEMU_PACKAGE})

add_custom_target(run
  COMMAND ${BM_RUNNER} -- ${BM_QEMU_RUN}
  DEPENDS baremark USES_TERMINAL VERBATIM
  COMMENT "Booting baremark.elf under QEMU (${BM_BOARD}); Ctrl-A X quits")
if(BM_HOSTED)
  add_custom_target(debug COMMAND gdb --args ${CMAKE_BINARY_DIR}/baremark.elf
    DEPENDS baremark USES_TERMINAL VERBATIM)
else()
  add_custom_target(debug
    COMMAND ${CMAKE_COMMAND} -E echo "QEMU waits for gdb on :1234. In another shell: gdb-multiarch ${CMAKE_BINARY_DIR}/baremark.elf -ex 'target remote :1234'"
    COMMAND ${BM_QEMU_RUN} -s -S
    DEPENDS baremark USES_TERMINAL VERBATIM)
endif()
add_custom_target(size
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/bm-size --size ${CMAKE_SIZE} baremark.elf
  DEPENDS baremark VERBATIM)
if(BM_FLASH_COMMAND)
  string(REPLACE "@ELF@" "${CMAKE_BINARY_DIR}/baremark.elf" _flash "${BM_FLASH_COMMAND}")
  string(REPLACE "@DIR@" "${BM_BOARD_DIR}" _flash "${_flash}")
  add_custom_target(flash COMMAND ${_flash} DEPENDS baremark USES_TERMINAL VERBATIM)
endif()
