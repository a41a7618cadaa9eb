/* Marks for the QEMU cache model (tools/qemu-plugins/bmcache.c, docs/cache-model.md): stores to a
 * kit-owned marker area whose address the plugin is told, because in QEMU 7.2 a plugin cannot
 * read registers or memory. Built in only with -DBM_QEMU_MODEL=cache; otherwise empty. */
#ifndef BM_MODEL_H
#define BM_MODEL_H
#include <stdint.h>

struct bm_bench;

#if BM_MODEL
/* +0 opens a window, +1 closes it, +2 counts one sample in it, +3..+36 carry a benchmark's index
 * bit by bit (the plugin sees which address was written, never the value). */
#define BM_MODEL_AREA_BYTES 37u
extern volatile uint8_t bm_model_area[BM_MODEL_AREA_BYTES];
void bm_model_bench(const struct bm_bench *b);

/* (the barriers keep the kit's own loads and stores out of the window: the compiler may otherwise
 * move one across a volatile store) */
static inline void bm_model_open(void)
{
	__asm__ volatile("" : : : "memory");
	bm_model_area[0] = 0;
	__asm__ volatile("" : : : "memory");
}

/* Closes the window around `samples` timed samples (a chunk of them when the benchmark runs
 * unprivileged). */
static inline void bm_model_close(uint32_t samples)
{
	__asm__ volatile("" : : : "memory");
	for (uint32_t i = 0; i < samples; i++)
		bm_model_area[2] = 0;
	bm_model_area[1] = 0;
	__asm__ volatile("" : : : "memory");
}
#else
static inline void bm_model_bench(const struct bm_bench *b)
{
	(void)b;
}
static inline void bm_model_open(void)
{
}
static inline void bm_model_close(uint32_t samples)
{
	(void)samples;
}
#endif
#endif
