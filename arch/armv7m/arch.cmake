# SPDX-License-Identifier: Apache-2.0
# Cortex-M (ARMv6-M, ARMv7-M, ARMv8-M; Thumb only): vector table and reset, faults with trap
# recovery, counters (DWT_CYCCNT, else SysTick extended to 64 bits, else the board timer), the
# SysTick watchdog, an MPU/PSPLIM stack guard, benchmark code unprivileged (MPU cores), semihosting
# exit. The board's BM_CPU_FLAGS carry -mcpu, -mthumb and the float ABI (-mfloat-abi/-mfpu), which
# also pick the multilib of libgcc, newlib and picolibc at link time. Read before project()
# (variables only).
set(BM_CROSS arm-none-eabi-)
set(BM_SYSTEM_PROCESSOR arm)
set(BM_CROSS_PACKAGES "gcc-arm-none-eabi libnewlib-arm-none-eabi picolibc-arm-none-eabi")
set(BM_PICOLIBC_TRIPLE arm-none-eabi)
set(BM_QEMU_PACKAGE qemu-system-arm)
set(BM_ARCH_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/start.S
  ${CMAKE_CURRENT_LIST_DIR}/arch.c
  ${CMAKE_CURRENT_LIST_DIR}/events.c
  ${CMAKE_CURRENT_LIST_DIR}/systick.c
  ${CMAKE_CURRENT_LIST_DIR}/trap.c
  ${CMAKE_CURRENT_LIST_DIR}/state.c
  ${CMAKE_CURRENT_LIST_DIR}/usermode.c
  ${CMAKE_CURRENT_LIST_DIR}/semihost.S)
set(BM_ARCH_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/include)
set(BM_ARCH_FLAGS)
set(BM_ARCH_LINK_FLAGS)
# Benchmark code runs in unprivileged Thread mode on its own stack, the MPU keeping the kit's
# memory and the devices out of its reach (usermode.c, mpu_guard.h): on the mainline cores (M3,
# M4, M7, M33, M55, M85), whose boards' memory.ld set __user_stack_size and __bm_user_align. The
# baseline ones (M0, M0+, M1, M23) run it privileged on the kit's stack, detection only (the
# microbit's nRF51 has no MPU; the kit has no PMSA code for ARMv6-M). Said here only: the C gets
# ARCH_USER_ISOLATED and ARCH_USER_STACK_BOUNDED from these two (cmake/BaremarkBoard.cmake).
# (board.cmake, read first, has set BM_CPU_FLAGS.)
if("${BM_CPU_FLAGS}" MATCHES "-mcpu=cortex-m(0|0plus|1|23)([^0-9a-z.]|$)")
  set(BM_USER_ISOLATED OFF)
  set(BM_USER_STACK_BOUNDED OFF)
else()
  set(BM_USER_ISOLATED ON)
  # ...and a write past the top of its stack meets .kit_bss, privileged only.
  set(BM_USER_STACK_BOUNDED ON)
endif()
# The cycle figures come from SysTick under QEMU (it does not model DWT_CYCCNT): a timer that
# counts virtual time, not instructions, so -icount makes runs repeat exactly but known_loop is
# not its instruction count (tests/qemu checks repeatability only).
set(BM_ICOUNT_COUNTS_INSNS OFF)
macro(bm_arch_link_cpu_flags out)
  set(${out} ${BM_CPU_FLAGS})
endmacro()
