/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32) for result records and workloads.
 * Incremental: start with crc = 0, feed chunks, the value after each call is final. */
#ifndef BM_CRC32_H
#define BM_CRC32_H

#include <stddef.h>
#include <stdint.h>

uint32_t bm_crc32_update(uint32_t crc, const void *data, size_t len);

#endif /* BM_CRC32_H */
