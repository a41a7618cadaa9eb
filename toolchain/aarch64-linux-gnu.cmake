# Debian's aarch64-linux-gnu-gcc (package gcc-aarch64-linux-gnu) used freestanding for bare-metal
# AArch64, with picolibc-aarch64-linux-gnu as the C library. It is a Linux compiler: the flags that
# undo its Linux defaults (PIE, outlined atomics) come from arch/aarch64/arch.cmake. Bare metal: no
# executables can run at configure time, so try-compiles build static libraries.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(BM_CROSS aarch64-linux-gnu-)
find_program(CMAKE_C_COMPILER ${BM_CROSS}gcc)
if(NOT CMAKE_C_COMPILER)
  message(FATAL_ERROR "${BM_CROSS}gcc not found. Install it with: sudo apt-get install gcc-aarch64-linux-gnu picolibc-aarch64-linux-gnu qemu-system-arm (or run tools/setup)")
endif()
set(CMAKE_ASM_COMPILER ${CMAKE_C_COMPILER})
find_program(CMAKE_OBJCOPY ${BM_CROSS}objcopy)
find_program(CMAKE_SIZE ${BM_CROSS}size)
set(BM_PICOLIBC_SPECS /usr/lib/picolibc/aarch64-linux-gnu/picolibc.specs)
