/* RISC-V cold path: enable the counters for every privilege level that exists, probe which
 * optional CSRs are present (a missing CSR traps as an illegal instruction, so the probe runs
 * under the trap handler), and turn any other trap into a readable report and a failed run. */
#include <stdint.h>

#include "arch/devices.h"
#include "bm/out.h"
#include "bm/port.h"

#if __riscv_xlen == 64
#define ARCH_ISA_XLEN "rv64"
#else
#define ARCH_ISA_XLEN "rv32"
#endif

static volatile int in_trap;

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

/* Called from arch_trap_entry (start.S). Returns the address to resume at. */
unsigned long arch_trap(unsigned long mcause, unsigned long mepc, unsigned long mtval);
unsigned long arch_trap(unsigned long mcause, unsigned long mepc, unsigned long mtval)
{
	const unsigned long irq_bit = 1ul << (__riscv_xlen - 1);
	unsigned long code = mcause & ~irq_bit;

	/* A probe of an optional CSR (BM_PROBE): skip the 4-byte instruction. */
	if (mcause == 2 && bm_probe_fault())
		return mepc + 4;
	/* A semihosting call with no debugger attached (a real board): nothing more to say. */
	if (mcause == 3 && mepc == (unsigned long)arch_semihost_ebreak)
		halt_forever();
	/* A trap while reporting a trap: the console or exit path is broken; stop here. */
	if (in_trap)
		halt_forever();
	in_trap = 1;

	const char *what = "unknown cause";
	if (mcause & irq_bit) {
		if (code < sizeof interrupt_names / sizeof interrupt_names[0])
			what = interrupt_names[code];
	} else if (code < sizeof exception_names / sizeof exception_names[0]) {
		what = exception_names[code];
	}
	bm_out_str("\n*** TRAP: ");
	bm_out_str(what);
	bm_out_str(" (mcause=0x");
	bm_out_hex(mcause, __riscv_xlen / 4);
	bm_out_str(") mepc=0x");
	bm_out_hex(mepc, __riscv_xlen / 4);
	bm_out_str(" mtval=0x");
	bm_out_hex(mtval, __riscv_xlen / 4);
	bm_out_str("\n*** the run is aborted (exit status 3)\n");
	bm_board_exit(BM_EXIT_TRAP);
}

const struct bm_exit arch_semihosting = {.name = "semihosting", .exit = arch_semihost_exit};

static struct bm_kv facts[6]; /* the last stays {0, 0} */
static struct arch_info info = {
	.isa = ARCH_ISA_XLEN "imac",
	.cycle_counter = "cycle (rdcycle)",
	.instret_counter = "instret (rdinstret)",
	.facts = facts,
};

static void add_fact(const char *key, const char *value)
{
	bm_kv_add(facts, sizeof facts / sizeof facts[0], key, value);
}

void arch_init(void)
{
	/* Counters run: clear every inhibit bit (mcountinhibit is priv 1.11; older cores trap). */
	int ok = BM_PROBE(arch_csr_write(0x320, 0));
	add_fact("mcountinhibit", ok ? "cleared" : "absent");
	/* Lower privilege levels may read cycle, time and instret (CY|TM|IR). mcounteren exists
	 * when U-mode does, scounteren when S-mode does. */
	ok = BM_PROBE(arch_csr_write(mcounteren, 7));
	add_fact("mcounteren", ok ? "0x7" : "absent");
	ok = BM_PROBE(arch_csr_write(scounteren, 7));
	add_fact("scounteren", ok ? "0x7" : "absent");
	/* rdtime is often emulated by firmware, not hardware: say whether it works here. */
	volatile unsigned long t = 0;
	ok = BM_PROBE(t = arch_csr_read(time));
	(void)t;
	add_fact("rdtime", ok ? "ok" : "traps");
	add_fact("priv", "M");
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
