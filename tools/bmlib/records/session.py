# SPDX-License-Identifier: Apache-2.0
"""A served image's console as a conversation (docs/records.md, "Served images"): the image's
command started with its console on stdin and stdout (QEMU, -serial stdio), every byte kept as
its console log, the first ready record waited for, then one command line at a time sent and its
reply read up to the next ready record (or, for `end`, the end record), each within a time limit.
Nothing is sent before the image said it is ready (a UART's receiver is set up, and emptied, by the
image's start-up)."""
import os
import selectors
import subprocess
import time

from . import frame
from .stream import _kill_group


class Stopped(Exception):
    """The conversation cannot go on: the console closed, the time ran out, or the image is not a
    served one. `why` says which, in words."""

    def __init__(self, why):
        super().__init__(why)
        self.why = why


def serial_stdio(cmd):
    """A board's QEMU line with its console on stdin and stdout and nothing else there: -nographic
    multiplexes QEMU's monitor onto the console (Ctrl-A is its escape, so a byte 0x01 sent as a
    command would reach QEMU, not the image); a line that names its -serial already is kept."""
    if "-nographic" not in cmd or "-serial" in cmd:
        return list(cmd)
    i = cmd.index("-nographic")
    return cmd[:i] + ["-display", "none", "-monitor", "none", "-serial", "stdio"] + cmd[i + 1:]


class Session:
    """One boot of a served image under `cmd`, its console echoed (echo(chunk)) as it arrives."""

    def __init__(self, cmd, echo=None):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.fd = self.proc.stdout.fileno()
        os.set_blocking(self.fd, False)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.fd, selectors.EVENT_READ)
        self.echo = echo
        self.data = bytearray()
        self.scanned = 0          # bytes of data scanned for records (up to a newline)
        self.records = []         # every record so far, in arrival order
        self.closed = False
        self.meta = None

    def _feed(self, chunk):
        self.data += chunk
        if self.echo:
            self.echo(chunk)
        nl = self.data.rfind(b"\n")
        if nl >= self.scanned:
            self.records += frame.scan(bytes(self.data[self.scanned:nl + 1])).records
            self.scanned = nl + 1

    def _read(self, wait):
        if self.closed:
            return
        if not self.sel.select(wait):
            return
        try:
            chunk = os.read(self.fd, 65536)
        except BlockingIOError:
            return
        if not chunk:
            self.closed = True
            tail = bytes(self.data[self.scanned:])
            if tail.strip():   # (a last record without its newline)
                self.records += frame.scan(tail).records
                self.scanned = len(self.data)
            return
        self._feed(chunk)

    def wait_for(self, types, timeout, after):
        """The first record from index `after` of one of `types` (a meta record that does not say
        serve stops the conversation); Stopped on a timeout or when the console closes first."""
        t0 = time.monotonic()
        while True:
            for r in self.records[after:]:
                if r.type == "meta":
                    self.meta = r
                    if r.get("serve") is not True:
                        raise Stopped("the image is not a served one (its meta record has no \"serve\": true): "
                                      "configure its build with -DBM_SERVE=ON")
                if r.type in types:
                    return r
            after = len(self.records)
            if self.closed:
                raise Stopped(f"the console closed before a {' or '.join(types)} record arrived")
            left = timeout - (time.monotonic() - t0)
            if left <= 0:
                raise Stopped(f"no {' or '.join(types)} record within {timeout:g} s")
            self._read(min(left, 0.1))

    def ready(self, timeout):
        """The first ready record (the image booted and waits for a command)."""
        return self.wait_for(("ready",), timeout, 0)

    def send(self, line: bytes):
        """Bytes to the console, as they are (a command line ends with b"\\n")."""
        try:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise Stopped(f"cannot write to the console: {e.strerror or e}")

    def command(self, line: bytes, timeout):
        """Send one command line and return its reply: the records up to the next ready record
        (or the end record, after `end`), that one not included."""
        start = len(self.records)
        self.send(line if line.endswith((b"\n", b"\r")) else line + b"\n")
        end = self.wait_for(("ready", "end"), timeout, start)
        return self.records[start:self.records.index(end)]

    def finish(self, timeout):
        """After the end record: the rest of the console, and the command's exit status (None
        when it had to be stopped)."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        t0 = time.monotonic()
        while not self.closed and time.monotonic() - t0 < timeout:
            self._read(0.1)
        try:
            return self.proc.wait(timeout=max(0.5, timeout - (time.monotonic() - t0)))
        except subprocess.TimeoutExpired:
            return None

    def stop(self):
        """Ends the command if it still runs (and its children), and closes what was opened."""
        _kill_group(self.proc)
        self.sel.close()
        for f in (self.proc.stdout, self.proc.stdin):
            try:
                f.close()
            except OSError:
                pass
