# Hosted x86_64 (a Linux process): the TSC read from user space around timed regions, fatal
# signals as traps. Built with the system compiler and libc; no toolchain file, no start-up.
set(BM_HOSTED_ARCH ON)
set(BM_ARCH_SOURCES ${CMAKE_CURRENT_LIST_DIR}/arch.c ${CMAKE_CURRENT_LIST_DIR}/../hosted/traps.c)
set(BM_ARCH_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/include ${CMAKE_CURRENT_LIST_DIR}/../hosted/include)
set(BM_ARCH_FLAGS -D_GNU_SOURCE)
set(BM_ARCH_LINK_FLAGS)
macro(bm_arch_link_cpu_flags out)
  set(${out} ${BM_CPU_FLAGS})
endmacro()
