# SPDX-License-Identifier: Apache-2.0
# mps2-an386: Arm MPS2 with the AN386 image (Cortex-M4F), QEMU -machine mps2-an386; the default
# Cortex-M board. Read before project(): sets only variables (see boards/template/board.cmake).
set(BM_ARCH armv7m)
set(BM_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16)
# The MPS2 images' devices (boards/families/mps), as on mps2-an385 and mps2-an500.
set(BM_BOARD_SOURCES board.c ${BM_FAMILIES}/mps/mps2.c ${BM_DRIVERS}/uart_cmsdk.c ${BM_DRIVERS}/cmsdk_timer.c)
# The kit exits through semihosting, so -semihosting is required.
set(BM_QEMU qemu-system-arm -machine mps2-an386 -nographic -semihosting -kernel @ELF@)
set(BM_QEMU_MCYCLES_PER_S 23) # M SysTick ticks its QEMU line runs a wall second (tools/bench/qemu-rate)
set(BM_TEST_BAD_ADDRESS 0xa0000000) # nothing answers here (QEMU: a BusFault); the fault test loads from it
# Its row in README.md's board table and its configure preset (tools/gen-boards).
set(BM_DESCRIPTION "Cortex-M4F (the default Cortex-M board; picolibc)")
set(BM_RUNS_ON "`qemu-system-arm -machine mps2-an386`")
set(BM_PRESET_CACHE BM_LIBC=picolibc)
set(BM_PRESET_VARIANTS newlib) # preset mps2-an386-newlib
set(BM_PRESET_newlib BM_LIBC=newlib)
set(BM_PRESET_newlib_DESCRIPTION "the same with newlib-nano")
# The fault test turns the console off through its driver: UART0's CTRL.TXEN cleared.
set(BM_TEST_CONSOLE_OFF cmsdk_uart_tx_off)
# Cache model (docs/cache-model.md): the core has no caches.
set(BM_CACHE_L1I none)
set(BM_CACHE_L1D none)
