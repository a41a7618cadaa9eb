# SPDX-License-Identifier: Apache-2.0
# AArch64: entry at EL3/EL2/EL1 dropping to EL1, exception vectors, MMU identity map, PMU and
# generic-timer counters, semihosting exit. -mcpu comes from the board (BM_CPU_FLAGS). The
# toolchain is Debian's Linux gcc used freestanding: undo its defaults that make no sense on bare
# metal (PIE relocations, LSE-probing outlined atomics that need getauxval, a build-id note).
set(BM_CROSS aarch64-linux-gnu-)
set(BM_SYSTEM_PROCESSOR aarch64)
set(BM_CROSS_PACKAGES "gcc-aarch64-linux-gnu picolibc-aarch64-linux-gnu")
set(BM_PICOLIBC_TRIPLE aarch64-linux-gnu)
set(BM_QEMU_PACKAGE qemu-system-arm)
set(BM_ARCH_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/start.S
  ${CMAKE_CURRENT_LIST_DIR}/vectors.S
  ${CMAKE_CURRENT_LIST_DIR}/semihost.S
  ${CMAKE_CURRENT_LIST_DIR}/arch.c
  ${CMAKE_CURRENT_LIST_DIR}/events.c
  ${CMAKE_CURRENT_LIST_DIR}/mmu.c
  ${CMAKE_CURRENT_LIST_DIR}/usermode.S
  ${CMAKE_CURRENT_LIST_DIR}/state.c)
set(BM_ARCH_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/include)
set(BM_ARCH_FLAGS -fno-pie -mno-outline-atomics)
set(BM_ARCH_LINK_FLAGS -static -no-pie -Wl,--build-id=none -Wl,--no-warn-rwx-segments)
macro(bm_arch_link_cpu_flags out)
  set(${out} ${BM_CPU_FLAGS})
endmacro()
# Benchmark code runs at EL0 on its own stack with the kit's memory out of its reach
# (ARCH_USER_ISOLATED; the board's memory.ld sets __bm_user_align = 4K so the page tables can draw
# the line): a write over the kit's state is a trap of the benchmark, not the run's end (the tests
# know), and so is a write past the top of its stack (BM_USER_STACK_BOUNDED).
# Said here only: the C gets ARCH_USER_ISOLATED and ARCH_USER_STACK_BOUNDED from it
# (cmake/BaremarkBoard.cmake).
set(BM_USER_ISOLATED ON)
set(BM_USER_STACK_BOUNDED ON)
# Events (docs/events.md): PMEVCNTR1..4_EL0 in the snapshot beside counter 0's INST_RETIRED.
set(BM_EVENT_SLOTS_MAX 4)
