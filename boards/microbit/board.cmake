# SPDX-License-Identifier: Apache-2.0
# microbit: BBC micro:bit v1 (nRF51822, Cortex-M0, 16 KiB RAM), and QEMU -machine microbit.
# No DWT cycle counter: the arch falls back to SysTick (QEMU) or TIMER0 (the chip, which has no
# SysTick). Read before project(): sets only variables (see boards/template/board.cmake).
set(BM_ARCH armv7m)
set(BM_CPU_FLAGS -mcpu=cortex-m0 -mthumb -mfloat-abi=soft)
set(BM_BOARD_SOURCES board.c ${BM_DRIVERS}/uart_nrf51.c ${BM_DRIVERS}/nrf51_timer.c)
set(BM_QEMU qemu-system-arm -machine microbit -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 19) # M SysTick ticks its QEMU line runs a wall second (tools/bench/qemu-rate)
set(BM_TEST_BAD_ADDRESS 0xa0000000) # nothing answers here (a bus error: HardFault); the fault test loads from it
# No MPU (ARMv6-M) to map FLASH read-only: a store into .rodata is no trap. QEMU's nRF51 flash
# ignores it (the constant is unchanged, so fault_rodata_write is ok); the chip's NVMC, while not
# enabled for writes, should too (not measured).
set(BM_TEST_FLASH_WRITE ok)
# Flashing a real micro:bit (configure with -DBM_FOR_HARDWARE=ON): openocd through the on-board
# DAPLink (CMSIS-DAP). Copying baremark.hex to the MICROBIT drive works too.
set(BM_FLASH openocd -f interface/cmsis-dap.cfg -f target/nrf51.cfg -c "program {@ELF@} verify reset exit")
# 16 KiB of RAM: the kit's own suite takes smaller inputs (benchmarks/), leaving at least 3 KiB
# for your own static data (a test holds the kit to it).
set(BM_SUITE_SMALL ON)
# Without the statistics self-benchmarks by default, as on hifive1 (-DBM_SELECT=^stats_ builds them).
set(BM_SELECT_DEFAULT "^(?!stats_)")
set(BM_REQUIRE_RAM_FREE_BYTES 3072)
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "BBC micro:bit v1, nRF51822 Cortex-M0, 16 KiB RAM")
set(BM_RUNS_ON "`qemu-system-arm -machine microbit`, or the board")
# No BM_TEST_CONSOLE_OFF: QEMU's nRF51 UART reads ENABLE back as 0, so the kit cannot tell a UART
# a benchmark turned off from one it left on (it sets the UART up again after every benchmark).
# Cache model (docs/cache-model.md): the core has no caches.
set(BM_CACHE_L1I none)
set(BM_CACHE_L1D none)
