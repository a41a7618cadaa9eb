# SPDX-License-Identifier: Apache-2.0
# RISC-V: M-mode entry, trap vector, counter enabling, semihosting exit. The board's BM_CPU_FLAGS
# carry -march/-mabi; compile with _zicsr (gcc 12 needs it for csrr/csrw) but link without it,
# or the multilib selection picks a hard-float library. Read before project() (variables only).
set(BM_CROSS riscv64-unknown-elf-)
set(BM_SYSTEM_PROCESSOR riscv)
set(BM_CROSS_PACKAGES "gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf")
set(BM_PICOLIBC_TRIPLE riscv64-unknown-elf)
set(BM_QEMU_PACKAGE qemu-system-misc)
set(BM_ARCH_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/start.S
  ${CMAKE_CURRENT_LIST_DIR}/arch.c
  ${CMAKE_CURRENT_LIST_DIR}/events.c
  ${CMAKE_CURRENT_LIST_DIR}/state.c
  ${CMAKE_CURRENT_LIST_DIR}/usermode.S
  ${CMAKE_CURRENT_LIST_DIR}/semihost.S)
set(BM_ARCH_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/include)
# Benchmark code runs in U-mode with the kit's memory out of its reach: a write over the kit's
# state is a trap of the benchmark, not the run's end (the tests know). Said here only: the C gets
# ARCH_USER_ISOLATED (and ARCH_USER_STACK_BOUNDED) from these two (cmake/BaremarkBoard.cmake).
set(BM_USER_ISOLATED ON)
# ...and a write past the top of its own stack meets the kit's memory, out of its reach (PMP).
set(BM_USER_STACK_BOUNDED ON)
set(BM_ARCH_FLAGS)
set(BM_ARCH_LINK_FLAGS)
# Link flags from the board's compile flags, without the _zicsr extension.
macro(bm_arch_link_cpu_flags out)
  string(REPLACE "_zicsr" "" ${out} "${BM_CPU_FLAGS}")
endmacro()
# Events (docs/events.md): hpmcounter3..6 in the snapshot, with the board's encodings (BM_EVENT_CODES).
set(BM_EVENT_SLOTS_MAX 4)
