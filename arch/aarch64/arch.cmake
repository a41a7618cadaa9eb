# AArch64: entry at EL3/EL2/EL1 dropping to EL1, exception vectors, MMU identity map, PMU and
# generic-timer counters, semihosting exit. -mcpu comes from the board (BM_ARCH_FLAGS). The
# toolchain is a Linux gcc: undo its defaults that make no sense on bare metal (PIE relocations,
# LSE-probing outlined atomics that need getauxval, a build-id note), for every board of this arch.
set(BM_ARCH_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/start.S
  ${CMAKE_CURRENT_LIST_DIR}/vectors.S
  ${CMAKE_CURRENT_LIST_DIR}/semihost.S
  ${CMAKE_CURRENT_LIST_DIR}/arch.c
  ${CMAKE_CURRENT_LIST_DIR}/mmu.c)
set(BM_ARCH_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/include)
list(APPEND BM_ARCH_FLAGS -fno-pie -mno-outline-atomics)
list(APPEND BM_ARCH_LINK_FLAGS -static -no-pie -Wl,--build-id=none)
