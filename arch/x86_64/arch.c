/* SPDX-License-Identifier: Apache-2.0 */
/* x86_64 cold path: probe the TSC (RDTSCP, invariant TSC, CPUID 0x15/0x16 frequency, a PIT
 * cross-check), measure how many core cycles one TSC tick is worth, and turn any exception into
 * a readable report (vector in words, error code, RIP) and a failed run. */
#include <stdint.h>

#include "arch/devices.h"
#include "arch/pio.h"
#include "bm/out.h"
#include "bm/port.h"
#include "bm/wide.h"

uint8_t arch_x86_has_rdtscp __attribute__((section(".ro_after_init"))); /* paging.c sets it */

static uint8_t pio_read(uintptr_t port)
{
	return arch_inb((uint16_t)port);
}

static void pio_write(uintptr_t port, uint8_t v)
{
	arch_outb((uint16_t)port, v);
}

/* One instruction for a whole burst: a call and an out per byte would be most of what the
 * console costs here. */
static void pio_write_rep(uintptr_t port, const char *s, size_t n)
{
	__asm__ volatile("rep outsb" : "+S"(s), "+c"(n) : "d"((uint16_t)port) : "memory");
}

const struct bm_io8 arch_pio8 = {pio_read, pio_write, pio_write_rep};

static uint64_t rdtsc_fenced(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* ---- exceptions ---- */

static const char *const vector_names[X86_VEC_FIRST_IRQ] = {
	"divide error", "debug", "non-maskable interrupt", "breakpoint", "overflow",
	"bound range exceeded", "invalid opcode", "device not available", "double fault",
	"coprocessor segment overrun", "invalid TSS", "segment not present", "stack-segment fault",
	"general protection fault", "page fault", "reserved", "x87 floating-point error",
	"alignment check", "machine check", "SIMD floating-point exception", "virtualization exception",
	"control protection exception", "reserved", "reserved", "reserved", "reserved", "reserved",
	"reserved", "hypervisor injection exception", "VMM communication exception",
	"security exception", "reserved",
};

/* What start.S's stubs leave on the stack, lowest address first. */
struct trap_frame {
	uint64_t vector, error, rip, cs, rflags, rsp, ss;
};

void arch_x86_trap(const struct trap_frame *f, uint64_t cr0) __attribute__((noreturn, used));
void arch_x86_trap(const struct trap_frame *f, uint64_t cr0)
{
	uint64_t cr2 = 0;
	if (f->vector == X86_VEC_PAGE_FAULT)
		__asm__ volatile("mov %%cr2, %0" : "=r"(cr2));
	/* Every vector runs on the trap stack (IST1), so even a fault of an exhausted stack gets
	 * here, from ring 0 or ring 3 (benchmark code: its rsp is the frame's); the only interrupt
	 * the kit enables is the watchdog's. */
	struct bm_fault flt = {
		.kind = f->vector == X86_VEC_WATCHDOG ? BM_FAULT_TIMEOUT : BM_FAULT_TRAP,
		.has_addr = f->vector == X86_VEC_PAGE_FAULT,
		.cause = f->vector < X86_VEC_FIRST_IRQ  ? vector_names[f->vector]
		         : f->vector == X86_VEC_WATCHDOG ? "watchdog (LAPIC timer, vector 32)"
		                                        : "unexpected interrupt",
		.code = f->vector << 32 | (f->error & 0xffffffffu),
		.pc = f->rip, .addr = cr2, .sp = f->rsp,
	};
	if (f->vector == X86_VEC_NO_FPU && (cr0 & (X86_CR0_TS | X86_CR0_EM)))
		flt.cause = "x87/SSE not available: the FPU had been turned off (CR0.TS or CR0.EM), the kit "
		            "turned it back on";
	if (bm_fault_take(&flt))
		bm_recover(); /* in ring 0 now, IF off, SS the kit's (start.S): nothing else to put back */
	/* A fault while reporting one: the console or exit path is broken; stop here. */
	if (bm_fatal_nested())
		for (;;)
			__asm__ volatile("cli; hlt");
	const struct bm_fatal_reg regs[] = {
		{" (vector ", f->vector, 0}, {") error=0x", f->error, 8}, {" rip=0x", f->rip, 16},
		{" rsp=0x", f->rsp, 16}, {" cr2=0x", cr2, 16}, /* (the last for a page fault only) */
	};
	bm_fatal_trap(flt.cause, regs, sizeof regs / sizeof *regs - (f->vector != X86_VEC_PAGE_FAULT), 0);
}

/* ---- the watchdog: the local APIC's timer, one-shot ---- */

/* Initialised, so in .data: out of reach of a benchmark that writes over .bss (the handler uses
 * them to disarm). lapic_init replaces both. */
static uintptr_t lapic_base = LAPIC_DEFAULT_BASE;
static uint32_t lapic_ticks_per_ms = 62500u;

static volatile uint32_t *lapic(uint32_t off)
{
	return (volatile uint32_t *)(lapic_base + off);
}

uint32_t arch_x86_lapic_read(uint32_t off)
{
	return *lapic(off);
}

void arch_x86_lapic_write(uint32_t off, uint32_t v)
{
	*lapic(off) = v;
}

static uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

/* Enables the LAPIC with its timer masked, the legacy 8259 PICs and the LAPIC's other inputs
 * masked (the watchdog is the only interrupt the kit takes), and measures the timer's rate
 * against the board's timer over 100 us (QEMU's runs at 1 GHz / divisor; hardware varies): a
 * watchdog needs the rate within a few percent, and 100 us of HPET is over a thousand ticks. */
static int lapic_init(struct bm_alarm *a)
{
	(void)a;
	struct bm_timer *t = bm_port_timer();
	if (!(x86_cpuid(CPUID_FEATURES, 0).d & CPUID_1_EDX_APIC) || !t)
		return -1;
	arch_outb(PIC1_DATA, PIC_MASK_ALL);
	arch_outb(PIC2_DATA, PIC_MASK_ALL);
	uint64_t base = rdmsr(MSR_APIC_BASE);
	wrmsr(MSR_APIC_BASE, base | APIC_BASE_ENABLE);
	lapic_base = (uintptr_t)(base & APIC_BASE_ADDR);
	*lapic(LAPIC_SVR) = LAPIC_SVR_ENABLE | X86_VEC_SPURIOUS;
	*lapic(LAPIC_TPR) = 0;
	*lapic(LAPIC_LVT_LINT0) = LVT_MASKED;
	*lapic(LAPIC_LVT_LINT1) = LVT_MASKED;
	*lapic(LAPIC_LVT_ERROR) = LVT_MASKED;
	*lapic(LAPIC_LVT_TIMER) = LVT_MASKED | X86_VEC_WATCHDOG;
	*lapic(LAPIC_TIMER_DIV) = LAPIC_TIMER_DIV_16;
	uint64_t window = t->hz / 10000 ? t->hz / 10000 : 1, t0 = t->read(t), t1;
	*lapic(LAPIC_TIMER_INIT) = UINT32_MAX;
	while ((t1 = t->read(t)) - t0 < window)
		;
	uint64_t counted = UINT32_MAX - *lapic(LAPIC_TIMER_CUR);
	lapic_ticks_per_ms = (uint32_t)bm_muldiv64(counted, t->hz, (t1 - t0) * 1000);
	*lapic(LAPIC_TIMER_INIT) = 0;
	return lapic_ticks_per_ms ? 0 : -1;
}

static void lapic_arm(struct bm_alarm *a, uint32_t ms)
{
	(void)a;
	uint64_t n = (uint64_t)ms * lapic_ticks_per_ms;
	*lapic(LAPIC_LVT_TIMER) = X86_VEC_WATCHDOG; /* one-shot, unmasked */
	*lapic(LAPIC_TIMER_INIT) = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	__asm__ volatile("sti" : : : "memory");
}

/* Also what ends a fired alarm: the handler never returns from the interrupt, so the
 * end-of-interrupt is written here. */
static void lapic_disarm(struct bm_alarm *a)
{
	(void)a;
	__asm__ volatile("cli" : : : "memory");
	*lapic(LAPIC_LVT_TIMER) = LVT_MASKED | X86_VEC_WATCHDOG;
	*lapic(LAPIC_TIMER_INIT) = 0;
	*lapic(LAPIC_EOI) = 0;
}

struct bm_alarm arch_lapic_alarm = {
	.name = "lapic timer (one-shot, vector 32)", .init = lapic_init, .arm = lapic_arm, .disarm = lapic_disarm,
};

/* ---- TSC frequency and core/TSC ratio ---- */

#define PIT_HZ 1193182u
#define PIT_LATCH (PIT_HZ / 1000u) /* 1 ms: 1193 PIT ticks, within 0.1%, enough for a cross-check */

/* TSC ticks over 1 ms of PIT channel 2 (mode 0, its gate and OUT2 on port 0x61), scaled to Hz.
 * Works with interrupts off and needs no IRQ set-up. 0 if OUT2 never rises. */
static uint64_t pit_calibrate_tsc_hz(void)
{
	arch_outb(PORT_61, (uint8_t)((arch_inb(PORT_61) & ~PORT_61_SPEAKER) | PORT_61_GATE2));
	arch_outb(PIT_COMMAND, PIT_CMD_CH2_MODE0);
	arch_outb(PIT_CH2_DATA, PIT_LATCH & 0xff);
	arch_outb(PIT_CH2_DATA, PIT_LATCH >> 8);
	uint64_t t0 = rdtsc_fenced();
	uint64_t spins = 0;
	while ((arch_inb(PORT_61) & PORT_61_OUT2) == 0)
		if (++spins > 100000000u)
			return 0;
	uint64_t t1 = rdtsc_fenced();
	return (t1 - t0) * PIT_HZ / PIT_LATCH;
}

/* Core cycles per iteration of the chain below: 8 dependent adds. Every x86 core since the
 * P6 executes a dependent register add in exactly one cycle, and the loop counter runs in
 * parallel, so the chain's length in core cycles is known whatever the clock. */
#define CHAIN_ADDS 8u

/* TSC ticks for n iterations of the chain (8 n core cycles), best of 2 (the first also warms). */
static uint64_t chain_ticks(uint32_t n)
{
	uint64_t best = UINT64_MAX;
	for (int rep = 0; rep < 2; rep++) {
		struct arch_snap a, b;
		uint64_t acc = 0;
		uint32_t k = n;
		arch_snap_begin(&a);
		__asm__ volatile("1:\n\t"
		                 "addq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\t"
		                 "addq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\taddq $1, %0\n\t"
		                 "decl %1\n\tjnz 1b"
		                 : "+r"(acc), "+r"(k)
		                 :
		                 : "cc");
		arch_snap_end(&b);
		if (b.cycles - a.cycles < best)
			best = b.cycles - a.cycles;
	}
	return best;
}

/* Core cycles per TSC tick in parts per million (1000000 = the TSC runs at the core clock),
 * measured now with the dependent add chain (x86 cores do one dependent add per cycle). The
 * harness calls it before each benchmark (arch_info.core_per_tick_ppm), so a frequency change
 * during the run shows up in the figures of the benchmark it hit. The chain is timed at 385 and
 * at 1 iteration and the difference taken, so the counter's own read cost (~100 ticks with the
 * serialising cpuid) and the loop's entry cancel: 3,072 core cycles then give the ratio within
 * about 0.7% (the read's jitter), where one plain chain would need 80,000 cycles (6% of a
 * deterministic run's instructions) to outweigh the read cost. (512 iterations, 0.5%, cost the
 * kit 0.08% more of a deterministic run than its 5% budget had left.) */
static uint32_t core_per_tick_ppm(void)
{
	const uint32_t n = 384; /* 3,072 core cycles */
	uint64_t t1 = chain_ticks(1), t2 = chain_ticks(n + 1);
	return t2 > t1 ? (uint32_t)((uint64_t)n * CHAIN_ADDS * 1000000u / (t2 - t1)) : 0;
}

/* ---- facts ---- */

static struct bm_kv facts[11]; /* the last stays {0, 0} */
static char vendor[13];
static char buf_cpuid_hz[24], buf_pit_hz[24], buf_ratio[24], buf_pmu[48], buf_leaves[40];

static struct arch_info info = {
	.isa = "x86_64",
	.cycle_counter = "tsc",
	.cycle_unit = "tsc_ticks", /* nominal cycles; core cycles from core_per_tick_ppm() */
	.instret_counter = 0,
	.facts = facts,
	.core_per_tick_ppm = core_per_tick_ppm,
};

static void add_fact(const char *key, const char *value)
{
	bm_kv_add(facts, sizeof facts / sizeof facts[0], key, value);
}

void arch_init(void)
{
	struct x86_cpuid r = x86_cpuid(CPUID_VENDOR, 0);
	uint32_t max_basic = r.a;
	const uint32_t v[3] = {r.b, r.d, r.c};
	for (int i = 0; i < 12; i++)
		vendor[i] = (char)(v[i / 4] >> (8 * (i % 4)));
	uint32_t max_ext = x86_cpuid(CPUID_EXT_MAX, 0).a;
	char *p = bm_append_str(buf_leaves, "basic ");
	p = bm_append_hex(p, max_basic, 2);
	p = bm_append_str(p, ", extended ");
	bm_append_hex(p, max_ext, 8);

	info.cycle_counter = arch_x86_has_rdtscp
		? "tsc ticks (nominal cycles): cpuid;rdtsc .. rdtscp;cpuid"
		: "tsc ticks (nominal cycles): cpuid;rdtsc .. lfence;rdtsc;cpuid (no rdtscp)";
	int invariant = x86_invariant_tsc();

	/* TSC frequency from CPUID: 0x15 (crystal ratio) or 0x16 (base MHz). QEMU TCG has neither. */
	uint64_t cpuid_hz = 0;
	if (max_basic >= CPUID_TSC_CRYSTAL) {
		r = x86_cpuid(CPUID_TSC_CRYSTAL, 0);
		if (r.a && r.b && r.c)
			cpuid_hz = (uint64_t)r.c * r.b / r.a;
	}
	if (!cpuid_hz && max_basic >= CPUID_FREQUENCY)
		cpuid_hz = (uint64_t)CPUID_FREQUENCY_MHZ(x86_cpuid(CPUID_FREQUENCY, 0).a) * 1000000u;
	if (cpuid_hz)
		bm_append_u64(buf_cpuid_hz, cpuid_hz);
	else
		bm_append_str(buf_cpuid_hz, "absent");

	/* Architectural PMU (CPUID 0xA): reported, not used. QEMU TCG has none. */
	if (max_basic >= CPUID_PMU && CPUID_PMU_VERSION(x86_cpuid(CPUID_PMU, 0).a)) {
		r = x86_cpuid(CPUID_PMU, 0);
		p = bm_append_str(buf_pmu, "v");
		p = bm_append_u64(p, CPUID_PMU_VERSION(r.a));
		p = bm_append_str(p, ", ");
		p = bm_append_u64(p, CPUID_PMU_FIXED(r.d));
		bm_append_str(p, " fixed counters (not used)");
	} else {
		bm_append_str(buf_pmu, "none");
	}

	/* The PIT cross-checks the core's estimate against the board timer (HPET). */
	uint64_t pit_hz = pit_calibrate_tsc_hz();
	if (pit_hz)
		bm_append_u64(buf_pit_hz, pit_hz);
	else
		bm_append_str(buf_pit_hz, "pit did not count");
	uint32_t ppm = core_per_tick_ppm();
	bm_append_u64(buf_ratio, ppm);

	add_fact("mode", "long mode, the kit in ring 0, pvh entry, 4 GiB identity map (2 MiB pages, 4 KiB ones "
	                 "from FLASH to the user region's end)");
	add_fact("benchmarks", "ring 3: the kit's memory and tables, the devices (the LAPIC too) and I/O ports out "
	                       "of reach (supervisor-only pages, IOPL 0, no I/O bitmap); the TSC readable");
	add_fact("vendor", vendor);
	add_fact("cpuid_max", buf_leaves);
	add_fact("rdtscp", arch_x86_has_rdtscp ? "yes" : "no (lfence;rdtsc fallback)");
	add_fact("invariant_tsc", invariant ? "yes" : "no");
	add_fact("tsc_hz_cpuid", buf_cpuid_hz);
	add_fact("tsc_hz_pit", buf_pit_hz);
	add_fact("core_cycles_per_tsc_tick_ppm", buf_ratio);
	add_fact("pmu", buf_pmu);
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
