# RISC-V: M-mode entry, trap vector, counter enabling, semihosting exit. -march/-mabi come
# from the board (BM_ARCH_FLAGS); compile with _zicsr (gcc 12 needs it for csrr/csrw) but link
# without it, or the multilib selection picks a hard-float library.
set(BM_ARCH_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/start.S
  ${CMAKE_CURRENT_LIST_DIR}/arch.c
  ${CMAKE_CURRENT_LIST_DIR}/semihost.S)
set(BM_ARCH_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/include)
