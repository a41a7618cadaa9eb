# Template for a new board. Copy this folder to boards/<your-board>/ (or to a folder of your own
# named in BM_BOARD_DIRS), fill every TODO, delete the FATAL_ERROR line, and add one configure
# preset line to CMakePresets.json. Read before project(): only set variables here.
message(FATAL_ERROR "boards/template is a template: copy it to boards/<name>/ and fill it in (see boards/template/README.md).")

# Required:
set(BM_ARCH riscv)                       # TODO: a folder under arch/ (its arch.cmake names the toolchain)
set(BM_CPU_FLAGS -march=rv32imac_zicsr -mabi=ilp32)  # TODO: -march/-mcpu/-mabi for this core
set(BM_BOARD_SOURCES board.c ../drivers/uart_ns16550.c ../drivers/riscv_clint.c)  # board.c + its drivers
# Optional:
# set(BM_LIBC_DEFAULT picolibc)          # picolibc (default), newlib or none
# set(BM_QEMU qemu-system-riscv32 -machine TODO -nographic -kernel @ELF@)  # empty: hardware only
# set(BM_QEMU_VARIANTS v1) + set(BM_QEMU_v1 ...)  # more QEMU lines the tests boot the image with
# set(BM_EXIT_MAP direct)                # direct (default) or isa-debug-exit: how QEMU's status maps
# set(BM_FLASH openocd -f @DIR@/openocd.cfg -c "program {@ELF@} verify reset exit")
# set(BM_POST_BUILD ${CMAKE_COMMAND} -E copy @BIN@ @OUTDIR@/@NAME@.kernel8.img)
# set(BM_BOARD_DEFINES X=1)              # compile definitions for the kit's own code on this board
# set(BM_SUITE_SMALL ON)                 # little RAM (16-32 KiB): the kit's own suite takes smaller inputs
# set(BM_SELECT_DEFAULT "^(?!stats_)")   # the selection when BM_SELECT is empty (Python regex)
# set(BM_TEST_BAD_ADDRESS 0xa0000000)    # an address nothing answers (the fault-injection test loads it)
# set(BM_TEST_FLASH_WRITE ok)            # a store into .rodata is no trap here (default: trap): what the
#                                        # fault test expects of fault_rodata_write, and why, in a comment
# Placeholders: @ELF@ @BIN@ @HEX@ (the image), @NAME@ (its name), @OUTDIR@ (its folder), @DIR@ (this folder).
