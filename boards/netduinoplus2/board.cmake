# SPDX-License-Identifier: Apache-2.0
# netduinoplus2: Netduino Plus 2 (STM32F405RG, Cortex-M4F at 168 MHz) as QEMU models it, QEMU
# -machine netduinoplus2: the STM32F4 board under QEMU, running the STM32F4 family's code that
# nucleo-f401re runs (the two differ only in data). Read before project(): sets only variables
# (see boards/template/board.cmake).
set(BM_ARCH armv7m)
# The Nucleo's flags: the family's code and the STM32 drivers compile to the same objects for both boards.
set(BM_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16)
# The STM32F4 family's code (boards/families/stm32f4) and the drivers of its devices.
set(BM_BOARD_SOURCES board.c ${BM_FAMILIES}/stm32f4/stm32f4.c ${BM_DRIVERS}/uart_stm32.c ${BM_DRIVERS}/stm32_tim.c)
# USART2 is QEMU's second serial port (the first is USART1, unused). The kit exits through
# semihosting, so -semihosting is required.
set(BM_QEMU qemu-system-arm -machine netduinoplus2 -display none -monitor none -serial null -serial stdio
    -semihosting -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 44) # M SysTick ticks its QEMU line runs a wall second (tools/bench/qemu-rate)
set(BM_TEST_BAD_ADDRESS 0x30000000) # reserved on the STM32F405, nothing there in QEMU (a BusFault)
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "Netduino Plus 2, STM32F405 Cortex-M4F (the Nucleo's STM32 drivers under QEMU)")
set(BM_RUNS_ON "`qemu-system-arm -machine netduinoplus2`")
# The fault test turns the console off through its driver: USART2's CR1.TE cleared.
set(BM_TEST_CONSOLE_OFF stm32_usart_tx_off)
# Cache model (docs/cache-model.md): the core has no caches (an STM32's flash accelerator is no data cache).
set(BM_CACHE_L1I none)
set(BM_CACHE_L1D none)
