# SPDX-License-Identifier: Apache-2.0
# Template for a new board. Copy this folder to boards/<your-board>/ (or into a folder of your own
# named in BM_BOARD_DIRS), fill every TODO and delete the FATAL_ERROR line: nothing outside the
# folder needs a change. Read before project(): only set variables here.
message(FATAL_ERROR "boards/template is a template: copy it to boards/<name>/ and fill it in (see boards/template/README.md).")

# Required:
set(BM_ARCH riscv)                       # TODO: a folder under arch/ (its arch.cmake names the toolchain)
set(BM_CPU_FLAGS -march=rv32imac_zicsr -mabi=ilp32)  # TODO: -march/-mcpu/-mabi for this core
# board.c and the kit's code it uses, named so that the folder builds wherever it is: its own
# files relative to this folder, the kit's drivers as ${BM_DRIVERS}/<driver>.c (boards/drivers/
# README.md lists them), a board family's code as ${BM_FAMILIES}/<family>/<file>.c.
set(BM_BOARD_SOURCES board.c ${BM_DRIVERS}/uart_ns16550.c ${BM_DRIVERS}/riscv_clint.c)
# Its row in README.md's board table and its configure preset's displayName (tools/gen-boards):
set(BM_DESCRIPTION "TODO: the board, its core, its RAM")
set(BM_RUNS_ON "TODO: `qemu-system-riscv32 -machine TODO`, or the board")
# Optional:
# set(BM_LIBC_DEFAULT picolibc)          # picolibc (default), newlib or none
# set(BM_QEMU qemu-system-riscv32 -machine TODO -nographic -kernel @ELF@)  # empty: hardware only
# set(BM_QEMU_VARIANTS v1) + set(BM_QEMU_v1 ...)  # more QEMU lines the tests boot the image with
# set(BM_EXIT_MAP direct)                # direct (default) or isa-debug-exit: how QEMU's status maps
# set(BM_QEMU_MCYCLES_PER_S 100)         # M counter cycles its QEMU line runs a second (tools/bench/qemu-rate):
#                                        # the budget of BM_QEMU_TIMEOUT_S at configure time (unset: 10)
# set(BM_FLASH openocd -f @DIR@/openocd.cfg -c "program {@ELF@} verify reset exit")
# set(BM_POST_BUILD ${CMAKE_COMMAND} -E copy @BIN@ @OUTDIR@/@NAME@.kernel8.img)
# set(BM_BOARD_DEFINES X=1)              # compile definitions for the kit's own code on this board
# set(BM_BOARD_LIBS m)                   # libraries every image of this board links
# set(BM_SUITE_SMALL ON)                 # little RAM (16-32 KiB): the kit's own suite takes smaller inputs
# set(BM_SELECT_DEFAULT "^(?!stats_)")   # the selection when BM_SELECT is empty (Python regex)
# set(BM_REQUIRE_RAM_FREE_BYTES 8192)    # RAM the default image must leave for your data (a test holds it)
# set(BM_TEST_BAD_ADDRESS 0xa0000000)    # an address nothing answers (the fault-injection test loads it)
# set(BM_TEST_FLASH_WRITE ok)            # a store into .rodata is no trap here (default: trap): what the
#                                        # fault test expects of fault_rodata_write, and why, in a comment
# set(BM_TEST_CONSOLE_OFF ns16550_tx_off) # the fault test turns the console off with this hook of its
#                                        # driver (boards/drivers/README.md); unset: no such test
# set(BM_CONSOLE_INPUT ON)               # its console's driver has a getc (bm/port.h), so it can be built
#                                        # served (BM_SERVE); default: ON for the kit's drivers that have one
# set(BM_PRESET_CACHE BM_LIBC=none)      # cache variables of its preset (beyond BM_BOARD)
# set(BM_PRESET_VARIANTS v) + set(BM_PRESET_v BM_LIBC=none) + set(BM_PRESET_v_DESCRIPTION "...")
#                                        # more presets, named <board>-v, each with a row in the table
# set(BM_HOSTED ON)                      # a program on this machine (host-linux): no memory.ld
# Placeholders: @ELF@ @BIN@ @HEX@ (the image), @NAME@ (its name), @OUTDIR@ (its folder), @DIR@ (this folder).
# Cache geometry for the QEMU cache model (-DBM_QEMU_MODEL=cache, docs/cache-model.md), the real
# part's as SIZE:WAYS:LINE in bytes, or none where the part has no such cache. Unset: a generic
# 32 KiB 4-way L1I and L1D with 64-byte lines and no L2 (right for QEMU's virt machines).
# set(BM_CACHE_L1I 32768:4:64)
# set(BM_CACHE_L1D 32768:4:64)
# set(BM_CACHE_L2 none)
# Events (docs/events.md): the events a build counts when -DBM_EVENTS is not given, and, on RISC-V,
# the part's mhpmevent encoding of each portable name it can count.
# set(BM_EVENTS_DEFAULT l1d_miss,branch_miss)
# set(BM_EVENT_CODES branch=0x4000 branch_miss=0x6001)
