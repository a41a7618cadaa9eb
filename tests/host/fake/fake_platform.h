/* SPDX-License-Identifier: Apache-2.0 */
/* Host-test access to the fake platform's captured console and exit status. */
#ifndef FAKE_PLATFORM_H
#define FAKE_PLATFORM_H
#include <stddef.h>
#include <stdint.h>
extern char fake_console[];
extern size_t fake_console_len;
extern int fake_exit_status;
/* >= 0: the exit device writes the console there and ends the process (a test's forked run) */
extern int fake_exit_fd;
extern uint64_t fake_counter_written;
extern int fake_bench_begins, fake_bench_ends;
/* What the console's getc gives a served loop (core/serve), byte by byte, then -1. */
extern const char *fake_console_in;
extern size_t fake_console_in_len;
/* What the next check after a benchmark finds changed (bm/port.h, arch_state_restore and the
 * console's restore), each cleared once read. */
extern const char *fake_state_changed;
extern int fake_console_changed;
void fake_reset(void);
#endif
