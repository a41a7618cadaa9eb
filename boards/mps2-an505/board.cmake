# SPDX-License-Identifier: Apache-2.0
# mps2-an505: Arm MPS2 with the AN505 image (Cortex-M33 in an SSE-200, ARMv8-M mainline with the
# Security Extension; the kit runs in Secure state), QEMU -machine mps2-an505. Read before
# project(): sets only variables (see boards/template/board.cmake).
set(BM_ARCH armv7m)
set(BM_CPU_FLAGS -mcpu=cortex-m33 -mthumb -mfloat-abi=hard -mfpu=fpv5-sp-d16)
set(BM_BOARD_SOURCES board.c ${BM_DRIVERS}/uart_cmsdk.c ${BM_DRIVERS}/cmsdk_timer.c)
# The kit exits through semihosting, so -semihosting is required.
set(BM_QEMU qemu-system-arm -machine mps2-an505 -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 20) # M SysTick ticks its QEMU line runs a wall second (tools/bench/qemu-rate)
set(BM_TEST_BAD_ADDRESS 0xa0000000) # nothing answers here (QEMU: a BusFault); the fault test loads from it
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "Cortex-M33 (ARMv8-M mainline, Secure state: PSPLIM, FLASH read-only in the MPU)")
set(BM_RUNS_ON "`qemu-system-arm -machine mps2-an505`")
# The fault test turns the console off through its driver: UART0's CTRL.TXEN cleared.
set(BM_TEST_CONSOLE_OFF cmsdk_uart_tx_off)
# Cache model (docs/cache-model.md): the core has no caches.
set(BM_CACHE_L1I none)
set(BM_CACHE_L1D none)
