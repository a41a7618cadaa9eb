# SPDX-License-Identifier: Apache-2.0
# hifive1: SiFive HiFive1 Rev B (FE310-G002, RV32IMAC, 16 KiB RAM), and QEMU -machine sifive_e.
# The same image serves both: mtime's rate is chosen at run time (board.c). Read before project().
set(BM_ARCH riscv)
set(BM_CPU_FLAGS -march=rv32imac_zicsr -mabi=ilp32 -mcmodel=medlow)
set(BM_BOARD_SOURCES board.c ${BM_DRIVERS}/uart_sifive.c ${BM_DRIVERS}/riscv_clint.c)
set(BM_QEMU qemu-system-riscv32 -machine sifive_e,revb=true -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 37) # M cycles its QEMU line runs a wall second (tools/bench/qemu-rate)
# Flashing a real board (configure with -DBM_FOR_HARDWARE=ON): openocd through the on-board J-Link.
set(BM_FLASH openocd -f @DIR@/openocd.cfg -c "program {@ELF@} verify reset exit")
set(BM_TEST_BAD_ADDRESS 0xa0000000) # nothing answers here: the fault test loads from it
# 16 KiB of RAM: the kit's own suite takes smaller inputs (benchmarks/), leaving at least 8 KiB
# for your own static data (a test holds the kit to it).
set(BM_SUITE_SMALL ON)
# The kit's statistics self-benchmarks (stats_*) need a second statistics state in scratch: 2.6 KiB
# of 16, a third of what the kit leaves a user. Not in this board's default suite (-DBM_SELECT=^stats_
# builds them).
set(BM_SELECT_DEFAULT "^(?!stats_)")
set(BM_REQUIRE_RAM_FREE_BYTES 8192)
# An unprivileged benchmark's batches come back in chunks of 8 runs of equal readings, not 32
# (core/run/run.h): 576 bytes of those 8 KiB. (Its mcycle counts every instruction: its readings
# hardly alternate, and its share gains nothing from a longer chunk.)
set(BM_BOARD_DEFINES BM_USER_CHUNK=8u)
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "SiFive HiFive1 Rev B, RV32IMAC, 16 KiB RAM (8 KiB left for your data)")
set(BM_RUNS_ON "`qemu-system-riscv32 -machine sifive_e,revb=true`, or the board")
# The fault test turns the console off through its driver: txctrl.txen
# cleared (QEMU prints anyway; the kit sees it).
set(BM_TEST_CONSOLE_OFF sifive_uart_tx_off)
# Cache model (docs/cache-model.md): the FE310's E31 has a 16 KiB 2-way L1I (32-byte lines) and no
# data cache (a 16 KiB DTIM).
set(BM_CACHE_L1I 16384:2:32)
set(BM_CACHE_L1D none)
# Events (docs/events.md): the E31's mhpmevent classes (SiFive E31 manual, "Hardware Performance
# Monitor": class 0 bit 14 conditional branch retired, class 1 bits 13-14 mispredicts, class 2 bit
# 8 instruction cache miss). QEMU's sifive_e has no hpm counters: there the meta says so.
set(BM_EVENT_CODES branch=0x4000 branch_miss=0x6001 l1i_miss=0x102)
