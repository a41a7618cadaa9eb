# qemu-sifive-u: QEMU -machine sifive_u (FU540 model), run on hart 0, the RV64IMAC E51 core in
# M-mode. Read before project(): sets only variables (see boards/template/board.cmake).
set(BM_ARCH riscv)
set(BM_CPU_FLAGS -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany)
set(BM_BOARD_SOURCES board.c ../drivers/uart_sifive.c ../drivers/riscv_clint.c)
set(BM_QEMU qemu-system-riscv64 -machine sifive_u -bios none -nographic -semihosting -kernel @ELF@)
set(BM_TEST_BAD_ADDRESS 0xa0000000) # nothing answers here: the fault test loads from it
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "SiFive E51 (hart 0 of sifive_u)")
set(BM_RUNS_ON "`qemu-system-riscv64 -machine sifive_u`")
# The fault test turns the console off: txctrl.txen cleared (QEMU prints anyway; the kit sees it).
set(BM_TEST_CONSOLE_OFF m32 0x10010008 0xfffffffe 0)
