/* QEMU `-machine virt` (AArch64, Cortex-A53 or -A72): PL011 console, the generic timer as the
 * board timer, exit through semihosting (QEMU -semihosting). Memory map (from QEMU
 * hw/arm/virt.c, base_memmap):
 *   0x00000000  flash, then GIC (0x08000000), UART0 PL011 (0x09000000), RTC, GPIO, virtio-mmio,
 *               PCIe: all MMIO below 1 GiB          mapped Device-nGnRE
 *   0x40000000  RAM, 128 MiB by default (-m)       mapped Normal write-back
 *               (the DTB sits at its start; the ELF is linked at 0x40080000, see memory.ld)
 * virt has no memory-mapped free-running timer of its own: the timer role is played by the
 * generic timer CNTVCT_EL0 (62.5 MHz in QEMU 7.2; the meta record shows CNTFRQ_EL0). */
#include "arch/arch.h"
#include "arch/mmu.h"
#include "bm/board.h"
#include "uart_pl011.h"

#define VIRT_UART0_BASE 0x09000000u
#define VIRT_CNTFRQ_HZ 62500000u

void arch_semihost_exit(long code);

/* UARTCLK is the 24 MHz "apb_pclk" QEMU's device tree gives the PL011. */
static const struct pl011 uart0 = {
	.base = VIRT_UART0_BASE, .clock_hz = 24000000, .baud = 115200,
};

const struct arch_mem_region board_mem_map[] = {
	{.base = 0x00000000, .size = 0x40000000, .type = ARCH_MEM_DEVICE},
	{.base = 0x40000000, .size = 128u << 20, .type = ARCH_MEM_NORMAL},
};
const unsigned board_mem_map_len = sizeof board_mem_map / sizeof board_mem_map[0];

static void virt_init(void)
{
	pl011_init(&uart0);
}

static void virt_putc(char c)
{
	pl011_putc(&uart0, c);
}

static uint64_t virt_timer(void)
{
	return arch_cntvct();
}

static void virt_exit(int status)
{
	arch_semihost_exit(status);
}

const struct bm_board board_desc = {
	.name = "qemu-virt-aarch64",
	.console = "pl011@0x09000000",
	.init = virt_init,
	.putc = virt_putc,
	.timer_ticks = virt_timer,
	.timer_hz = VIRT_CNTFRQ_HZ,
	.timer_name = "generic-timer CNTVCT_EL0 (virt has no memory-mapped timer)",
	.exit = virt_exit,
};
