/* Template board: copy to boards/<name>/board.c and fill in. A board is addresses, driver
 * instances, and one `const struct bm_board board_desc` (core/include/bm/board.h); keep an
 * ASCII memory map here that says where each address comes from (data sheet, QEMU source). */
#error "boards/template: implement board_desc for your board (console putc, timer, exit), then delete this line"

#include "bm/board.h"

/* Memory map (source: TODO):
 *   0x........  UART0
 *   0x........  timer
 *   0x........  RAM */

static void board_init(void)
{
	/* TODO: clocks, pin muxing, UART baud rate (115200 8N1). */
}

static void board_putc(char c)
{
	(void)c; /* TODO: wait for TX space, write the byte; send "\r\n" for '\n'. */
}

static uint64_t board_timer(void)
{
	return 0; /* TODO: a free-running memory-mapped timer (tearing-safe on 32-bit buses). */
}

static void board_exit(int status)
{
	(void)status; /* TODO: QEMU exit device or semihosting; on hardware, halt (wfi loop). */
	for (;;)
		;
}

const struct bm_board board_desc = {
	.name = "template",
	.console = "TODO",
	.init = board_init,
	.putc = board_putc,
	.timer_ticks = board_timer,
	.timer_hz = 0, /* TODO */
	.timer_name = "TODO",
	.exit = board_exit,
};
