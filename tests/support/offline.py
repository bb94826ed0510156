"""The link cut for offline browser tests: the app on a WSGI server that can go down and come
back on the same port, the DevTools protocol's offline switch, and what the phone keeps (the
service worker's page cache, the IndexedDB entries)."""

from __future__ import annotations

import socket
import threading

from werkzeug.serving import make_server

from tests.support.browser import ORIGINS

# The /api writes an offline entry is sent to (a lost answer is simulated on those).
_ENTRY_WRITES = ("/waste", "/remarks")


class Link:
    """The app on a WSGI server that can go down and come back on the same port."""

    def __init__(self, app):
        self.app = app
        self.credits_seen = 0
        self.is_down = False
        self.lose_answer_of: int | None = None  # the n-th credit is stored, its answer lost
        self.server = make_server("127.0.0.1", 0, self.wsgi, threaded=True)
        self.port = self.server.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        ORIGINS.add(self.url)  # what the phone kept is cleared after the test
        self._start()

    def wsgi(self, environ, start_response):
        if self.is_down:  # a kept-alive connection outlives the listening socket: drop it too
            environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
            return []
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith(_ENTRY_WRITES):
            self.credits_seen += 1
            if self.credits_seen == self.lose_answer_of:
                body = b"".join(self.app(environ, lambda *a, **k: None))  # stored...
                del body
                environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)  # ...and the answer lost
                return []
        return self.app(environ, start_response)

    def _start(self):
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def down(self):
        self.is_down = True
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def up(self):
        self.is_down = False
        self.server = make_server("127.0.0.1", self.port, self.wsgi, threaded=True)
        self._start()


def offline(browser, is_offline: bool) -> None:
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": is_offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def cached_pages(browser) -> int:
    return browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        caches.keys().then(async (names) => {
          let n = 0;
          for (const name of names) if (name.startsWith('sibol-pages')) n += (await (await caches.open(name)).keys()).length;
          done(n);
        });"""
    )


def stored_entries(browser) -> int:
    return browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        const open = indexedDB.open('sibol-offline', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('entries', {keyPath: 'key'});
        open.onsuccess = () => {
          const req = open.result.transaction('entries').objectStore('entries').count();
          req.onsuccess = () => { open.result.close(); done(req.result); };
        };
        open.onerror = () => done(-1);"""
    )
