# SPDX-License-Identifier: Apache-2.0
# Cortex-M (ARMv6-M, ARMv7-M, ARMv8-M; Thumb only): vector table and reset, faults with trap
# recovery, counters (DWT_CYCCNT, else SysTick extended to 64 bits, else the board timer), the
# SysTick watchdog, an MPU/PSPLIM stack guard, semihosting exit. The board's BM_CPU_FLAGS carry
# -mcpu, -mthumb and the float ABI (-mfloat-abi/-mfpu), which also pick the multilib of libgcc,
# newlib and picolibc at link time. Read before project() (variables only).
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
  ${CMAKE_CURRENT_LIST_DIR}/semihost.S)
set(BM_ARCH_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/include)
set(BM_ARCH_FLAGS)
set(BM_ARCH_LINK_FLAGS)
# The cycle figures come from SysTick under QEMU (it does not model DWT_CYCCNT): a timer that
# counts virtual time, not instructions, so -icount makes runs repeat exactly but known_loop is
# not its instruction count (tests/qemu checks repeatability only).
set(BM_ICOUNT_COUNTS_INSNS OFF)
macro(bm_arch_link_cpu_flags out)
  set(${out} ${BM_CPU_FLAGS})
endmacro()
