# SPDX-License-Identifier: Apache-2.0
# nucleo-f401re: ST Nucleo-F401RE (STM32F401RE, Cortex-M4F at 84 MHz, 512 KiB flash, 96 KiB SRAM).
# Hardware only (no QEMU model): built in CI, flashed with openocd through the on-board ST-LINK.
# Read before project(): sets only variables (see boards/template/board.cmake).
set(BM_ARCH armv7m)
set(BM_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16)
# The STM32F4 family's code (boards/families/stm32f4) and the drivers of its devices.
set(BM_BOARD_SOURCES board.c ${BM_FAMILIES}/stm32f4/stm32f4.c ${BM_DRIVERS}/uart_stm32.c ${BM_DRIVERS}/stm32_tim.c)
# Flashing (configure with -DBM_FOR_HARDWARE=ON): openocd's own Nucleo-F4 configuration.
set(BM_FLASH openocd -f board/st_nucleo_f4.cfg -c "program {@ELF@} verify reset exit")
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "ST Nucleo-F401RE, Cortex-M4F at 84 MHz")
set(BM_RUNS_ON "the board only (built and checked in CI, not run)")
# The fault test turns the console off through its driver: USART2's CR1.TE cleared.
set(BM_TEST_CONSOLE_OFF stm32_usart_tx_off)
# Cache model (docs/cache-model.md): the core has no caches (an STM32's flash accelerator is no data cache).
set(BM_CACHE_L1I none)
set(BM_CACHE_L1D none)
