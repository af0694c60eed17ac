"""Safari's engine in the browser tests: WebKitGTK's MiniBrowser under Xvfb, driven through
WebKitWebDriver (Debian's webkit2gtk-driver) with Selenium, behind a page that answers as a
Playwright page does (evaluate, wait_for_function) so that the helpers of tests/e2e/table_phone.py
drive both engines alike; and the line between the phone and the test's server, which the test
cuts and restores (WebDriver has no offline switch: the server must be really unreachable)."""

from __future__ import annotations

import os
import select
import shutil
import socket
import subprocess
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager, suppress

WEBKIT_DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
XVFB = shutil.which("Xvfb") or "/usr/bin/Xvfb"


def missing() -> str | None:
    """What this machine lacks to run WebKit, or None."""
    if not os.path.exists(WEBKIT_DRIVER):
        return "WebKitGTK's driver is not installed (apt-get install webkit2gtk-driver)"
    if not os.path.exists(XVFB):
        return "Xvfb is not installed (apt-get install xvfb)"
    return None


@contextmanager
def virtual_display() -> Iterator[str]:
    """An X display of its own (the MiniBrowser has no headless mode): Xvfb takes the first free
    display number and says which (-displayfd), so that parallel test processes never share
    one."""
    read, write = os.pipe()
    server = subprocess.Popen(
        [XVFB, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        ready, _, _ = select.select([read], [], [], 30)
        number = os.read(read, 16).decode().strip() if ready else ""
        if not number:
            raise RuntimeError("Xvfb did not start")
        yield f":{number}"
    finally:
        os.close(read)
        server.terminate()
        server.wait(timeout=10)


@contextmanager
def webkit_session(display: str) -> Iterator[object]:
    """A MiniBrowser of its own on `display`. An automation session keeps its storage (service
    workers, caches, IndexedDB) for the session only: a restarted browser is Chromium's test."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.service import Service

    # No accessibility bus to wait for on a machine that has none.
    env = {**os.environ, "DISPLAY": display, "NO_AT_BRIDGE": "1"}
    service = Service(executable_path=WEBKIT_DRIVER, env=env, log_output=subprocess.DEVNULL)
    with warnings.catch_warnings():
        # Selenium's own WebKitGTK class calls its remote connection in a way it deprecates.
        warnings.simplefilter("ignore", DeprecationWarning)
        driver = webdriver.WebKitGTK(service=service, options=webdriver.WebKitGTKOptions())
    try:
        yield driver
    finally:
        driver.quit()


# Calls a page's function (Playwright's form, "(arg) => ...", async or not) with the argument
# and answers with its value, or its error: WebDriver's asynchronous script waits for a promise.
CALL = """
const done = arguments[arguments.length - 1];
Promise.resolve()
  .then(() => (%s)(arguments[0]))
  .then(
    (value) => done({ value: value === undefined ? null : value }),
    (error) => done({ error: String((error && error.stack) || error) }),
  );
"""


class WebKitPage:
    """A WebKit page as the helpers of the phone's tests use one (a Playwright Page's
    evaluate, wait_for_function and wait_for_selector), over a Selenium WebDriver."""

    def __init__(self, driver, timeout: float = 15_000):
        self.driver = driver
        self.timeout = timeout

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def reload(self) -> None:
        self.driver.refresh()

    def evaluate(self, function: str, arg: object = None) -> object:
        answer = self.driver.execute_async_script(CALL % function.strip(), arg)
        if "error" in answer:
            raise AssertionError(f"the page's script failed: {answer['error']}")
        return answer["value"]

    def wait_for_function(
        self, function: str, arg: object = None, timeout: float | None = None
    ) -> object:
        """Until `function(arg)` holds (Playwright's wait_for_function); the timeout in ms."""
        deadline = time.monotonic() + (timeout or self.timeout) / 1000
        while True:
            value = self.evaluate(function, arg)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"still false after {timeout or self.timeout} ms: {function.strip()}"
                )
            time.sleep(0.05)

    def wait_for_selector(self, selector: str, state: str = "attached") -> None:
        assert state == "attached", state
        self.wait_for_function("(selector) => document.querySelector(selector) !== null", selector)

    def screenshot(self, path: str) -> None:
        self.driver.save_screenshot(path)


class LineToServer:
    """The phone's way to the server: a TCP relay on a loopback port of its own to `target`
    (the test's live server) that the test cuts, the server then refusing every connection as a
    server that is down does, and restores on the same port (the phone's link, its service
    worker's scope and its storage are the origin's: the port must not change)."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.connections: set[socket.socket] = set()
        self.lock = threading.Lock()
        self.up = True
        self.listener = self._listen(0)
        self.port = self.listener.getsockname()[1]
        self._serve()

    @property
    def origin(self) -> str:
        # localhost: a secure context (service workers) in WebKit as in Chromium.
        return f"http://localhost:{self.port}"

    @staticmethod
    def _listen(port: int) -> socket.socket:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        return listener

    def _serve(self) -> None:
        self.listener.listen(64)
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut: the listener was shut down
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                if not self.up:  # taken in the moment the line was cut
                    client.close()
                    server.close()
                    continue
                self.connections.update((client, server))
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        with suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with suppress(OSError):
            sink.shutdown(socket.SHUT_WR)
        self._forget(source)

    def _forget(self, sock: socket.socket) -> None:
        with self.lock:
            self.connections.discard(sock)
        with suppress(OSError):
            sock.close()

    def cut(self) -> None:
        """Every open connection broken and no new one taken. The listener is shut down, not
        closed: the port stays this relay's, and a connection to it is refused."""
        self.listener.shutdown(socket.SHUT_RDWR)
        with self.lock:
            self.up = False
            open_ = list(self.connections)
        for sock in open_:
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def restore(self) -> None:
        # Bound again before the old socket lets the port go: no moment another could take it.
        listener = self._listen(self.port)
        self.listener.close()
        self.listener = listener
        with self.lock:
            self.up = True
        self._serve()

    def close(self) -> None:
        self.cut()
        self.listener.close()
