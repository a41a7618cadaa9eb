# Debian's riscv64-unknown-elf-gcc (package gcc-riscv64-unknown-elf), which builds both RV64
# and RV32 (multilib). The board's arch.cmake picks -march/-mabi. Bare metal: no executables
# can be run at configure time, so try-compiles build static libraries.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(BM_CROSS riscv64-unknown-elf-)
find_program(CMAKE_C_COMPILER ${BM_CROSS}gcc)
if(NOT CMAKE_C_COMPILER)
  message(FATAL_ERROR "${BM_CROSS}gcc not found. Install it with: sudo apt-get install gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf (or run tools/setup)")
endif()
set(CMAKE_ASM_COMPILER ${CMAKE_C_COMPILER})
find_program(CMAKE_OBJCOPY ${BM_CROSS}objcopy)
find_program(CMAKE_SIZE ${BM_CROSS}size)
set(BM_PICOLIBC_SPECS /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs)
