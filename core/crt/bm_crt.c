/* SPDX-License-Identifier: Apache-2.0 */
/* Shared C start for bare-metal targets (picolibc-style): each arch's entry only sets the
 * stack and trap vector, then calls bm_crt_start(), which makes C's memory model true
 * (the kit's and the user's .data and the thread-local template copied from their load addresses,
 * their .bss and .tbss zeroed,
 * the C library's own start: bm_libc_init), paints the stack for the high-water mark and runs
 * the kit, which calls the static constructors back once the board and the arch are up (C++
 * objects at namespace scope; never their destructors: the image does not return). Also the runtime's part of the port contract: where the stacks are. */
#include <stddef.h>
#include <stdint.h>

#include "bm/harness.h"

/* Defined by linker/common.ld. */
extern uint8_t __kit_data_load[], __kit_data_start[], __kit_data_end[], __kit_bss_start[], __kit_bss_end[];
extern uint8_t __data_load[], __data_start[], __data_end[];
extern uint8_t __bss_start[], __bss_end[];
extern uint8_t __tdata_load[], __tdata_start[], __tdata_end[], __tbss_start[], __tbss_end[];
extern uint8_t __stack_bottom[], __stack_top[], __stack_guard_size[], __user_stack_bottom[], __user_stack_top[],
	__user_start[];
extern void (*const __init_array_start[])(void), (*const __init_array_end[])(void);

#define STACK_PAINT 0xa5u

void bm_rt_stack(struct bm_stack *s)
{
	s->lo = (uintptr_t)__stack_bottom;
	s->hi = (uintptr_t)__stack_top;
	s->guard = (uintptr_t)__stack_guard_size; /* an absolute symbol: its address is its value */
	s->above = 0;
	s->painted = 1;
	s->paint = STACK_PAINT;
}

/* Painted by core before each benchmark that runs on it. Below it the kit's memory, out of
 * benchmark code's reach: a fault in its first bytes is the stack's overflow (a push that faults
 * before it moves the stack pointer), one further down a stray access's. Above it .kit_bss, up to
 * the user region (linker/common.ld). */
#define USER_STACK_GUARD_BYTES 256u

void bm_rt_user_stack(struct bm_stack *s)
{
	s->lo = (uintptr_t)__user_stack_bottom;
	s->hi = (uintptr_t)__user_stack_top;
	s->guard = USER_STACK_GUARD_BYTES;
	s->above = (uintptr_t)(__user_start - __user_stack_top);
	s->painted = 1;
	s->paint = STACK_PAINT;
}

/* volatile: stop the compiler turning these loops into memcpy/memset calls, which may not exist
 * (BM_LIBC=none) or may rely on the very state being initialised. */
static void copy(volatile uint8_t *dst, uint8_t *end, const volatile uint8_t *src)
{
	if (src != dst)
		while (dst < end)
			*dst++ = *src++;
}

static void zero(volatile uint8_t *p, uint8_t *end)
{
	while (p < end)
		*p++ = 0;
}

/* The static constructors (linker/common.ld's .init_array), in their order there; called by the kit
 * once the console, the trap vector and the arch's memory set-up are there (a constructor that
 * faults is reported, one that copies with unaligned accesses runs with AArch64's MMU on). */
static void constructors(void)
{
	for (void (*const *ctor)(void) = __init_array_start; ctor < __init_array_end; ctor++)
		(*ctor)();
}

void bm_crt_start(void) __attribute__((noreturn, used));
void bm_crt_start(void)
{
	copy(__kit_data_start, __kit_data_end, __kit_data_load);
	zero(__kit_bss_start, __kit_bss_end);
	copy(__data_start, __data_end, __data_load);
	copy(__tdata_start, __tdata_end, __tdata_load);
	zero(__bss_start, __bss_end);
	zero(__tbss_start, __tbss_end);
	bm_libc_init();
	/* Paint the stack below this frame (with a margin for it) for the high-water mark. */
	uintptr_t limit = (uintptr_t)__builtin_frame_address(0) - 128;
	for (volatile uint8_t *p = __stack_bottom; (uintptr_t)p < limit;)
		*p++ = STACK_PAINT;
	bm_main(constructors);
}
