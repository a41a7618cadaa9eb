/* SPDX-License-Identifier: Apache-2.0 */
/* Another program of the same upstream suite: the same global names as sort.c (data, checksum)
 * with other types and values, and its own main. */
unsigned char data[32];
unsigned checksum;

void crc_init(void)
{
	for (int i = 0; i < 32; i++)
		data[i] = (unsigned char)(i * 13 + 1);
}

void crc_main(void)
{
	unsigned c = 0xffffffffu;
	for (int i = 0; i < 32; i++) {
		c ^= data[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	checksum = ~c;
}

int crc_return(void)
{
	/* The same CRC computed bytewise in another order of operations: a check of its own. */
	unsigned c = 0xffffffffu;
	for (int i = 0; i < 32; i++) {
		unsigned x = (c ^ (unsigned)(i * 13 + 1)) & 0xffu;
		for (int k = 0; k < 8; k++)
			x = (x & 1u) ? (x >> 1) ^ 0xedb88320u : x >> 1;
		c = (c >> 8) ^ x;
	}
	return checksum == ~c ? 0 : -1;
}

int main(void)
{
	crc_init();
	crc_main();
	return crc_return();
}
