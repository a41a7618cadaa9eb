# SPDX-License-Identifier: Apache-2.0
# Hosted x86_64 (a Linux process): the TSC read from user space around timed regions, fatal
# signals as traps. Built with the system compiler and libc; no toolchain file, no start-up.
set(BM_HOSTED_ARCH ON)
# The CPU part here; arch/hosted is what every hosted arch shares: traps and watchdog, and the
# process's runtime (main, command line, OS accounting, the stack for core).
set(BM_ARCH_SOURCES ${CMAKE_CURRENT_LIST_DIR}/arch.c)
foreach(f traps main cli rusage events stack state)
  list(APPEND BM_ARCH_SOURCES ${CMAKE_CURRENT_LIST_DIR}/../hosted/${f}.c)
endforeach()
# The bare-metal arch's readers and test hooks (arch/x86.h, arch/test.h) by include path, after this
# arch's own (whose arch/arch.h is the one found).
set(BM_ARCH_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/include ${CMAKE_CURRENT_LIST_DIR}/../hosted/include
    ${CMAKE_CURRENT_LIST_DIR}/../x86_64/include)
set(BM_ARCH_FLAGS -D_GNU_SOURCE)
set(BM_ARCH_LINK_FLAGS)
macro(bm_arch_link_cpu_flags out)
  set(${out} ${BM_CPU_FLAGS})
endmacro()
# Events (docs/events.md): a perf_event_open group read around the snapshot (arch/hosted/events.c).
set(BM_EVENT_SLOTS_MAX 4)
