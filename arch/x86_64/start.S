/* SPDX-License-Identifier: Apache-2.0 */
/* x86_64 entry from QEMU -kernel through a PVH ELF note (QEMU refuses 64-bit multiboot ELFs):
 * 32-bit protected mode, paging off. Identity-map 4 GiB (2 MiB pages, and 4 KiB pages in the
 * 2 MiB around the stack guard: the guard page not present, FLASH read-only with CR0.WP so that
 * a stray store faults), enable SSE, enter long mode with a flat GDT, let tables.c add the TSS
 * (IST1: the trap stack, so every exception runs there and a stack overflow can still be
 * reported) and the IDT, map the tables read-only, then hand over to core's C start
 * (bm_crt_start). */
#include "arch/x86.h"

#define TABLE_PAGES 9 /* PML4, PDPT, 4 PDs, a PT, the IDT, the GDT and TSS */

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
	movl $(TABLE_PAGES * 4096 / 4), %ecx
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

	/* The 2 MiB that hold the stack guard get 4 KiB pages (arch_x86_pt): the guard absent,
	 * FLASH read-only, the rest as before. 2 MiB pages wholly inside FLASH go read-only. */
	movl $arch_x86_pt, %edi
	movl $__stack_bottom, %ebx
	subl $__stack_guard_size, %ebx      /* ebx = guard_lo */
	movl %ebx, %edx
	andl $~0x1fffff, %edx               /* edx = the guard's 2 MiB block */
	xorl %ecx, %ecx
6:	movl %ecx, %eax
	shll $12, %eax
	addl %edx, %eax                     /* eax = this page's address */
	cmpl %ebx, %eax
	jb 7f
	cmpl $__stack_bottom, %eax
	jae 7f
	movl $0, (%edi, %ecx, 8)            /* the guard: not present */
	jmp 9f
7:	cmpl $__flash_origin, %eax
	jb 8f
	cmpl $__flash_limit, %eax
	jae 8f
	orl $X86_PTE_P, %eax                    /* FLASH: read-only */
	movl %eax, (%edi, %ecx, 8)
	jmp 9f
8:	orl $(X86_PTE_P | X86_PTE_RW), %eax
	movl %eax, (%edi, %ecx, 8)
9:	incl %ecx
	cmpl $512, %ecx
	jb 6b
	shrl $21, %edx
	movl $(arch_x86_pt + X86_PTE_P + X86_PTE_RW), %eax
	movl %eax, arch_x86_pd(, %edx, 8)
	/* 2 MiB pages below the guard's block that FLASH covers whole: read-only. */
	movl $__flash_origin, %eax
	shrl $21, %eax
10:	cmpl %edx, %eax
	jae 11f
	andl $~X86_PTE_RW, arch_x86_pd(, %eax, 8)
	incl %eax
	jmp 10b
11:
	/* The GDT, written here (ltr marks the TSS busy in it, so it goes read-only only after
	 * that, with the other tables): null, 64-bit ring-0 code (L=1), ring-0 data, then the TSS
	 * (tables.c, in long mode). */
	movl $X86_FLAT_DESC_LO, arch_x86_gdt + X86_SEL_CODE64
	movl $X86_FLAT_DESC_HI(X86_DESC_CODE_XRA, X86_FLAG_G | X86_FLAG_L), arch_x86_gdt + X86_SEL_CODE64 + 4
	movl $X86_FLAT_DESC_LO, arch_x86_gdt + X86_SEL_DATA
	movl $X86_FLAT_DESC_HI(X86_DESC_DATA_RWA, X86_FLAG_G | X86_FLAG_DB), arch_x86_gdt + X86_SEL_DATA + 4

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
	 * baseline GCC emits, e.g. for vectorized loops and struct copies). */
	movl %cr4, %eax
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
	movl $X86_SEL_DATA, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	movl %eax, %fs
	movl %eax, %gs
	leaq __stack_top(%rip), %rsp
	fninit

	/* The TSS and the IDT (tables.c), while the tables are still writable. */
	call arch_x86_tables_init

	/* Then the tables' pages read-only (CR0.WP binds ring 0 too). They lie right below the stack
	 * guard (boards/qemu-x86_64/memory.ld), so a frame larger than the guard lands in them: it
	 * faults there, as one that lands in FLASH does, instead of rewriting the page tables or the
	 * IDT under the run. Nothing writes them again: ltr has marked the TSS busy, and every
	 * descriptor is loaded with its accessed bit already set (no implicit GDT writes). */
	leaq arch_x86_pt(%rip), %rdi
	movl $__stack_bottom, %edx
	subl $__stack_guard_size, %edx      /* edx = guard_lo, where the tables end */
	movl %edx, %esi
	andl $~0x1fffff, %esi               /* esi = the guard's 2 MiB block, which arch_x86_pt maps */
	xorl %ecx, %ecx
13:	movl %ecx, %eax
	shll $12, %eax
	addl %esi, %eax                     /* eax = this page's address */
	cmpl $__x86_tables_lo, %eax
	jb 14f
	cmpl %edx, %eax
	jae 14f
	andq $~X86_PTE_RW, (%rdi, %rcx, 8)
14:	incl %ecx
	cmpl $512, %ecx
	jb 13b
	movq %cr3, %rax                     /* flush the TLB's writable copies */
	movq %rax, %cr3

	xorl %ebp, %ebp
	call bm_crt_start
5:	cli
	hlt
	jmp 5b

/* Exception stubs: make every frame look the same (vector, error code or 0, then what the
 * CPU pushed: rip, cs, rflags, rsp, ss) and call arch_x86_trap(frame), which never returns (it
 * continues in the harness, or ends the run). Vector 255, the LAPIC's spurious interrupt, needs
 * nothing (no end-of-interrupt either): it returns at once. */
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

trap_common:
	movq %rsp, %rdi
	andq $-16, %rsp /* the ABI's call alignment, whatever the faulting code had */
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
 * section (boards/qemu-x86_64/memory.ld places .x86tables outside .bss); read-only once set. */
	.section .x86tables, "aw", @nobits
	.balign 4096
	.globl arch_x86_pml4, arch_x86_pdpt, arch_x86_pd, arch_x86_pt, arch_x86_idt, arch_x86_gdt, arch_x86_tss
arch_x86_pml4:
	.skip 4096
arch_x86_pdpt:
	.skip 4096
arch_x86_pd:
	.skip 4 * 4096
arch_x86_pt:
	.skip 4096
arch_x86_idt:
	.skip 256 * 16
arch_x86_gdt:
	.skip 64
arch_x86_tss:
	.skip 4096 - 64
