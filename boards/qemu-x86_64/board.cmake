# qemu-x86_64: QEMU's PC machine with -cpu max, x86_64 long mode from a PVH entry, COM1, HPET,
# isa-debug-exit. Read before project(): sets only variables (see boards/qemu-virt-riscv64).
set(BM_ARCH x86_64)
set(BM_TOOLCHAIN x86_64-elf)
# -mno-red-zone: exceptions push their frame on the current stack, below rsp. SSE stays on (the
# x86_64 baseline; start.S enables it). The image is static, non-PIE, linked below 4 GiB.
set(BM_ARCH_FLAGS -m64 -march=x86-64 -mno-red-zone -fno-pie -fno-pic -mcmodel=small
    -fno-stack-protector -fcf-protection=none -fno-asynchronous-unwind-tables)
set(BM_ARCH_LINK_FLAGS -m64 -static -no-pie -Wl,--build-id=none -Wl,-z,max-page-size=4096
    -Wl,-z,noexecstack)
set(BM_BOARD_SOURCES board.c ../drivers/uart_8250_pio.c)
set(BM_BOARD_DEFINES BM_SCRATCH_BYTES=65536 BM_MAX_ROWS=24)
# Debian 12 has no picolibc for x86_64 bare metal: the kit's own four mem* functions instead.
set(BM_LIBC none CACHE STRING "C library for firmware: picolibc or none (the core needs none)")
set(BM_QEMU_COMMAND qemu-system-x86_64 -machine pc -cpu max -m 128M -display none -serial stdio
    -no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 -kernel @ELF@)
set(BM_QEMU_PACKAGE qemu-system-x86)
set(BM_EXIT_MAP isa-debug-exit)
# The default qemu64 CPU has no RDTSCP: the same image must fall back to lfence;rdtsc there.
set(BM_QEMU_TEST_VARIANTS qemu64)
set(BM_QEMU_COMMAND_qemu64 qemu-system-x86_64 -machine pc -cpu qemu64 -m 128M -display none
    -serial stdio -no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 -kernel @ELF@)
