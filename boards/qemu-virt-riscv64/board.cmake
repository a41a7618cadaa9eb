# qemu-virt-riscv64: QEMU -machine virt, RV64IMAC in M-mode. Read before project(): sets only
# variables (see boards/template/board.cmake for what each one means).
set(BM_ARCH riscv)
set(BM_TOOLCHAIN riscv64-unknown-elf)
set(BM_ARCH_FLAGS -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany)
set(BM_ARCH_LINK_FLAGS -march=rv64imac -mabi=lp64 -mcmodel=medany)
set(BM_BOARD_SOURCES board.c ../drivers/uart_ns16550.c)
set(BM_BOARD_DEFINES BM_SCRATCH_BYTES=65536 BM_MAX_ROWS=24)
set(BM_QEMU_COMMAND qemu-system-riscv64 -machine virt -bios none -nographic -kernel @ELF@)
set(BM_QEMU_PACKAGE qemu-system-misc)
set(BM_EXIT_MAP direct)
