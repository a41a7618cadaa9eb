# SPDX-License-Identifier: Apache-2.0
# mps2-an385: Arm MPS2 with the AN385 image (Cortex-M3, no FPU), QEMU -machine mps2-an385. The
# same devices and memory map as mps2-an386. Read before project(): sets only variables.
set(BM_ARCH armv7m)
set(BM_CPU_FLAGS -mcpu=cortex-m3 -mthumb -mfloat-abi=soft)
# The MPS2 images' devices (boards/families/mps), as on mps2-an386 and mps2-an500.
set(BM_BOARD_SOURCES board.c ${BM_FAMILIES}/mps/mps2.c ${BM_DRIVERS}/uart_cmsdk.c ${BM_DRIVERS}/cmsdk_timer.c)
# The kit exits through semihosting, so -semihosting is required.
set(BM_QEMU qemu-system-arm -machine mps2-an385 -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 23) # M SysTick ticks its QEMU line runs a wall second (tools/bench/qemu-rate)
set(BM_TEST_BAD_ADDRESS 0xa0000000) # nothing answers here (QEMU: a BusFault); the fault test loads from it
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "Cortex-M3, built with `BM_LIBC=none`")
set(BM_RUNS_ON "`qemu-system-arm -machine mps2-an385`")
set(BM_PRESET_CACHE BM_LIBC=none)
# The fault test turns the console off through its driver: UART0's CTRL.TXEN cleared.
set(BM_TEST_CONSOLE_OFF cmsdk_uart_tx_off)
# Cache model (docs/cache-model.md): the core has no caches.
set(BM_CACHE_L1I none)
set(BM_CACHE_L1D none)
