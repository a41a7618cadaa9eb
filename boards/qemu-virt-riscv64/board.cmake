# SPDX-License-Identifier: Apache-2.0
# qemu-virt-riscv64: QEMU -machine virt, RV64IMAC in M-mode. Read before project(): sets only
# variables (boards/template/board.cmake says what each one means).
set(BM_ARCH riscv)
set(BM_CPU_FLAGS -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany)
set(BM_BOARD_SOURCES board.c ${BM_DRIVERS}/uart_ns16550.c ${BM_DRIVERS}/riscv_clint.c ${BM_DRIVERS}/sifive_test.c)
set(BM_QEMU qemu-system-riscv64 -machine virt -bios none -nographic -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 430) # M cycles its QEMU line runs a wall second (tools/bench/qemu-rate)
set(BM_TEST_BAD_ADDRESS 0xa0000000) # nothing answers here: the fault test loads from it
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "RV64IMAC, M-mode")
set(BM_RUNS_ON "`qemu-system-riscv64 -machine virt`")
set(BM_PRESET_VARIANTS nolibc) # preset qemu-virt-riscv64-nolibc
set(BM_PRESET_nolibc BM_LIBC=none)
set(BM_PRESET_nolibc_DESCRIPTION "the default board with `BM_LIBC=none`")
# The fault test turns the console off through its driver: the divisor
# latch left open (LCR.DLAB), every later byte lost.
set(BM_TEST_CONSOLE_OFF ns16550_tx_off)
# Events (docs/events.md): QEMU virt's mhpmevent numbers (target/riscv/pmu.c: 0x01 cycles, 0x02
# instructions; its TLB events count QEMU's own software TLB, not the core's: left out).
set(BM_EVENT_CODES instructions=0x2 cycles=0x1)
