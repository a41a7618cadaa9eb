# SPDX-License-Identifier: Apache-2.0
# qemu-sifive-u: QEMU -machine sifive_u (FU540 model), run on hart 0, the RV64IMAC E51 core in
# M-mode. Read before project(): sets only variables (see boards/template/board.cmake).
set(BM_ARCH riscv)
set(BM_CPU_FLAGS -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany)
set(BM_BOARD_SOURCES board.c ${BM_DRIVERS}/uart_sifive.c ${BM_DRIVERS}/riscv_clint.c)
set(BM_QEMU qemu-system-riscv64 -machine sifive_u -bios none -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 52) # M cycles its QEMU line runs a wall second (tools/bench/qemu-rate)
set(BM_TEST_BAD_ADDRESS 0xa0000000) # nothing answers here: the fault test loads from it
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "SiFive E51 (hart 0 of sifive_u)")
set(BM_RUNS_ON "`qemu-system-riscv64 -machine sifive_u`")
# The fault test turns the console off through its driver: txctrl.txen
# cleared (QEMU prints anyway; the kit sees it).
set(BM_TEST_CONSOLE_OFF sifive_uart_tx_off)
# Cache model (docs/cache-model.md): hart 0 is the FU540's E51, whose 16 KiB 2-way L1I has no data
# cache beside it (an 8 KiB DTIM), and the 2 MiB 16-way L2 all harts share.
set(BM_CACHE_L1I 16384:2:64)
set(BM_CACHE_L1D none)
set(BM_CACHE_L2 2097152:16:64)
# Events (docs/events.md): hart 0 is an E51, with the E31's mhpmevent classes (class 0 bit 14
# conditional branch retired, class 1 bits 13-14 mispredicts, class 2 bit 8 instruction cache miss).
# QEMU's sifive_u has no hpm counters: there the meta says so.
set(BM_EVENT_CODES branch=0x4000 branch_miss=0x6001 l1i_miss=0x102)
