# mps2-an386: Arm MPS2 with the AN386 image (Cortex-M4F), QEMU -machine mps2-an386; the default
# Cortex-M board. Read before project(): sets only variables (see boards/template/board.cmake).
set(BM_ARCH armv7m)
set(BM_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16)
set(BM_BOARD_SOURCES board.c ../drivers/uart_cmsdk.c ../drivers/cmsdk_timer.c)
# The kit exits through semihosting, so -semihosting is required.
set(BM_QEMU qemu-system-arm -machine mps2-an386 -nographic -semihosting -kernel @ELF@)
set(BM_TEST_BAD_ADDRESS 0xa0000000) # nothing answers here (QEMU: a BusFault); the fault test loads from it
