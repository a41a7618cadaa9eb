# SPDX-License-Identifier: Apache-2.0
# raspi3b: Raspberry Pi 3 Model B (BCM2837, Cortex-A53) and QEMU -machine raspi3b. The same image
# runs on both: the ELF under QEMU, <name>.kernel8.img (its raw binary, copied as kernel8.img) on an SD card (README.md).
set(BM_ARCH aarch64)
set(BM_CPU_FLAGS -mcpu=cortex-a53)
set(BM_BOARD_SOURCES board.c ${BM_DRIVERS}/uart_pl011.c ${BM_DRIVERS}/arm_vtimer_alarm.c ${BM_DRIVERS}/bcm2835_systimer.c)
# The ELF starts at EL3 under QEMU; -semihosting carries the exit status.
set(BM_QEMU qemu-system-aarch64 -machine raspi3b -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 210) # M cycles its QEMU line runs a wall second (tools/bench/qemu-rate)
# The raw binary beside the ELF, for the SD card (as kernel8.img, the name the Pi firmware loads).
# One per image (<name>.kernel8.img): the images built in one folder (the self-tests) would
# otherwise write one kernel8.img at the same time in a parallel build.
set(BM_POST_BUILD ${CMAKE_COMMAND} -E copy @BIN@ @OUTDIR@/@NAME@.kernel8.img)
# Variant: boot the raw image the way the Pi firmware does (loaded at 0x80000, entered at EL2).
set(BM_QEMU_VARIANTS kernel8)
set(BM_QEMU_kernel8 qemu-system-aarch64 -machine raspi3b -nographic -semihosting -kernel @OUTDIR@/@NAME@.kernel8.img)
set(BM_TEST_BAD_ADDRESS 0x80000000) # not in the board's memory map: unmapped by the MMU
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "Raspberry Pi 3 Model B (`kernel8.img` on an SD card)")
set(BM_RUNS_ON "`qemu-system-aarch64 -machine raspi3b`, or the board")
# The fault test turns the console off through its driver: the PL011's CR.TXE cleared.
set(BM_TEST_CONSOLE_OFF pl011_tx_off)
# Cache model (docs/cache-model.md): the BCM2837's Cortex-A53: 16 KiB 2-way L1I, 32 KiB 4-way L1D,
# 512 KiB 16-way shared L2, 64-byte lines.
set(BM_CACHE_L1I 16384:2:64)
set(BM_CACHE_L1D 32768:4:64)
set(BM_CACHE_L2 524288:16:64)
# Events (docs/events.md): the A53's L1D and branch events by default (on the board; QEMU's A53
# implements none of them, which the meta record says).
set(BM_EVENTS_DEFAULT l1d_access,l1d_miss,branch,branch_miss)
