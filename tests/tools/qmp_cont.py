#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Unpause a QEMU started with -S through its QMP socket: `qmp_cont.py SOCKET`. Used as
`bm capture --start` so the guest runs only once the console's reader is attached."""
import json
import socket
import sys
import time

s = socket.socket(socket.AF_UNIX)
for _ in range(100):                      # QEMU creates the socket at start-up
    try:
        s.connect(sys.argv[1])
        break
    except OSError:
        time.sleep(0.05)
f = s.makefile("rwb")
f.readline()                               # the QMP greeting
for cmd in ("qmp_capabilities", "cont"):
    f.write(json.dumps({"execute": cmd}).encode() + b"\n")
    f.flush()
    while True:                            # skip events until the command's answer
        reply = json.loads(f.readline() or b'{"error":"closed"}')
        if "return" in reply or "error" in reply:
            break
    if "error" in reply:
        sys.exit(f"qmp {cmd}: {reply['error']}")
