/* SPDX-License-Identifier: Apache-2.0 */
/* QEMU `-machine virt` (AArch64, Cortex-A53 or -A72): PL011 console, the generic timer as the
 * board timer, exit through semihosting (QEMU -semihosting). Memory map (from QEMU
 * hw/arm/virt.c, base_memmap):
 *   0x00000000  flash, then GICv2 (0x08000000 distributor, 0x08010000 CPU interface), UART0 PL011
 *               (0x09000000), RTC, GPIO, virtio-mmio,
 *               PCIe: all MMIO below 1 GiB          mapped Device-nGnRE
 *   0x40000000  RAM, 128 MiB by default (-m)       mapped Normal write-back
 *               (the DTB sits at its start; the ELF is linked at 0x40080000, see memory.ld)
 * virt has no memory-mapped free-running timer of its own: the timer role is played by the
 * generic timer CNTVCT_EL0, at the rate CNTFRQ_EL0 gives (62.5 MHz in QEMU 7.2). */
#include "arch/devices.h"
#include "arm_vtimer_alarm.h"
#include "uart_pl011.h"

/* UARTCLK is the 24 MHz "apb_pclk" QEMU's device tree gives the PL011. */
static struct pl011 uart0 = {
	.con = PL011_CONSOLE("pl011@0x09000000"),
	.base = 0x09000000, .clock_hz = 24000000, .baud = 115200,
};

/* GICv2: distributor at 0x08000000, CPU interface at 0x08010000. */
static struct arm_vtimer_alarm alarm = {
	.alarm = ARM_VTIMER_ALARM("cntv + gicv2 ppi 27"), .intc = ARM_VTIMER_GICV2,
	.base = 0x08000000, .gicc = 0x08010000,
};

static const struct bm_mem_region mem_map[] = {
	{.base = 0x00000000, .size = 0x40000000, .type = BM_MEM_DEVICE},
	{.base = 0x40000000, .size = 128u << 20, .type = BM_MEM_NORMAL},
};

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &uart0.con,
	.timer = &arch_generic_timer,
	.alarm = &alarm.alarm,
	.exit = &arch_semihosting,
	.mem_map = mem_map,
	.mem_map_len = sizeof mem_map / sizeof mem_map[0],
};
