/* SPDX-License-Identifier: Apache-2.0 */
/* x86_64's TSS and IDT, set up once from start.S in long mode while its tables are still writable:
 * the TSS with IST1 the trap stack (every vector runs there, so even a fault of an exhausted stack
 * is reported), its descriptor in the GDT, and an interrupt gate to start.S's stub for each of
 * vectors 0-31 (the exceptions), 32 (the watchdog) and 255 (the LAPIC's spurious interrupt); and
 * the two gates ring 3 calls with int n (DPL 3, usermode.S), which reach the trap stack through
 * the TSS's RSP0 from there (and stay on the kit's stack from ring 0). No I/O bitmap, and ring 3
 * runs with IOPL 0: port I/O is the kit's. Intel SDM vol. 3, 7.7 and 6.14. Runs before
 * bm_crt_start: no .data or .bss. */
#include <stdint.h>

#include "arch/x86.h"

/* The 64-bit TSS: of it the kit uses RSP0 (ring 3's way in), IST1 and the I/O map's base. */
struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));
_Static_assert(sizeof(struct tss64) == 0x68, "a 64-bit TSS is 104 bytes");

/* A 16-byte system descriptor (the TSS's, in the GDT). */
struct sys_desc {
	uint16_t limit_lo;
	uint16_t base_lo;
	uint8_t base_mid;
	uint8_t access;     /* X86_DESC_PRESENT | the type */
	uint8_t limit_hi;   /* limit 19:16, then the flags (0: the limit in bytes) */
	uint8_t base_hi;
	uint32_t base_upper;
	uint32_t reserved;
} __attribute__((packed));

/* A 16-byte IDT gate. */
struct gate {
	uint16_t offset_lo;
	uint16_t selector;
	uint8_t ist;        /* 2:0: the IST entry the CPU switches to (0: none) */
	uint8_t access;     /* X86_DESC_PRESENT | the type */
	uint16_t offset_mid;
	uint32_t offset_hi;
	uint32_t reserved;
} __attribute__((packed));

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

#define IST_TRAP 1  /* the trap stack */
#define N_GATES 256
#define N_STUBS (X86_VEC_WATCHDOG + 2) /* vectors 0..32, then 255 */

extern struct tss64 arch_x86_tss;       /* start.S, .x86tables */
extern unsigned char arch_x86_gdt[];
extern struct gate arch_x86_idt[N_GATES];
extern const uint64_t arch_x86_stubs[N_STUBS]; /* start.S: each vector's entry */
extern char arch_x86_kit_gate[], arch_x86_user_return_gate[]; /* usermode.S */
extern char __trap_stack_top[];

/* An interrupt gate (IF cleared on entry) to entry, on IST stack ist (0: none), that code of ring
 * dpl_bits (0, or X86_DESC_DPL3) may call with int n. */
static struct gate gate_to(uint64_t entry, uint8_t ist, uint8_t dpl_bits)
{
	return (struct gate){
		.offset_lo = (uint16_t)entry,
		.selector = X86_SEL_CODE64,
		.ist = ist,
		.access = (uint8_t)(X86_DESC_PRESENT | dpl_bits | X86_DESC_INTR64),
		.offset_mid = (uint16_t)(entry >> 16),
		.offset_hi = (uint32_t)(entry >> 32),
	};
}

void arch_x86_tables_init(void);
void arch_x86_tables_init(void)
{
	struct tss64 *tss = &arch_x86_tss;
	tss->rsp[0] = (uint64_t)(uintptr_t)__trap_stack_top;
	tss->ist[IST_TRAP - 1] = (uint64_t)(uintptr_t)__trap_stack_top;
	tss->iomap_base = sizeof *tss; /* past the limit: no I/O bitmap */
	uint64_t base = (uint64_t)(uintptr_t)tss;
	*(struct sys_desc *)(arch_x86_gdt + X86_SEL_TSS) = (struct sys_desc){
		.limit_lo = sizeof *tss - 1,
		.base_lo = (uint16_t)base,
		.base_mid = (uint8_t)(base >> 16),
		.access = X86_DESC_PRESENT | X86_DESC_TSS64,
		.base_hi = (uint8_t)(base >> 24),
		.base_upper = (uint32_t)(base >> 32),
	};
	__asm__ volatile("ltr %w0" : : "r"((uint16_t)X86_SEL_TSS) : "memory");

	for (unsigned i = 0; i < N_STUBS; i++)
		arch_x86_idt[i < N_STUBS - 1 ? i : X86_VEC_SPURIOUS] = gate_to(arch_x86_stubs[i], IST_TRAP, 0);
	arch_x86_idt[X86_VEC_KIT] = gate_to((uintptr_t)arch_x86_kit_gate, 0, X86_DESC_DPL3);
	arch_x86_idt[X86_VEC_USER_RETURN] = gate_to((uintptr_t)arch_x86_user_return_gate, 0, X86_DESC_DPL3);
	const struct desc_ptr idtr = {sizeof arch_x86_idt - 1, (uint64_t)(uintptr_t)arch_x86_idt};
	__asm__ volatile("lidt %0" : : "m"(idtr) : "memory");
}
