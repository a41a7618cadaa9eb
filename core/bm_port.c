/* What core supplies to the ports (bm/port.h): the run's end through the board's exit device,
 * and the state of a hardware probe that the arch's trap handler consults. */
#include "bm/port.h"

volatile int bm_probe_active;
volatile int bm_probe_faulted;

void bm_board_exit(int status)
{
	const struct bm_exit *e = board_desc.exit;
	if (e && e->exit)
		e->exit(e, status);
	for (;;) /* an exit device that returned (it must not): never continue the run */
		;
}
