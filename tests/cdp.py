"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe`` (stdlib only).

Drives the system's headless Chromium (Debian's ``chromium`` package): no
selenium, no browser download, no websocket library.  The browser reads
NUL-terminated JSON commands on file descriptor 3 and writes replies and
events on descriptor 4.
"""

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time

__all__ = ["find_chromium", "Browser", "BrowserUnavailable"]


class BrowserUnavailable(RuntimeError):
    """No usable Chromium on this machine (the message says why)."""


def find_chromium():
    """Path of a Chromium executable, or raise BrowserUnavailable naming what was tried."""
    names = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    raise BrowserUnavailable(f"no Chromium found on PATH (tried {', '.join(names)}); "
                             "install Debian's 'chromium' package (apt-get install chromium)")


class Browser:
    """One headless Chromium with one page, driven over the DevTools pipe.

    Use as a context manager; :meth:`open` loads a URL and waits for its
    ``load`` event (every image fetched), :meth:`evaluate` runs JavaScript,
    :meth:`screenshot` writes a PNG.
    """

    def __init__(self, width=1280, height=900, timeout=60.0):
        self.timeout = timeout
        self._id = 0
        self._buffer = b""
        self._events = []
        self._profile = tempfile.mkdtemp(prefix="ctlcc-chromium-")
        self._log = open(os.path.join(self._profile, "stderr.log"), "w+b")
        try:
            import fcntl
        except ImportError as err:      # not POSIX: no --remote-debugging-pipe wiring
            raise BrowserUnavailable(f"the DevTools pipe needs POSIX file descriptors: {err}")

        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire():
            # move both ends above 9 first: either could already be descriptor 3 or 4
            high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        args = [find_chromium(), "--headless", "--remote-debugging-pipe", "--no-first-run",
                "--no-default-browser-check", "--disable-gpu", "--disable-extensions",
                "--disable-dev-shm-usage", "--hide-scrollbars", f"--user-data-dir={self._profile}",
                f"--window-size={width},{height}", "about:blank"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.insert(1, "--no-sandbox")        # Chromium refuses to run as root otherwise
        try:
            self._process = subprocess.Popen(args, preexec_fn=wire, pass_fds=(3, 4),
                                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                             stderr=self._log)
        except OSError as err:
            raise BrowserUnavailable(f"cannot start {args[0]}: {err}") from err
        finally:
            os.close(to_browser_r)
            os.close(from_browser_w)
        try:
            target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
            self._session = self._call("Target.attachToTarget",
                                       {"targetId": target, "flatten": True})["sessionId"]
            self.send("Page.enable")
            self.send("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        except Exception:
            self.close()
            raise

    # -- public --------------------------------------------------------------------------

    def send(self, method, params=None):
        """Send a command to the page and return its result."""
        return self._call(method, params, session=self._session)

    def open(self, url):
        """Navigate to *url* and wait for its load event."""
        self._events.clear()
        reply = self.send("Page.navigate", {"url": url})
        if reply.get("errorText"):
            raise RuntimeError(f"cannot open {url}: {reply['errorText']}")
        if "loaderId" in reply:        # none for a same-document (fragment) navigation
            self._wait_event("Page.loadEventFired")

    def evaluate(self, expression):
        """Value of a JavaScript expression in the page (JSON-serialisable)."""
        reply = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                               "awaitPromise": True})
        if "exceptionDetails" in reply:
            raise RuntimeError(f"JavaScript error: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def screenshot(self, path, full_page=False):
        """Write a PNG of the viewport (or of the whole page) to *path*."""
        params = {"format": "png"}
        if full_page:
            width, height = self.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": width, "height": min(height, 16000),
                                "scale": 1})
        data = self.send("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))

    def close(self):
        try:
            self._call("Browser.close", timeout=5.0)
        except Exception:
            pass
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        if getattr(self, "_process", None) is not None:
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._log.close()
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- private -------------------------------------------------------------------------

    def _call(self, method, params=None, session=None, timeout=None):
        self._id += 1
        message = {"id": self._id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        wanted = self._id
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            reply = self._read(deadline, method)
            if reply.get("id") == wanted:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self._events.append(reply)

    def _wait_event(self, name):
        deadline = time.monotonic() + self.timeout
        while True:
            for event in self._events:
                if event.get("method") == name:
                    return event
            self._events.append(self._read(deadline, name))

    def _read(self, deadline, waiting_for):
        import select

        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"Chromium did not answer {waiting_for} in {self.timeout} s")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                self._log.seek(0)
                err = self._log.read().decode(errors="replace")[-2000:]
                raise BrowserUnavailable(f"Chromium closed the DevTools pipe: {err.strip()}")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)
