# Template for a new board. Copy this folder to boards/<your-board>/, fill every TODO, delete
# the FATAL_ERROR line, and add a preset to CMakePresets.json. Read before project(): only set
# variables here.
message(FATAL_ERROR "boards/template is a template: copy it to boards/<name>/ and fill it in (see boards/template/README.md).")

set(BM_ARCH riscv)                       # TODO: a folder under arch/
set(BM_TOOLCHAIN riscv64-unknown-elf)    # TODO: a file under toolchain/ (without .cmake)
set(BM_ARCH_FLAGS -march=rv32imac_zicsr -mabi=ilp32)      # TODO: compile flags for the core
set(BM_ARCH_LINK_FLAGS -march=rv32imac -mabi=ilp32)       # TODO: link flags (multilib choice)
set(BM_BOARD_SOURCES board.c ../drivers/uart_ns16550.c)   # board.c plus the shared drivers it uses
# BM_SCRATCH_BYTES: RAM shared by the workloads (memcpy_4k needs 8 KiB + alignment);
# BM_MAX_ROWS: rows kept for the final table (about 100 bytes each).
set(BM_BOARD_DEFINES BM_SCRATCH_BYTES=16384 BM_MAX_ROWS=16)
# QEMU line with @ELF@ for the image; leave BM_QEMU_COMMAND empty for hardware-only boards.
set(BM_QEMU_COMMAND qemu-system-riscv32 -machine TODO -nographic -kernel @ELF@)
set(BM_QEMU_PACKAGE qemu-system-misc)    # Debian package with that emulator (for error messages)
set(BM_EXIT_MAP direct)                  # how QEMU's status maps to the guest's (tools/bm-run --help)
# Optional: set(BM_BOARD_POST_BUILD ${CMAKE_COMMAND} -E copy baremark.bin kernel8.img)
# Optional: set(BM_FLASH_COMMAND openocd -f @DIR@/openocd.cfg -c "program @ELF@ verify reset exit")
