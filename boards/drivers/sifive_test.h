/* SPDX-License-Identifier: Apache-2.0 */
/* QEMU's SiFive test device ("finisher", virt and sifive_u at 0x100000): a store ends QEMU with
 * a status. 0x5555 = pass (exit 0); (code << 16) | 0x3333 = fail with exit code `code`. */
#ifndef DRIVERS_SIFIVE_TEST_H
#define DRIVERS_SIFIVE_TEST_H

#include "bm/port.h"

struct sifive_test {
	struct bm_exit dev; /** the device core sees */
	uintptr_t base;     /** MMIO address of the finisher */
};

void sifive_test_exit(const struct bm_exit *dev, int status);

#define SIFIVE_TEST_EXIT {.name = "sifive-test finisher", .exit = sifive_test_exit}

#endif
