/* Shared C start for bare-metal targets (picolibc-style): each arch's entry only sets the
 * stack and trap vector, then calls bm_crt_start(), which makes C's memory model true
 * (.data copied from its load address, .bss zeroed) and runs the kit. */
#include <stdint.h>

#include "bm/harness.h"

/* Defined by linker/common.ld. */
extern uint8_t __data_load[], __data_start[], __data_end[];
extern uint8_t __bss_start[], __bss_end[];

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
	bm_main();
}
