/* SPDX-License-Identifier: Apache-2.0 */
/* Built when BM_LIBC=newlib (newlib-nano: --specs=nano.specs): names the C library for the meta
 * record, and supplies the system calls newlib's stdio, malloc and abort reach, routed to the
 * board through the port contract: _write to the console (the kit's service: CR LF on a serial
 * line), _exit to the board's exit device, and the rest as a single process with no files (malloc's
 * _sbrk, over the image's heap region: core/libc/heap.c). The core calls none of them; benchmarks may
 * (printf, malloc). No crt0: core/crt/bm_crt.c starts the kit, so newlib's own start-up symbols
 * (__bss_start__, __stack, end) are not needed. */
#include <errno.h>
#include <newlib.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "bm/out.h"
#include "bm/port.h"
#include "libc/heap.h"

#ifdef _NANO_FORMATTED_IO
const char bm_libc_name[] = "newlib " _NEWLIB_VERSION " (nano)";
#else
const char bm_libc_name[] = "newlib " _NEWLIB_VERSION;
#endif

/* newlib-nano keeps its state in a static struct _reent (.data/.bss), and its stdio opens on first
 * use: only malloc's heap to set up. */
void bm_libc_init(void)
{
	bm_heap_init();
}

int _write(int fd, const char *buf, int len);
int _read(int fd, char *buf, int len);
int _close(int fd);
int _lseek(int fd, int offset, int whence);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
int _kill(int pid, int sig);
int _getpid(void);
__attribute__((noreturn)) void _exit(int status);

/* stdout and stderr go to the console; there is nothing else to write to. Through the kit (its
 * service, bm/services.h), which benchmark code that runs unprivileged cannot reach otherwise. */
int _write(int fd, const char *buf, int len)
{
	if (fd != 1 && fd != 2) {
		errno = EBADF;
		return -1;
	}
	if (len <= 0)
		return 0;
	return (int)arch_kit_call(BM_KIT_CONSOLE_WRITE, (uintptr_t)buf, (uintptr_t)len);
}

/* The console is transmit-only: stdin is always at its end. */
int _read(int fd, char *buf, int len)
{
	(void)fd;
	(void)buf;
	(void)len;
	return 0;
}

int _close(int fd)
{
	(void)fd;
	errno = EBADF;
	return -1;
}

int _lseek(int fd, int offset, int whence)
{
	(void)fd;
	(void)offset;
	(void)whence;
	errno = ESPIPE;
	return -1;
}

/* The standard streams are character devices (line-buffered, like a terminal). */
int _fstat(int fd, struct stat *st)
{
	(void)fd;
	st->st_mode = S_IFCHR;
	return 0;
}

int _isatty(int fd)
{
	return fd >= 0 && fd <= 2;
}

/* abort() raises SIGABRT through _kill: end the run as a failure would. */
int _kill(int pid, int sig)
{
	(void)pid;
	(void)sig;
	bm_out_str("\n*** baremark: the C library called abort()\n");
	bm_board_exit(BM_EXIT_FAIL);
}

int _getpid(void)
{
	return 1;
}

void _exit(int status)
{
	bm_board_exit(status);
}
