"""Helpers of the second-factor tests: a clock the server reads, codes computed with pyotp."""

from __future__ import annotations

import pyotp

from sibol.identity import totp

START = 1_900_000_005  # a few seconds into a 30-second step


class Clock:
    """Stands in for sibol.identity.totp.clock; `step()` moves it to the next 30-second step."""

    def __init__(self) -> None:
        self.now = float(START)

    def __call__(self) -> float:
        return self.now

    def step(self, steps: int = 1) -> None:
        self.now += totp.STEP_SECONDS * steps


def code_at(secret: str, clock: Clock, offset: int = 0) -> str:
    """The authenticator app's code for the clock's step (plus `offset` steps)."""
    return pyotp.TOTP(secret).generate_otp(int(clock.now) // totp.STEP_SECONDS + offset)


def enrol_api(client, headers: dict, clock: Clock) -> tuple[str, list[str]]:
    """Set up the account's authenticator through the API; the secret and the recovery codes.
    The clock moves on a step, so the next code is a new one."""
    res = client.post("/api/me/totp", headers=headers)
    assert res.status_code == 201, res.json
    secret = res.json["secret"]
    res = client.post("/api/me/totp/confirm", json={"code": code_at(secret, clock)}, headers=headers)
    assert res.status_code == 200, res.json
    clock.step()
    return secret, res.json["recoveryCodes"]
