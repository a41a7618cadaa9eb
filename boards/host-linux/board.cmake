# SPDX-License-Identifier: Apache-2.0
# host-linux: the kit as a normal Linux program, built with the system compiler and libc; the
# arch is this machine's CPU (arch/host-x86_64 or arch/host-aarch64). Read before project().
cmake_host_system_information(RESULT _bm_host_cpu QUERY OS_PLATFORM)
set(BM_ARCH host-${_bm_host_cpu})
set(BM_HOSTED ON)
# Functions and loop heads on 64-byte lines: on a desktop core a small loop that straddles two lines
# can run at half speed, so where each benchmark's loop happens to land would decide its figures
# build by build (they are in the meta record's cflags).
set(BM_CPU_FLAGS -falign-functions=64 -falign-loops=64)
set(BM_BOARD_SOURCES board.c)
set(BM_BOARD_LIBS m)
# The runner starts the program itself and takes its exit status as the guest's.
set(BM_QEMU @ELF@)
# The fault test's bad address: page 0 is never mapped in a Linux process.
set(BM_TEST_BAD_ADDRESS 0x10)
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "a normal Linux program (`--help` for its options)")
set(BM_RUNS_ON "this machine")
