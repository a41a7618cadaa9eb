# hifive1: SiFive HiFive1 Rev B (FE310-G002, RV32IMAC, 16 KiB RAM), and QEMU -machine sifive_e.
set(BM_ARCH riscv)
set(BM_TOOLCHAIN riscv64-unknown-elf)
set(BM_ARCH_FLAGS -march=rv32imac_zicsr -mabi=ilp32 -mcmodel=medlow)
set(BM_ARCH_LINK_FLAGS -march=rv32imac -mabi=ilp32 -mcmodel=medlow)
set(BM_BOARD_SOURCES board.c ../drivers/uart_sifive.c)
# mtime runs from the 32.768 kHz RTC on the board, but at 10 MHz in QEMU's model. The image is
# built for one of them: BM_HIFIVE1_MTIME_HZ=32768 for the real board (the flash target checks).
set(BM_HIFIVE1_MTIME_HZ 10000000 CACHE STRING "HiFive1 mtime frequency: 10000000 (QEMU) or 32768 (real board)")
if(NOT BM_HIFIVE1_MTIME_HZ MATCHES "^(10000000|32768)$")
  message(FATAL_ERROR "BM_HIFIVE1_MTIME_HZ='${BM_HIFIVE1_MTIME_HZ}': use 10000000 (QEMU sifive_e) or 32768 (HiFive1 board).")
endif()
set(BM_BOARD_DEFINES BM_SCRATCH_BYTES=8320 BM_MAX_ROWS=16 BM_HIFIVE1_MTIME_HZ=${BM_HIFIVE1_MTIME_HZ}u)
set(BM_QEMU_COMMAND qemu-system-riscv32 -machine sifive_e,revb=true -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_PACKAGE qemu-system-misc)
set(BM_EXIT_MAP direct)
# Flashing a real board: target `flash` runs openocd with boards/hifive1/openocd.cfg (README.md).
set(BM_FLASH_COMMAND openocd -f @DIR@/openocd.cfg -c "program @ELF@ verify reset exit")
