/* SPDX-License-Identifier: Apache-2.0 */
/* QEMU's isa-debug-exit device (x86 PC, -device isa-debug-exit,iobase=0xf4,iosize=0x04): `outl v`
 * ends QEMU with status (v << 1) | 1, so QEMU never exits 0 this way; the runner maps it back
 * (bm run --exit-map isa-debug-exit). Without the device (a real PC) the board halts. */
#ifndef DRIVERS_ISA_DEBUG_EXIT_H
#define DRIVERS_ISA_DEBUG_EXIT_H

#include "bm/port.h"

struct isa_debug_exit {
	struct bm_exit dev; /** the device core sees */
	uint16_t port;      /** I/O port (iobase) */
};

void isa_debug_exit_exit(const struct bm_exit *dev, int status);

#define ISA_DEBUG_EXIT {.name = "isa-debug-exit", .exit = isa_debug_exit_exit}

#endif
