# host-linux: the kit as a normal Linux program (x86_64 or AArch64 host), built with the host
# compiler and the system libc. Read before project(): sets only variables.
set(BM_ARCH host)
set(BM_TOOLCHAIN "")
set(BM_HOSTED ON)
set(BM_ARCH_FLAGS -D_GNU_SOURCE)
set(BM_ARCH_LINK_FLAGS)
set(BM_BOARD_SOURCES main.c)
set(BM_BOARD_DEFINES BM_SCRATCH_BYTES=1048576 BM_MAX_ROWS=64)
# The runner starts the program itself and takes its exit status as the guest's.
set(BM_QEMU_COMMAND @ELF@)
set(BM_QEMU_PACKAGE libc-bin)
set(BM_EXIT_MAP direct)
# Timing on a shared OS is not repeatable: no deterministic-mode test.
set(BM_DETERMINISTIC_TESTS OFF)
