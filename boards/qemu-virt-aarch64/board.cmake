# SPDX-License-Identifier: Apache-2.0
# qemu-virt-aarch64: QEMU -machine virt, Cortex-A53 (also tested on Cortex-A72 and entered at EL2
# and EL3). Read before project(): sets only variables (see boards/template/board.cmake).
set(BM_ARCH aarch64)
# -mcpu=cortex-a53: scheduling for the default core; the code runs on any ARMv8.0-A core.
set(BM_CPU_FLAGS -mcpu=cortex-a53)
set(BM_BOARD_SOURCES board.c ${BM_DRIVERS}/uart_pl011.c ${BM_DRIVERS}/arm_vtimer_alarm.c)
# Entered at EL1 by default; the kit exits through semihosting, so -semihosting is required.
set(BM_QEMU qemu-system-aarch64 -machine virt -cpu cortex-a53 -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 390) # M cycles its QEMU line runs a wall second (tools/bench/qemu-rate)
# Variants of the same image: another core, and entry at EL2 (virtualization=on) and at EL3
# (secure=on, with EL2 too), which exercise the drop to EL1 in arch/aarch64/start.S.
set(BM_QEMU_VARIANTS a72 el2 el3)
set(BM_QEMU_a72 qemu-system-aarch64 -machine virt -cpu cortex-a72 -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_el2 qemu-system-aarch64 -machine virt,virtualization=on -cpu cortex-a72 -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_el3 qemu-system-aarch64 -machine virt,secure=on,virtualization=on -cpu cortex-a53 -nographic -semihosting -kernel @ELF@)
set(BM_TEST_BAD_ADDRESS 0x80000000) # not in the board's memory map: unmapped by the MMU
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "Cortex-A53 (tests also A72, entry at EL2, EL3)")
set(BM_RUNS_ON "`qemu-system-aarch64 -machine virt`")
# The fault test turns the console off through its driver: the PL011's CR.TXE cleared.
set(BM_TEST_CONSOLE_OFF pl011_tx_off)
