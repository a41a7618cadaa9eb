/* Shared C start for bare-metal targets (picolibc-style): each arch's entry only sets the
 * stack and trap vector, then calls bm_crt_start(), which makes C's memory model true
 * (.data copied from its load address, .bss zeroed), paints the stack for the high-water mark
 * and runs the kit. Also the runtime's part of the port contract: where the stack is. */
#include <stddef.h>
#include <stdint.h>

#include "bm/harness.h"

/* Defined by linker/common.ld. */
extern uint8_t __data_load[], __data_start[], __data_end[];
extern uint8_t __bss_start[], __bss_end[];
extern uint8_t __stack_bottom[], __stack_top[], __stack_guard_size[];

#define STACK_PAINT 0xa5u

void bm_rt_stack(struct bm_stack *s)
{
	s->lo = (uintptr_t)__stack_bottom;
	s->hi = (uintptr_t)__stack_top;
	s->guard = (uintptr_t)__stack_guard_size; /* an absolute symbol: its address is its value */
	s->painted = 1;
	s->paint = STACK_PAINT;
}

void bm_crt_start(void) __attribute__((noreturn, used));
void bm_crt_start(void)
{
	/* volatile: stop the compiler turning these loops into memcpy/memset calls, which may
	 * not exist (BM_LIBC=none) or may rely on the very state being initialised. */
	volatile uint8_t *dst = __data_start;
	const volatile uint8_t *src = __data_load;
	if (src != dst)
		while (dst < __data_end)
			*dst++ = *src++;
	for (volatile uint8_t *p = __bss_start; p < __bss_end;)
		*p++ = 0;
	/* Paint the stack below this frame (with a margin for it) for the high-water mark. */
	uintptr_t limit = (uintptr_t)__builtin_frame_address(0) - 128;
	for (volatile uint8_t *p = __stack_bottom; (uintptr_t)p < limit;)
		*p++ = STACK_PAINT;
	bm_main();
}
