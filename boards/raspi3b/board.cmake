# raspi3b: Raspberry Pi 3 Model B (BCM2837, Cortex-A53) and QEMU -machine raspi3b. The same
# image runs on both: baremark.elf under QEMU, kernel8.img (its raw binary) on an SD card
# (README.md). Read before project(): sets only variables.
set(BM_ARCH aarch64)
set(BM_TOOLCHAIN aarch64-linux-gnu)
set(BM_ARCH_FLAGS -mcpu=cortex-a53)
set(BM_ARCH_LINK_FLAGS -mcpu=cortex-a53)
set(BM_BOARD_SOURCES board.c ../drivers/uart_pl011.c)
set(BM_BOARD_DEFINES BM_SCRATCH_BYTES=65536 BM_MAX_ROWS=24)
# The ELF starts at EL3 under QEMU; -semihosting carries the exit status.
set(BM_QEMU_COMMAND qemu-system-aarch64 -machine raspi3b -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_PACKAGE qemu-system-arm)
set(BM_EXIT_MAP direct)
# Variant: boot the raw image the way the Pi firmware does (loaded at 0x80000, entered at EL2).
set(BM_QEMU_TEST_VARIANTS kernel8)
set(BM_QEMU_COMMAND_kernel8 qemu-system-aarch64 -machine raspi3b -nographic -semihosting -kernel ${CMAKE_BINARY_DIR}/kernel8.img)

# kernel8.img beside baremark.elf: a copy of baremark.bin under the name the Pi firmware loads.
set(BM_BOARD_POST_BUILD ${CMAKE_COMMAND} -E copy baremark.bin kernel8.img)
