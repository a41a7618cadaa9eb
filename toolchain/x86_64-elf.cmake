# Bare-metal x86_64 with the host's own gcc (Debian gcc 12): no cross compiler is needed, but
# nothing of the host may leak in, so the board adds -ffreestanding -nostdlib -static -no-pie.
# Bare metal: no executables can be run at configure time, so try-compiles build static libraries.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
find_program(CMAKE_C_COMPILER NAMES gcc-12 gcc)
if(NOT CMAKE_C_COMPILER)
  message(FATAL_ERROR "gcc not found. Install it with: sudo apt-get install gcc")
endif()
set(CMAKE_ASM_COMPILER ${CMAKE_C_COMPILER})
find_program(CMAKE_OBJCOPY objcopy)
find_program(CMAKE_SIZE size)
# No picolibc build for x86_64 bare metal in Debian 12: the board selects BM_LIBC=none.
set(BM_PICOLIBC_SPECS /usr/lib/picolibc/x86_64-elf/picolibc.specs)
