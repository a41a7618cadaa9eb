# SPDX-License-Identifier: Apache-2.0
# qemu-x86_64: QEMU's PC machine with -cpu max, x86_64 long mode from a PVH entry, COM1, HPET,
# isa-debug-exit. Read before project(): sets only variables (see boards/template/board.cmake).
set(BM_ARCH x86_64)
set(BM_CPU_FLAGS)
set(BM_BOARD_SOURCES board.c ${BM_DRIVERS}/uart_ns16550.c ${BM_DRIVERS}/hpet.c ${BM_DRIVERS}/isa_debug_exit.c)
# Debian 12 has no picolibc for x86_64 bare metal: the kit's own four mem* functions instead.
set(BM_LIBC_DEFAULT none)
# qboot (QEMU's minimal firmware, in qemu-system-data) instead of SeaBIOS: it hands over to the
# PVH entry the same way, and under -icount its start-up before the kit's first line takes
# 0.05 s, SeaBIOS's 0.2 s.
set(BM_QEMU qemu-system-x86_64 -machine pc -cpu max -m 128M -bios qboot.rom -display none -serial stdio
    -no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 260) # M TSC ticks its QEMU line runs a wall second (tools/bench/qemu-rate)
set(BM_EXIT_MAP isa-debug-exit)
# The default qemu64 CPU has no RDTSCP: the same image must fall back to lfence;rdtsc there.
set(BM_QEMU_VARIANTS qemu64)
set(BM_QEMU_qemu64 qemu-system-x86_64 -machine pc -cpu qemu64 -m 128M -bios qboot.rom -display none
    -serial stdio -no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 -kernel @ELF@)
set(BM_TEST_BAD_ADDRESS 0x100000000) # above the 4 GiB identity map: not present
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "x86_64 long mode (PVH entry), TSC")
set(BM_RUNS_ON "`qemu-system-x86_64`")
# The fault test turns the console off through its driver: COM1's divisor
# latch left open (LCR.DLAB), every later byte lost.
set(BM_TEST_CONSOLE_OFF ns16550_tx_off)
