# SPDX-License-Identifier: Apache-2.0
# mps2-an500: Arm MPS2 with the AN500 image (Cortex-M7, double-precision FPU), QEMU
# -machine mps2-an500. Read before project(): sets only variables (see boards/template/board.cmake).
set(BM_ARCH armv7m)
set(BM_CPU_FLAGS -mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16)
# The MPS2 images' devices (boards/families/mps), as on mps2-an385 and mps2-an386.
set(BM_BOARD_SOURCES board.c ${BM_FAMILIES}/mps/mps2.c ${BM_DRIVERS}/uart_cmsdk.c ${BM_DRIVERS}/cmsdk_timer.c)
# The kit exits through semihosting, so -semihosting is required.
set(BM_QEMU qemu-system-arm -machine mps2-an500 -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 24) # M SysTick ticks its QEMU line runs a wall second (tools/bench/qemu-rate)
set(BM_TEST_BAD_ADDRESS 0x70000000) # nothing answers here (QEMU: a BusFault; AN500 has its Ethernet at 0xa0000000)
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "Cortex-M7 with a double-precision FPU (ARMv7E-M)")
set(BM_RUNS_ON "`qemu-system-arm -machine mps2-an500`")
# The fault test turns the console off through its driver: UART0's CTRL.TXEN cleared.
set(BM_TEST_CONSOLE_OFF cmsdk_uart_tx_off)
