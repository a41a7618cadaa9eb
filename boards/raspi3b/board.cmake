# raspi3b: Raspberry Pi 3 Model B (BCM2837, Cortex-A53) and QEMU -machine raspi3b. The same image
# runs on both: the ELF under QEMU, kernel8.img (its raw binary) on an SD card (README.md).
set(BM_ARCH aarch64)
set(BM_CPU_FLAGS -mcpu=cortex-a53)
set(BM_BOARD_SOURCES board.c ../drivers/uart_pl011.c ../drivers/arm_vtimer_alarm.c ../drivers/bcm2835_systimer.c)
# The ELF starts at EL3 under QEMU; -semihosting carries the exit status.
set(BM_QEMU qemu-system-aarch64 -machine raspi3b -nographic -semihosting -kernel @ELF@)
# kernel8.img beside the ELF: the raw binary under the name the Pi firmware loads.
set(BM_POST_BUILD ${CMAKE_COMMAND} -E copy @BIN@ @OUTDIR@/kernel8.img)
# Variant: boot the raw image the way the Pi firmware does (loaded at 0x80000, entered at EL2).
set(BM_QEMU_VARIANTS kernel8)
set(BM_QEMU_kernel8 qemu-system-aarch64 -machine raspi3b -nographic -semihosting -kernel @OUTDIR@/kernel8.img)
set(BM_TEST_BAD_ADDRESS 0x80000000) # not in the board's memory map: unmapped by the MMU
