# Hosted arch: a Linux process's view of the CPU (user-readable cycle counter, no traps or
# entry of its own: libc's crt0 starts the program, signals stand in for traps).
set(BM_ARCH_SOURCES ${CMAKE_CURRENT_LIST_DIR}/arch.c)
set(BM_ARCH_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/include)
