# SPDX-License-Identifier: Apache-2.0
# x86_64 bare metal: PVH entry into long mode, IDT exception reports, TSC probing. Built with the
# host's own gcc, freestanding: nothing of the host may leak in. -mno-red-zone: exceptions push
# their frame on the current stack, below rsp. SSE stays on (the x86_64 baseline; start.S enables
# it). The image is static, non-PIE, linked below 4 GiB. Debian 12 has no picolibc for x86_64
# bare metal: boards of this arch default to BM_LIBC=none.
set(BM_CROSS "")
set(BM_SYSTEM_PROCESSOR x86_64)
set(BM_CROSS_PACKAGES "gcc")
set(BM_PICOLIBC_TRIPLE "")
set(BM_QEMU_PACKAGE qemu-system-x86)
set(BM_ARCH_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/start.S
  ${CMAKE_CURRENT_LIST_DIR}/arch.c
  ${CMAKE_CURRENT_LIST_DIR}/tables.c
  ${CMAKE_CURRENT_LIST_DIR}/paging.c
  ${CMAKE_CURRENT_LIST_DIR}/usermode.S
  ${CMAKE_CURRENT_LIST_DIR}/events.c
  ${CMAKE_CURRENT_LIST_DIR}/state.c)
# Benchmark code runs in ring 3 with the kit's pages supervisor-only (usermode.S, paging.c; the
# board's memory.ld sets __bm_user_align = 4K and __user_stack_size), and so is a write past the
# top of its stack a fault (BM_USER_STACK_BOUNDED). Said here only: the C gets
# ARCH_USER_ISOLATED and ARCH_USER_STACK_BOUNDED from it (cmake/BaremarkBoard.cmake).
set(BM_USER_ISOLATED ON)
set(BM_USER_STACK_BOUNDED ON)
set(BM_ARCH_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/include)
set(BM_ARCH_FLAGS -m64 -march=x86-64 -mno-red-zone -fno-pie -fno-pic -mcmodel=small
    -fno-stack-protector -fcf-protection=none -fno-asynchronous-unwind-tables)
set(BM_ARCH_LINK_FLAGS -m64 -static -no-pie -Wl,--build-id=none -Wl,-z,max-page-size=4096
    -Wl,-z,noexecstack)
macro(bm_arch_link_cpu_flags out)
  set(${out} ${BM_CPU_FLAGS})
endmacro()
