"""No input to an auth endpoint produces a 500, and a refused request writes nothing."""

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.models import Account, ApiToken
from sibol.models.auth import AccountToken

ENDPOINTS = {
    "/api/auth/login": ("username", "password"),
    "/api/auth/signup": ("firstName", "lastName", "email", "areaId", "role", "isSSO"),
    "/api/auth/resend-verification": ("email",),
    "/api/auth/forgot-password": ("email",),
    "/api/auth/verify-reset-code": ("email", "code"),
    "/api/auth/reset-password": ("email", "code", "newPassword"),
    "/api/auth/set-password": ("token", "newPassword"),
}
ODD_VALUES = [
    None,
    True,
    0,
    -1,
    1.5,
    2**70,
    "",
    " ",
    "x" * 10_000,
    [],
    ["a"],
    {},
    {"a": 1},
    "\u0000",
    "😀" * 50,
]


def counts():
    return tuple(
        db.session.scalar(select(func.count()).select_from(m)) for m in (Account, ApiToken, AccountToken)
    )


@pytest.mark.parametrize("path", list(ENDPOINTS))
def test_odd_values_get_a_4xx_json_message_and_write_nothing(client, app, path):
    app.config["RATELIMIT_ENABLED"] = False
    from sibol.extensions import limiter

    limiter.enabled = False
    try:
        before = counts()
        for field in ENDPOINTS[path]:
            for value in ODD_VALUES:
                body = {f: "a@b.ph" if f == "email" else "x" for f in ENDPOINTS[path]}
                body[field] = value
                res = client.post(path, json=body)
                assert 400 <= res.status_code < 500, (path, field, value, res.status_code, res.data[:200])
                assert res.is_json and res.json["message"], (path, field, value)
        for raw in ("", "null", "[]", "{", '"x"', "1"):
            res = client.post(path, data=raw, content_type="application/json")
            assert 400 <= res.status_code < 500 and res.json["message"]
        assert counts() == before
    finally:
        limiter.enabled = True


@pytest.mark.parametrize(
    "path",
    [
        "/api/auth/verify-email/%00",
        "/api/auth/check-status/%00",
        "/api/auth/verify-email/" + "%F0%9F%98%80" * 100,
        "/api/auth/check-status/a%2Fb",
    ],
)
def test_odd_path_values_are_4xx(client, path):
    res = client.get(path)
    assert 400 <= res.status_code < 500 and res.is_json


@pytest.mark.parametrize(
    "path", ["/signup", "/email-verification?token=x", "/set-password?token=x", "/login"]
)
def test_pages_refuse_odd_form_values_without_500(client, path):
    res = client.post(
        path,
        data={
            "role": "x" * 5000,
            "areaId": "9" * 5000,
            "email": "@" * 5000,
            "firstName": "\u0000",
            "username": "u" * 10_000,
            "password": "p" * 10_000,
            "newPassword": "x",
            "confirmPassword": "y",
            "token": "t" * 10_000,
        },
    )
    assert res.status_code < 500
