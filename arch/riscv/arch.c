/* SPDX-License-Identifier: Apache-2.0 */
/* RISC-V cold path: enable the counters for every privilege level that exists, probe which
 * optional CSRs are present (a missing CSR traps as an illegal instruction, so the probe runs
 * under the trap handler), and turn any other trap into a readable report and a failed run. */
#include <stdint.h>

#include "arch/devices.h"
#include "arch/riscv.h"
#include "bm/port.h"

#if __riscv_xlen == 64
#define ARCH_ISA_XLEN "rv64"
#else
#define ARCH_ISA_XLEN "rv32"
#endif

/* Address of the semihosting ebreak, so a board without a debugger halts quietly (see semihost.S). */
extern char arch_semihost_ebreak[];

static const char *const exception_names[] = {
	"instruction address misaligned", "instruction access fault", "illegal instruction",
	"breakpoint", "load address misaligned", "load access fault",
	"store/AMO address misaligned", "store/AMO access fault", "environment call from U-mode",
	"environment call from S-mode", "reserved", "environment call from M-mode",
	"instruction page fault", "load page fault", "reserved", "store/AMO page fault",
};

static const char *const interrupt_names[] = {
	"user software interrupt", "supervisor software interrupt", "reserved",
	"machine software interrupt", "user timer interrupt", "supervisor timer interrupt",
	"reserved", "machine timer interrupt", "user external interrupt",
	"supervisor external interrupt", "reserved", "machine external interrupt",
};

static void halt_forever(void)
{
	for (;;)
		__asm__ volatile("wfi");
}

extern char __trap_stack_top[];

/* Exceptions whose mtval holds the faulting address: misaligned and access/page faults. */
#define ADDR_CAUSES                                                                                \
	((1u << EXC_INSN_MISALIGNED) | (1u << EXC_INSN_ACCESS) | (1u << EXC_LOAD_MISALIGNED) |     \
	 (1u << EXC_LOAD_ACCESS) | (1u << EXC_STORE_MISALIGNED) | (1u << EXC_STORE_ACCESS) |        \
	 (1u << EXC_INSN_PAGE) | (1u << EXC_LOAD_PAGE) | (1u << EXC_STORE_PAGE))

/* Called from arch_trap_entry (start.S) with the interrupted sp. Returns the address to resume
 * at; does not return when the fault ends the benchmark (recovery) or the run. */
/* Its saved registers (start.S): ra, t0-t2, a0-a7, t3-t6. */
#define FRAME_A0 4
#define FRAME_A1 5
#define FRAME_A2 6
#define FRAME_A7 11

__attribute__((noreturn)) void arch_user_resume(uintptr_t result); /* usermode.S */

unsigned long arch_trap(unsigned long mcause, unsigned long mepc, unsigned long mtval, unsigned long sp,
                        unsigned long *frame);
unsigned long arch_trap(unsigned long mcause, unsigned long mepc, unsigned long mtval, unsigned long sp,
                        unsigned long *frame)
{
	const unsigned long irq_bit = MCAUSE_INTERRUPT;
	unsigned long code = mcause & ~irq_bit;

	/* Benchmark code asking the kit (from U-mode, or from the kit itself in M-mode), or done. */
	if ((mcause == EXC_ECALL_U || mcause == EXC_ECALL_M) && frame[FRAME_A7] == ARCH_ECALL_KIT) {
		frame[FRAME_A0] = bm_kit_service((unsigned)frame[FRAME_A0], frame[FRAME_A1], frame[FRAME_A2]);
		return mepc + 4;
	}
	if (mcause == EXC_ECALL_U && frame[FRAME_A7] == ARCH_ECALL_RETURN)
		arch_user_resume(frame[FRAME_A0]);
	/* A probe of an optional CSR (BM_PROBE): skip the 4-byte instruction. */
	if (mcause == EXC_ILLEGAL_INSN && bm_probe_fault())
		return mepc + 4;
	/* A semihosting call with no debugger attached (a real board): nothing more to say. */
	if (mcause == EXC_BREAKPOINT && mepc == (unsigned long)arch_semihost_ebreak)
		halt_forever();
	/* A trap while reporting a trap: the console or exit path is broken; stop here. */
	if (bm_fatal_nested())
		halt_forever();

	const char *what = "unknown cause";
	if (mcause & irq_bit) {
		if (code < sizeof interrupt_names / sizeof interrupt_names[0])
			what = interrupt_names[code];
	} else if (code < sizeof exception_names / sizeof exception_names[0]) {
		what = exception_names[code];
	}
	int is_irq = (mcause & irq_bit) != 0;
	struct bm_fault f = {
		.kind = is_irq && code == IRQ_M_TIMER ? BM_FAULT_TIMEOUT : BM_FAULT_TRAP,
		.has_addr = !is_irq && code < 32 && ((ADDR_CAUSES >> code) & 1),
		.cause = what, .code = mcause, .pc = mepc, .addr = mtval, .sp = sp,
	};
	if (bm_fault_take(&f)) {
		/* The entry swapped sp with mscratch: give the trap stack back, then continue in
		 * the harness (M-mode throughout; MIE stays off until the next alarm is armed). */
		arch_mscratch_write((unsigned long)__trap_stack_top);
		bm_recover();
	}
	const struct bm_fatal_reg regs[] = {
		{" (mcause=0x", mcause, __riscv_xlen / 4}, {") mepc=0x", mepc, __riscv_xlen / 4},
		{" mtval=0x", mtval, __riscv_xlen / 4},
	};
	bm_fatal_trap(what, regs, sizeof regs / sizeof *regs, 0);
}

const struct bm_exit arch_semihosting = {.name = "semihosting", .exit = arch_semihost_exit};

static struct bm_kv facts[8]; /* the last stays {0, 0} */
static struct arch_info info = {
	.isa = ARCH_ISA_XLEN "imac",
	.cycle_counter = "cycle (rdcycle)",
	.instret_counter = "instret (rdinstret)",
	.icount_cycles_are_insns = 1, /* mcycle and minstret under -icount: both the instruction count */
	.facts = facts,
};

static void add_fact(const char *key, const char *value)
{
	bm_kv_add(facts, sizeof facts / sizeof facts[0], key, value);
}

/* Linker symbols (linker/common.ld, the board's memory.ld). */
extern char __stack_bottom[], __stack_guard_size[], __flash_origin[], __flash_limit[], __user_stack_bottom[],
	__user_stack_top[], __user_start[], __user_end[];

/* U-mode's memory, entries 4-7, written once (not locked: they bind U-mode only): 4: OFF, the
 * benchmarks' stack's bottom; 5: TOR that stack read/write; 6: OFF, the user region's base; 7:
 * TOR the user region read/write. Nothing else matches for U-mode, so everything else (the kit's
 * stack, trap stack and variables on both sides of the benchmarks' stack, every device) is out of
 * its reach. Every edge lies on the board's __bm_user_align: under QEMU a page an edge cuts takes
 * the slow path on every access (its TLB keeps no entry for it), so there 4 KiB. 0 when the core
 * has fewer than 8 entries. */
int arch_pmp_user(void)
{
	if (!BM_PROBE(arch_pmpaddr7_write(PMP_ADDR(__user_end))))
		return 0;
	arch_pmpaddr4_write(PMP_ADDR(__user_stack_bottom));
	arch_pmpaddr5_write(PMP_ADDR(__user_stack_top));
	arch_pmpaddr6_write(PMP_ADDR(__user_start));
#if __riscv_xlen == 32
	arch_pmpcfg1_write(PMPCFG_ENTRY(1, PMP_A_TOR | PMP_R | PMP_W) | PMPCFG_ENTRY(3, PMP_A_TOR | PMP_R | PMP_W));
#else
	/* (entries 4-7's bytes whole: what a privileged benchmark left there goes) */
	arch_pmpcfg0_write((arch_pmpcfg0_read() & 0xffffffffu) | PMPCFG_ENTRY(5, PMP_A_TOR | PMP_R | PMP_W) |
	                   PMPCFG_ENTRY(7, PMP_A_TOR | PMP_R | PMP_W));
#endif
	return 1;
}

/* Hardware guards, with PMP entries 0..3 (every core with PMP has at least 4; FE310: 8): the
 * whole FLASH region read/execute only, so a stray store (a stack frame far below the stack, a
 * wild pointer) faults instead of rewriting code that QEMU keeps in RAM; and the guard below the
 * stack no access at all. Locked entries bind M-mode and stay until reset, which is what we want.
 * Returns 0 when the core has no PMP (the CSR write traps). */
static int pmp_guard(void)
{
	unsigned long code_lo = (unsigned long)__flash_origin, code_hi = (unsigned long)__flash_limit;
	unsigned long guard_hi = (unsigned long)__stack_bottom;
	unsigned long guard_lo = guard_hi - (unsigned long)__stack_guard_size;
	if (!BM_PROBE(arch_pmpaddr0_write(PMP_ADDR(code_lo))))
		return 0;
	arch_pmpaddr1_write(PMP_ADDR(code_hi));
	arch_pmpaddr2_write(PMP_ADDR(guard_lo));
	arch_pmpaddr3_write(PMP_ADDR(guard_hi));
	/* entry 0: OFF (the base of entry 1); 1: TOR code R|X; 2: OFF (guard base); 3: TOR none */
	arch_pmpcfg0_write(PMPCFG_ENTRY(1, PMP_A_TOR | PMP_L | PMP_R | PMP_X) |
	                   PMPCFG_ENTRY(3, PMP_A_TOR | PMP_L));
	return 1;
}

void arch_init(void)
{
	/* Counters run: clear every inhibit bit (mcountinhibit is priv 1.11; older cores trap). */
	int ok = BM_PROBE(arch_mcountinhibit_write(0));
	add_fact("mcountinhibit", ok ? "cleared" : "absent");
	/* Lower privilege levels may read cycle, time and instret. mcounteren exists when U-mode
	 * does, scounteren when S-mode does. */
	ok = BM_PROBE(arch_mcounteren_write(COUNTER_CY | COUNTER_TM | COUNTER_IR));
	add_fact("mcounteren", ok ? "0x7" : "absent");
	ok = BM_PROBE(arch_scounteren_write(COUNTER_CY | COUNTER_TM | COUNTER_IR));
	add_fact("scounteren", ok ? "0x7" : "absent");
	/* rdtime is often emulated by firmware, not hardware: say whether it works here. */
	volatile unsigned long t = 0;
	ok = BM_PROBE(t = arch_time_read());
	(void)t;
	add_fact("rdtime", ok ? "ok" : "traps");
	add_fact("priv", "M");
	int guard = pmp_guard();
	add_fact("pmp", guard ? "locked: code read/execute only, stack guard no access"
	                      : "absent (no hardware stack guard)");
	add_fact("benchmarks", guard && arch_pmp_user() ? "U-mode: the kit's memory, trap vector and counters out of reach (PMP)"
	                                           : "U-mode, not isolated (fewer than 8 PMP entries)");
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
