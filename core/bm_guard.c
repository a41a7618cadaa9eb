/* Guards around each benchmark, so that no corrupted number is ever reported as good: the free
 * stack is painted before the benchmark and read after it (its high-water mark; a touched guard
 * band at the bottom is a stack overflow, even one that did not fault), and the kit's own
 * statistics state sits between guard words checked after every benchmark. The scratch's own
 * canaries are in bm_scratch.c. */
#include "bm/harness_internal.h"

#define STACK_BAND 256u     /* bytes at the bottom of the stack that must stay painted */
#define STACK_MARGIN 256u   /* left unpainted below the caller's frame (its own calls) */

typedef uintptr_t word;

static word paint_word(const struct bm_stack *s)
{
	word w = 0;
	for (unsigned i = 0; i < sizeof w; i++)
		w = (w << 8) | s->paint;
	return w;
}

/* Paints the free stack, from its bottom up to a little below the current frame. */
__attribute__((noinline)) void bm_guard_stack_paint(void)
{
	struct bm_stack s;
	bm_rt_stack(&s);
	if (s.lo == s.hi || !s.painted)
		return;
	uintptr_t top = ((uintptr_t)__builtin_frame_address(0) - STACK_MARGIN) & ~(uintptr_t)(sizeof(word) - 1);
	bm_guard_fill((volatile word *)s.lo, (volatile word *)top, paint_word(&s));
}

size_t bm_guard_stack_check(int *band_touched)
{
	struct bm_stack s;
	bm_rt_stack(&s);
	*band_touched = 0;
	if (s.lo == s.hi || !s.painted)
		return 0;
	uintptr_t p = (uintptr_t)bm_guard_first_unlike((const volatile word *)s.lo, (const volatile word *)s.hi,
	                                               paint_word(&s));
	*band_touched = p < s.lo + STACK_BAND;
	return s.hi - p;
}

int bm_guard_stack_fault(const struct bm_fault *f)
{
	struct bm_stack s;
	bm_rt_stack(&s);
	if (s.lo == s.hi)
		return 0;
	uint64_t lo = s.lo - s.guard, band = s.lo + STACK_BAND;
	return (f->sp && f->sp < band) || (f->has_addr && f->addr >= lo && f->addr < band);
}

/* Around all of the kit's .bss on bare metal (linker/common.ld places them), so that a user's
 * global that overflows upward meets one of these, not one of the kit's own variables. Sections
 * of their own (not .bss.*) so that the linker script can put one at each end. */
static volatile uint64_t bss_lo __attribute__((section(".bm_kit_guard.lo"), used));
static volatile uint64_t bss_hi __attribute__((section(".bm_kit_guard.hi"), used));

void bm_guard_kit_init(struct bm_kit_state *k)
{
	k->head = BM_KIT_GUARD_WORD;
	k->tail = BM_KIT_GUARD_WORD;
	bss_lo = BM_KIT_GUARD;
	bss_hi = BM_KIT_GUARD;
}

int bm_guard_kit_intact(const struct bm_kit_state *k)
{
	return k->head == BM_KIT_GUARD_WORD && k->tail == BM_KIT_GUARD_WORD && bss_lo == BM_KIT_GUARD &&
	       bss_hi == BM_KIT_GUARD && bm_scratch_state_intact() && bm_recover_state_intact();
}
