/* SPDX-License-Identifier: Apache-2.0 */
/* Virtual-timer watchdog (see arm_vtimer_alarm.h). GICv2 registers from the GIC architecture
 * specification v2 (IHI 0048B), the BCM2836 local controller's from the QA7 document. */
#include "arch/arch.h"
#include "arm_vtimer_alarm.h"
#include "mmio.h"

#define VTIMER_PPI 27u
#define GICD_CTLR 0x000u
#define GICD_TYPER 0x004u
#define GICD_ISENABLER0 0x100u
#define GICD_ICENABLER0 0x180u
#define GICD_ICPENDR0 0x280u
#define GICD_ICACTIVER0 0x380u
#define GICD_IPRIORITYR 0x400u
#define GICD_TYPER_SECURITY_EXTN (1u << 10)
#define GICD_CTLR_ENABLE (1u << 0)
#define GICC_CTLR 0x000u
#define GICC_CTLR_ENABLE (1u << 0)
#define GICC_PMR 0x004u
#define GICC_PMR_UNMASK 0xf0u /* priorities numerically below it reach the core */
#define VTIMER_PRIORITY 0x80u
#define BCM2836_CORE0_TIMER_IRQCNTL 0x40u
#define BCM2836_CNTVIRQ (1u << 3)

/* With the Security Extensions (QEMU virt,secure=on), the timer's interrupt is configured by the
 * secure world, which the kit left behind when it dropped to non-secure EL1: no watchdog then. */
int arm_vtimer_alarm_init(struct bm_alarm *a)
{
	const struct arm_vtimer_alarm *t = (const struct arm_vtimer_alarm *)a;
	if (t->intc == ARM_VTIMER_GICV2 && (*mmio32(t->base + GICD_TYPER) & GICD_TYPER_SECURITY_EXTN))
		return -1;
	return 0;
}

void arm_vtimer_alarm_arm(struct bm_alarm *a, uint32_t ms)
{
	const struct arm_vtimer_alarm *t = (const struct arm_vtimer_alarm *)a;
	uint64_t hz = arch_cntfrq_hz();
	arch_sysreg_write(cntv_cval_el0, arch_sysreg_read(cntvct_el0) + (uint64_t)ms * hz / 1000u);
	arch_sysreg_write(cntv_ctl_el0, CNTV_CTL_ENABLE); /* not masked */
	if (t->intc == ARM_VTIMER_GICV2) {
		*mmio8(t->base + GICD_IPRIORITYR + VTIMER_PPI) = VTIMER_PRIORITY;
		*mmio32(t->base + GICD_ISENABLER0) = 1u << VTIMER_PPI;
		*mmio32(t->base + GICD_CTLR) = GICD_CTLR_ENABLE;
		*mmio32(t->gicc + GICC_PMR) = GICC_PMR_UNMASK;
		*mmio32(t->gicc + GICC_CTLR) = GICC_CTLR_ENABLE;
	} else {
		*mmio32(t->base + BCM2836_CORE0_TIMER_IRQCNTL) |= BCM2836_CNTVIRQ;
	}
	arch_isb();
	__asm__ volatile("msr daifclr, %0" : : "i"(DAIF_IRQ) : "memory");
}

/* Also what ends a fired alarm: the handler never returns from the interrupt, so its active
 * state is cleared here rather than by an end-of-interrupt write. */
void arm_vtimer_alarm_disarm(struct bm_alarm *a)
{
	const struct arm_vtimer_alarm *t = (const struct arm_vtimer_alarm *)a;
	__asm__ volatile("msr daifset, %0" : : "i"(DAIF_IRQ) : "memory");
	arch_sysreg_write(cntv_ctl_el0, 0);
	if (t->intc == ARM_VTIMER_GICV2) {
		*mmio32(t->base + GICD_ICENABLER0) = 1u << VTIMER_PPI;
		*mmio32(t->base + GICD_ICPENDR0) = 1u << VTIMER_PPI;
		*mmio32(t->base + GICD_ICACTIVER0) = 1u << VTIMER_PPI;
	} else {
		*mmio32(t->base + BCM2836_CORE0_TIMER_IRQCNTL) &= ~BCM2836_CNTVIRQ;
	}
	arch_isb();
}
