/* SPDX-License-Identifier: Apache-2.0 */
/* x86_64 entry from QEMU -kernel through a PVH ELF note (QEMU refuses 64-bit multiboot ELFs):
 * 32-bit protected mode, paging off. Identity-map 4 GiB in 2 MiB pages, enable SSE, enter long
 * mode with a flat GDT (ring 0's code and data, ring 3's), let tables.c add the TSS (IST1 and
 * RSP0: the trap stack, so every exception runs there and a stack overflow can still be reported)
 * and the IDT, and paging.c the 4 KiB pages of the image's blocks (each page's rights for ring 0
 * and ring 3, the tables read-only once written), then hand over to core's C start
 * (bm_crt_start). */
#include "arch/x86.h"

/* XEN_ELFNOTE_PHYS32_ENTRY (type 18, name "Xen"): QEMU starts here in 32-bit mode. QEMU reads
 * the descriptor as a pointer-sized value after the name aligned to the segment's p_align, so
 * the note is 4-aligned and the address is a .quad. */
	.section .note.Xen, "a", @note
	.balign 4
	.long 4
	.long 8
	.long 18
	.asciz "Xen"
	.quad _start

	.section .text.entry, "ax", @progbits
	.code32
	.globl _start
_start:
	cli
	cld
	movl $__stack_top, %esp

	/* Zero the table pages: the section is NOLOAD. */
	movl $arch_x86_pml4, %edi
	xorl %eax, %eax
	movl $arch_x86_tables_end, %ecx
	subl %edi, %ecx
	shrl $2, %ecx
	rep stosl

	/* 2048 PD entries of 2 MiB cover 4 GiB. 3-4 GiB is the PCI/MMIO hole (HPET at 0xfed00000,
	 * local APIC, IOAPIC): map it uncached, as real hardware needs (QEMU ignores it). */
	movl $arch_x86_pd, %edi
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $21, %eax
	orl $(X86_PTE_P | X86_PTE_RW | X86_PTE_PS), %eax
	cmpl $1536, %ecx
	jb 2f
	orl $(X86_PTE_PCD | X86_PTE_PWT), %eax
2:	movl %eax, (%edi, %ecx, 8)
	incl %ecx
	cmpl $2048, %ecx
	jb 1b

	/* The GDT, written here (ltr marks the TSS busy in it, so it goes read-only only after
	 * that, with the other tables): null, 64-bit ring-0 code (L=1), ring-0 data, the TSS
	 * (tables.c, in long mode), ring 3's data and 64-bit code (DPL 3: usermode.S). */
	movl $X86_FLAT_DESC_LO, arch_x86_gdt + X86_SEL_CODE64
	movl $X86_FLAT_DESC_HI(X86_DESC_CODE_XRA, X86_FLAG_G | X86_FLAG_L), arch_x86_gdt + X86_SEL_CODE64 + 4
	movl $X86_FLAT_DESC_LO, arch_x86_gdt + X86_SEL_DATA
	movl $X86_FLAT_DESC_HI(X86_DESC_DATA_RWA, X86_FLAG_G | X86_FLAG_DB), arch_x86_gdt + X86_SEL_DATA + 4
	movl $X86_FLAT_DESC_LO, arch_x86_gdt + X86_SEL_USER_DATA
	movl $X86_FLAT_DESC_HI(X86_DESC_DPL3 | X86_DESC_DATA_RWA, X86_FLAG_G | X86_FLAG_DB), arch_x86_gdt + X86_SEL_USER_DATA + 4
	movl $X86_FLAT_DESC_LO, arch_x86_gdt + X86_SEL_USER_CODE64
	movl $X86_FLAT_DESC_HI(X86_DESC_DPL3 | X86_DESC_CODE_XRA, X86_FLAG_G | X86_FLAG_L), arch_x86_gdt + X86_SEL_USER_CODE64 + 4

	/* PDPT[0..3] -> the four PDs; PML4[0] -> PDPT. */
	movl $arch_x86_pdpt, %edi
	movl $(arch_x86_pd + X86_PTE_P + X86_PTE_RW), %eax
	xorl %ecx, %ecx
3:	movl %eax, (%edi, %ecx, 8)
	addl $4096, %eax
	incl %ecx
	cmpl $4, %ecx
	jb 3b
	movl $(arch_x86_pdpt + X86_PTE_P + X86_PTE_RW), arch_x86_pml4

	movl $arch_x86_pml4, %eax
	movl %eax, %cr3
	/* PAE for long-mode paging; OSFXSR/OSXMMEXCPT so compiled code may use SSE (the x86_64
	 * baseline GCC emits, e.g. for vectorized loops and struct copies); TSD clear: ring 3 reads
	 * the TSC as the kit does. */
	movl %cr4, %eax
	andl $~X86_CR4_TSD, %eax
	orl $(X86_CR4_PAE | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT), %eax
	movl %eax, %cr4
	movl $X86_MSR_EFER, %ecx
	rdmsr
	orl $X86_EFER_LME, %eax
	wrmsr
	movl %cr0, %eax
	andl $~X86_CR0_EM, %eax
	orl $(X86_CR0_PG | X86_CR0_MP | X86_CR0_WP), %eax
	movl %eax, %cr0
	lgdt arch_x86_gdt_ptr
	ljmp $X86_SEL_CODE64, $long_mode

	.code64
long_mode:
	/* SS the kit's data; DS, ES, FS and GS null: 64-bit mode does not use them, and an iretq to
	 * ring 3 would null a ring-0 one anyway. */
	movl $X86_SEL_DATA, %eax
	movl %eax, %ss
	xorl %eax, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %fs
	movl %eax, %gs
	leaq __stack_top(%rip), %rsp
	fninit

	/* The TSS and the IDT (tables.c), then the 4 KiB pages (paging.c), which leave the tables
	 * read-only: nothing writes them again (ltr has marked the TSS busy, and every descriptor is
	 * loaded with its accessed bit already set: no implicit GDT writes). */
	call arch_x86_tables_init
	call arch_x86_paging_init

	xorl %ebp, %ebp
	call bm_crt_start
5:	cli
	hlt
	jmp 5b

/* Exception stubs: make every frame look the same (vector, error code or 0, then what the
 * CPU pushed: rip, cs, rflags, rsp, ss) and call arch_x86_trap(frame), which never returns (it
 * continues in the harness, or ends the run). Vector 255, the LAPIC's spurious interrupt, needs
 * nothing (no end-of-interrupt either): it returns at once. (The gates ring 3 calls: usermode.S.) */
	.section .text.trap, "ax", @progbits
#define STUB_NOERR(n) .balign 16; stub_##n: pushq $0; pushq $n; jmp trap_common
#define STUB_ERR(n) .balign 16; stub_##n: pushq $n; jmp trap_common
STUB_NOERR(0); STUB_NOERR(1); STUB_NOERR(2); STUB_NOERR(3)
STUB_NOERR(4); STUB_NOERR(5); STUB_NOERR(6); STUB_NOERR(7)
STUB_ERR(8); STUB_NOERR(9); STUB_ERR(10); STUB_ERR(11)
STUB_ERR(12); STUB_ERR(13); STUB_ERR(14); STUB_NOERR(15)
STUB_NOERR(16); STUB_ERR(17); STUB_NOERR(18); STUB_NOERR(19)
STUB_NOERR(20); STUB_ERR(21); STUB_NOERR(22); STUB_NOERR(23)
STUB_NOERR(24); STUB_NOERR(25); STUB_NOERR(26); STUB_NOERR(27)
STUB_NOERR(28); STUB_ERR(29); STUB_ERR(30); STUB_NOERR(31)
STUB_NOERR(32)
	.balign 16
stub_spurious:
	iretq

	.globl arch_x86_trap_common
arch_x86_trap_common:
trap_common:
	movq %rsp, %rdi
	andq $-16, %rsp /* the ABI's call alignment, whatever the faulting code had */
	/* From ring 3 the CPU left SS null; the kit's again, for the harness it continues in. */
	movl $X86_SEL_DATA, %eax
	movl %eax, %ss
	/* x87/SSE usable again before any C runs (compiled C uses SSE): a benchmark that set CR0.TS
	 * or CR0.EM is told by the CR0 value passed on. */
	movq %cr0, %rsi
	movq %rsi, %rax
	andq $~(X86_CR0_TS | X86_CR0_EM), %rax
	movq %rax, %cr0
	call arch_x86_trap
6:	cli
	hlt
	jmp 6b

	.section .rodata
	.balign 8
	.globl arch_x86_stubs
arch_x86_stubs:
	.quad stub_0, stub_1, stub_2, stub_3, stub_4, stub_5, stub_6, stub_7
	.quad stub_8, stub_9, stub_10, stub_11, stub_12, stub_13, stub_14, stub_15
	.quad stub_16, stub_17, stub_18, stub_19, stub_20, stub_21, stub_22, stub_23
	.quad stub_24, stub_25, stub_26, stub_27, stub_28, stub_29, stub_30, stub_31
	.quad stub_32, stub_spurious

	.balign 8
	.word 0
arch_x86_gdt_ptr:
	.word X86_GDT_BYTES - 1
	.quad arch_x86_gdt

/* Page tables and IDT: written here before .bss is zeroed, so they live in their own NOLOAD
 * section (boards/qemu-x86_64/memory.ld places .x86tables outside .bss); read-only once set.
 * arch_x86_pt: X86_PT_BLOCKS tables of 4 KiB pages, for the 2 MiB blocks from FLASH's (paging.c). */
	.section .x86tables, "aw", @nobits
	.balign 4096
	.globl arch_x86_pml4, arch_x86_pdpt, arch_x86_pd, arch_x86_pt, arch_x86_idt, arch_x86_gdt, arch_x86_tss
	.globl arch_x86_tables, arch_x86_tables_end
arch_x86_tables:
arch_x86_pml4:
	.skip 4096
arch_x86_pdpt:
	.skip 4096
arch_x86_pd:
	.skip 4 * 4096
arch_x86_pt:
	.skip X86_PT_BLOCKS * 4096
arch_x86_idt:
	.skip 256 * 16
arch_x86_gdt:
	.skip 64
arch_x86_tss:
	.skip 4096 - 64
arch_x86_tables_end:
