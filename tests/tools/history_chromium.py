# SPDX-License-Identifier: Apache-2.0
"""Drives Debian's headless Chromium through its DevTools protocol on a pipe (no port, no network;
the flags the machine notes give): opens a page, collects what it said on its console and the
requests it made, evaluates expressions, moves the mouse, takes PNG screenshots. For the trend
page's tests."""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

CHROMIUM = "/usr/lib/chromium/chromium"   # the binary behind Debian's /usr/bin/chromium wrapper
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe"]


def available():
    return os.access(CHROMIUM, os.X_OK)


class Browser:
    """One headless Chromium and one page in it: `with Browser() as b: b.open(url); b.eval(js)`.
    b.console (level, text), b.exceptions and b.requests (URLs) collect what the page did."""

    def __init__(self, width=1280, height=1600, timeout=60):
        self.width, self.height, self.timeout = width, height, timeout
        self.console, self.exceptions, self.requests = [], [], []
        self._buf, self._id, self._session = b"", 0, None

    def __enter__(self):
        self.profile = tempfile.mkdtemp(prefix="bm-chromium-")
        to_r, self._to = os.pipe()       # we write, Chromium reads on its fd 3
        self._from, from_w = os.pipe()   # Chromium writes on its fd 4, we read

        def fds():
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)
        self.proc = subprocess.Popen(
            [CHROMIUM] + FLAGS + [f"--user-data-dir={self.profile}", f"--window-size={self.width},{self.height}",
                                  "about:blank"],
            pass_fds=(3, 4), preexec_fn=fds, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Page", "Network"):
            self.send(f"{domain}.enable")
        return self

    def __exit__(self, *exc):
        try:
            self._session = None
            self.send("Browser.close")
            self.proc.wait(timeout=15)
        except (RuntimeError, OSError, TimeoutError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            os.close(self._to)
            os.close(self._from)
            shutil.rmtree(self.profile, ignore_errors=True)

    def _note(self, m):
        meth, p = m.get("method"), m.get("params", {})
        if meth == "Runtime.consoleAPICalled":
            self.console.append((p["type"], " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"])))
        elif meth == "Log.entryAdded":
            self.console.append((p["entry"]["level"], p["entry"]["text"]))
        elif meth == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            self.exceptions.append(d.get("exception", {}).get("description") or d.get("text"))
        elif meth == "Network.requestWillBeSent":
            self.requests.append(p["request"]["url"])

    def _wait(self, pred):
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                m = json.loads(raw)
                self._note(m)
                if pred(m):
                    return m
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("chromium did not answer in time")
            if select.select([self._from], [], [], min(left, 1.0))[0]:
                chunk = os.read(self._from, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed its DevTools pipe")
                self._buf += chunk

    def send(self, method, params=None):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if self._session and not method.startswith(("Target.", "Browser.")):
            msg["sessionId"] = self._session
        os.write(self._to, json.dumps(msg).encode() + b"\0")
        reply = self._wait(lambda m: m.get("id") == self._id)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def open(self, url, settle=0.5):
        self.send("Page.navigate", {"url": url})
        self._wait(lambda m: m.get("method") == "Page.loadEventFired")
        time.sleep(settle)

    def eval(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails'].get('text')}")
        return r.get("result", {}).get("value")

    def mouse(self, x, y):
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})

    def screenshot(self):
        return base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"})["data"])
