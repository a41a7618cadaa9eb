# SPDX-License-Identifier: Apache-2.0
# One GCC toolchain file for every bare-metal arch, parameterised by the board's arch
# (arch/<arch>/arch.cmake, read by cmake/BaremarkToolchain.cmake): BM_CROSS is the tool prefix
# (riscv64-unknown-elf-, aarch64-linux-gnu-, arm-none-eabi-, or empty for the host gcc used
# freestanding on x86_64), BM_SYSTEM_PROCESSOR the CPU family, BM_CROSS_PACKAGES the Debian
# packages that provide it.
# Bare metal: nothing can run at configure time, so try-compiles build static libraries.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR ${BM_SYSTEM_PROCESSOR})
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES BM_CROSS BM_SYSTEM_PROCESSOR BM_CROSS_PACKAGES)

if(NOT DEFINED BM_CROSS OR NOT BM_SYSTEM_PROCESSOR)
  message(FATAL_ERROR "toolchain/gcc-cross.cmake needs BM_CROSS and BM_SYSTEM_PROCESSOR: use a preset, "
                      "or -DBM_BOARD=<board> (the board's arch sets them)")
endif()
find_program(CMAKE_C_COMPILER NAMES ${BM_CROSS}gcc NO_CACHE)
if(NOT CMAKE_C_COMPILER)
  message(FATAL_ERROR "${BM_CROSS}gcc not found. Install it with: sudo apt-get install ${BM_CROSS_PACKAGES} (or run tools/setup)")
endif()
set(CMAKE_ASM_COMPILER ${CMAKE_C_COMPILER})
# The C++ compiler, for C++ benchmarks (docs/firmware.md, "C++ benchmarks"): the arch's g++ when
# installed (riscv64-unknown-elf-g++ and arm-none-eabi-g++ come with the C compiler's package;
# aarch64-linux-gnu-g++ is g++-aarch64-linux-gnu). Without it only C builds, and an image with
# C++ sources says which package to install.
find_program(BM_CXX_COMPILER NAMES ${BM_CROSS}g++ NO_CACHE)
if(BM_CXX_COMPILER)
  set(CMAKE_CXX_COMPILER ${BM_CXX_COMPILER})
endif()
foreach(_tool objcopy size nm objdump)
  string(TOUPPER ${_tool} _var)
  find_program(CMAKE_${_var} ${BM_CROSS}${_tool})
endforeach()
