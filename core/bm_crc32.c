/* CRC-32/IEEE, bitwise with a 16-entry nibble table: 64 bytes of table instead of 1 KiB,
 * which matters on 16 KiB parts, and still fast enough for console-rate record checking. */
#include "bm/crc32.h"

const uint32_t bm_crc32_nibbles[16] = {
	0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
	0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
	0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu,
};

uint32_t bm_crc32_update(uint32_t crc, const void *data, size_t len)
{
	const uint8_t *p = data;
	crc = ~crc;
	while (len--)
		crc = bm_crc32_step(crc, *p++);
	return ~crc;
}
