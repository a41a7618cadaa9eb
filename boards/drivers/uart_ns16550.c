/* SPDX-License-Identifier: Apache-2.0 */
/* NS16550A driver (see uart_ns16550.h). Register offsets from the 16550 data sheet. */
#include "uart_ns16550.h"
#include "mmio.h"

#define REG_THR 0 /* transmit holding (write) */
#define REG_RBR 0 /* receive buffer (read) */
#define REG_DLL 0 /* divisor latch low (DLAB=1) */
#define REG_IER 1 /* interrupt enable */
#define REG_DLM 1 /* divisor latch high (DLAB=1) */
#define REG_FCR 2 /* FIFO control */
#define REG_LCR 3 /* line control */
#define REG_MCR 4 /* modem control */
#define REG_LSR 5 /* line status */
#define LCR_DLAB 0x80
#define LCR_8N1 0x03
#define FCR_FIFO_ON_CLEAR 0x07 /* FIFOs on, both cleared */
#define MCR_DTR_RTS 0x03
#define LSR_DR 0x01 /* data ready: the receive buffer (FIFO) holds a byte */
#define LSR_THRE 0x20
#define PUTC_SPINS 1000000u
#define REG_IIR 2 /* interrupt identification (read) */
#define IIR_FIFOS_ON 0xc0
#define TX_FIFO_BYTES 16 /* 16550A, FIFOs on (FCR bit 0): THRE means the whole FIFO is empty */

#define UART(con) ((struct ns16550 *)(con)) /* con is the first member */

static uint8_t mmio8_read(uintptr_t a)
{
	return *mmio8(a);
}
static void mmio8_write(uintptr_t a, uint8_t v)
{
	*mmio8(a) = v;
}
static uint8_t mmio32_read(uintptr_t a)
{
	return (uint8_t)*mmio32(a);
}
static void mmio32_write(uintptr_t a, uint8_t v)
{
	*mmio32(a) = v;
}
static void mmio8_write_rep(uintptr_t a, const char *s, size_t n)
{
	for (; n; n--)
		*mmio8(a) = (uint8_t)*s++;
}
static void mmio32_write_rep(uintptr_t a, const char *s, size_t n)
{
	for (; n; n--)
		*mmio32(a) = (uint8_t)*s++;
}
const struct bm_io8 ns16550_mmio8 = {mmio8_read, mmio8_write, mmio8_write_rep};
const struct bm_io8 ns16550_mmio32 = {mmio32_read, mmio32_write, mmio32_write_rep};

static uint8_t rd(const struct ns16550 *u, unsigned r)
{
	return u->io->read(u->base + ((uintptr_t)r << u->reg_shift));
}

static void wr(const struct ns16550 *u, unsigned r, uint8_t v)
{
	u->io->write(u->base + ((uintptr_t)r << u->reg_shift), v);
}

void ns16550_init(struct bm_console *con)
{
	struct ns16550 *u = UART(con);
	wr(u, REG_IER, 0); /* polled: no interrupts */
	if (u->clock_hz && u->baud) {
		uint32_t div = (u->clock_hz + 8 * u->baud) / (16 * u->baud);
		wr(u, REG_LCR, LCR_DLAB);
		wr(u, REG_DLL, (uint8_t)div);
		wr(u, REG_DLM, (uint8_t)(div >> 8));
	}
	wr(u, REG_LCR, LCR_8N1);
	wr(u, REG_FCR, FCR_FIFO_ON_CLEAR);
	wr(u, REG_MCR, MCR_DTR_RTS);
	/* An 8250 or 16450 has no FIFO (FCR is ignored, THRE means one byte of room): the IIR's top
	 * bits say whether the FIFOs came on, as Linux's 8250 driver tells the types apart. */
	u->tx_burst = (rd(u, REG_IIR) & IIR_FIFOS_ON) == IIR_FIFOS_ON ? TX_FIFO_BYTES : 1;
}

/* The frame format and modem control as init left them (a divisor latch left open, DLAB, turns
 * every later byte into a divisor). */
int ns16550_restore(struct bm_console *con)
{
	struct ns16550 *u = UART(con);
	if (rd(u, REG_LCR) == LCR_8N1 && rd(u, REG_MCR) == MCR_DTR_RTS && rd(u, REG_IER) == 0)
		return 0;
	ns16550_init(con);
	return 1;
}

/* The fault test's hook (board.cmake's BM_TEST_CONSOLE_OFF): the divisor latch left open (LCR =
 * DLAB alone), as a benchmark may leave it: every later byte would go to the divisor, and the
 * console says nothing more. ns16550_restore must notice. */
void ns16550_tx_off(struct bm_console *con)
{
	wr(UART(con), REG_LCR, LCR_DLAB);
}

/* Waits for THRE, then fills the FIFO: one status read per 16 bytes instead of one per byte,
 * as Linux's 8250 driver does (the report's bytes are a measurable part of a deterministic
 * run's kit share), each burst in one call of the bus's write_rep where it has one (x86 port
 * I/O: one rep outsb). One byte per THRE without a FIFO, or before ns16550_init ran. */
void ns16550_write(struct bm_console *con, const char *s, size_t n)
{
	const struct ns16550 *u = UART(con);
	unsigned burst = u->tx_burst ? u->tx_burst : 1;
	while (n) {
		for (uint32_t spins = 0; !(rd(u, REG_LSR) & LSR_THRE) && spins < PUTC_SPINS; spins++)
			;
		size_t k = n < burst ? n : burst;
		if (u->io->write_rep) {
			u->io->write_rep(u->base + ((uintptr_t)REG_THR << u->reg_shift), s, k);
			s += k;
		} else {
			for (size_t i = 0; i < k; i++)
				wr(u, REG_THR, (uint8_t)*s++);
		}
		n -= k;
	}
}

void ns16550_putc(struct bm_console *con, char c)
{
	ns16550_write(con, &c, 1);
}

/* A served image's commands (bm/port.h's getc): a byte if the receiver holds one. */
int ns16550_getc(struct bm_console *con)
{
	const struct ns16550 *u = UART(con);
	return rd(u, REG_LSR) & LSR_DR ? rd(u, REG_RBR) : -1;
}
