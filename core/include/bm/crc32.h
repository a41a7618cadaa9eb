/* SPDX-License-Identifier: Apache-2.0 */
/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32) for result records and workloads.
 * Incremental: start with crc = 0, feed chunks, the value after each call is final. */
#ifndef BM_CRC32_H
#define BM_CRC32_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

uint32_t bm_crc32_update(uint32_t crc, const void *data, size_t len);

/* One byte into a running CRC kept inverted (start from ~0, finish with ~): the record writer's
 * per-character step, inline. */
extern const uint32_t bm_crc32_table[256];
static inline uint32_t bm_crc32_step(uint32_t inv_crc, uint8_t byte)
{
	return (inv_crc >> 8) ^ bm_crc32_table[(inv_crc ^ byte) & 0xffu];
}

#ifdef __cplusplus
}
#endif

#endif /* BM_CRC32_H */
