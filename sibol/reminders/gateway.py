"""SMS out through one small interface; the first backend speaks Semaphore's HTTP API
(POST /api/v4/messages with apikey, number, message, sendername), configured by SIBOL_SMS_URL,
SIBOL_SMS_API_KEY and SIBOL_SMS_SENDER. Without them SMS is off (gateway_from returns None)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import requests


class SmsError(Exception):
    """The gateway refused or could not be reached: the send is tried again later."""


@dataclass(frozen=True)
class SmsReceipt:
    message_id: str
    parts: int = 1  # SMS the gateway billed


class SmsGateway(Protocol):
    def send(self, number: str, message: str) -> SmsReceipt: ...


@dataclass(frozen=True)
class SemaphoreGateway:
    url: str
    api_key: str
    sender: str
    timeout: float = 10.0

    def send(self, number: str, message: str) -> SmsReceipt:
        data = {"apikey": self.api_key, "number": number, "message": message, "sendername": self.sender}
        try:
            response = requests.post(self.url, data=data, timeout=self.timeout)
        except requests.RequestException as err:
            raise SmsError(f"gateway unreachable: {err.__class__.__name__}") from err
        if response.status_code >= 400:
            raise SmsError(f"gateway answered {response.status_code}: {response.text[:120]}")
        try:
            items = response.json()
        except ValueError as err:
            raise SmsError("gateway answered something other than JSON") from err
        first = items[0] if isinstance(items, list) and items else items
        if not isinstance(first, dict) or "message_id" not in first:
            raise SmsError(f"gateway did not accept the message: {str(items)[:120]}")
        if str(first.get("status", "")).lower() in ("failed", "refunded"):
            raise SmsError(f"gateway reports the message {first['status']}")
        return SmsReceipt(str(first["message_id"]), len(items) if isinstance(items, list) else 1)


def gateway_from(config) -> SmsGateway | None:
    url, key = config.get("SIBOL_SMS_URL"), config.get("SIBOL_SMS_API_KEY")
    if not url or not key:
        return None
    return SemaphoreGateway(url, key, config.get("SIBOL_SMS_SENDER") or "SIBOL")
