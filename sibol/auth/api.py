"""/api/auth/* and /api/modules/allowed."""

from __future__ import annotations

from flask import Blueprint
from flask_login import current_user

from ..access import public, signed_in
from ..api import json_body, text_field
from ..api.tokens import bearer_from_request
from ..extensions import limiter
from ..serializers import module_json, user_json
from . import service

bp = Blueprint("auth", __name__)


@bp.post("/auth/login")
@limiter.limit("10 per minute")
@public
def login():
    body = json_body()
    username = text_field(body, "username", label="Username", max_length=254)
    password = text_field(body, "password", label="Password", max_length=256, strip=False)
    account = service.authenticate(username, password)
    token = service.start_session(account, with_token=True)
    return {"success": True, "message": "Login successful", "token": token, "accessToken": token,
            "user": user_json(account)}


@bp.post("/auth/logout")
@public
def logout():
    service.end_session(bearer_from_request())
    return {"success": True, "message": "Signed out"}


@bp.get("/modules/allowed")
@signed_in
def allowed_modules():
    return {"success": True, "modules": [module_json(m) for m in current_user.modules]}
