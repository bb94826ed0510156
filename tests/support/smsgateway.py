"""A local HTTP server that speaks the SMS gateway's API (Semaphore's POST /api/v4/messages with
apikey, number, message, sendername), for the reminder tests: it keeps every message it was
sent and can be told to refuse the next ones."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

from tests.support.servers import free_port

API_KEY = "test-semaphore-key"


@dataclass
class Gateway:
    url: str
    received: list[dict] = field(default_factory=list)
    refuse: int = 0  # refuse this many next messages with a 500

    def clear(self) -> None:
        self.received.clear()
        self.refuse = 0


def _handler(gateway: Gateway) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args) -> None:  # quiet
            return

        def _answer(self, status: int, body: object) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            if self.path != "/api/v4/messages":
                return self._answer(404, {"error": "not found"})
            length = int(self.headers.get("Content-Length") or 0)
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
            if form.get("apikey") != API_KEY:
                return self._answer(401, {"apikey": ["The apikey is invalid."]})
            if gateway.refuse:
                gateway.refuse -= 1
                return self._answer(500, {"error": "temporarily unavailable"})
            gateway.received.append(form)
            return self._answer(
                200,
                [
                    {
                        "message_id": len(gateway.received),
                        "recipient": form.get("number"),
                        "message": form.get("message"),
                        "sender_name": form.get("sendername"),
                        "status": "Pending",
                    }
                ],
            )

    return Handler


def sms_gateway() -> Iterator[Gateway]:
    """For a module-scoped fixture: `yield from sms_gateway()`."""
    port = free_port()
    gateway = Gateway(f"http://127.0.0.1:{port}/api/v4/messages")
    server = ThreadingHTTPServer(("127.0.0.1", port), _handler(gateway))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield gateway
    finally:
        server.shutdown()
        server.server_close()


def sms_settings(gateway: Gateway, **extra) -> dict:
    return {"SIBOL_SMS_URL": gateway.url, "SIBOL_SMS_API_KEY": API_KEY, "SIBOL_SMS_SENDER": "SIBOL", **extra}
