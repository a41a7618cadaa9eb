# SPDX-License-Identifier: Apache-2.0
# mps3-an547: Arm MPS3 with the AN547 image (Cortex-M55 in an SSE-300, ARMv8.1-M mainline with
# MVE and the Security Extension; the kit runs in Secure state), QEMU -machine mps3-an547. Read
# before project(): sets only variables (see boards/template/board.cmake).
set(BM_ARCH armv7m)
set(BM_CPU_FLAGS -mcpu=cortex-m55 -mthumb -mfloat-abi=hard)
set(BM_BOARD_SOURCES board.c ${BM_DRIVERS}/uart_cmsdk.c ${BM_DRIVERS}/sse_systimer.c)
# The kit exits through semihosting, so -semihosting is required.
set(BM_QEMU qemu-system-arm -machine mps3-an547 -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 7) # M SysTick ticks its QEMU line runs a wall second (tools/bench/qemu-rate)
set(BM_TEST_BAD_ADDRESS 0x02000000) # nothing answers here (QEMU: a BusFault); the fault test loads from it
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "Cortex-M55 (ARMv8.1-M with MVE, Secure state; SSE-300 system timer)")
set(BM_RUNS_ON "`qemu-system-arm -machine mps3-an547`")
# The fault test turns the console off through its driver: UART0's CTRL.TXEN cleared.
set(BM_TEST_CONSOLE_OFF cmsdk_uart_tx_off)
