"""The ServiceError family, and the handlers that answer JSON under /api and HTML elsewhere."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException

from .extensions import db
from .i18n.languages import N_


class ServiceError(Exception):
    """A refusal by a service: carries the HTTP status and a message a person can read."""

    status = 400
    error = "bad_request"

    def __init__(self, message: str, *, field: str | None = None, **extra):
        message = str(message)  # a lazy text is rendered now, in the request's language
        super().__init__(message)
        self.message = message
        self.field = field
        self.extra = extra

    def field_errors(self, default_field: str = "form") -> dict[str, str]:
        """The refusal as field errors {field: message}: every message a service collected, else
        this one under its field (or `default_field`). Pages show these next to their fields."""
        found = self.extra.get("errors")
        if isinstance(found, dict) and found:
            return found
        return {self.field or default_field: self.message}

    def payload(self) -> dict:
        """The JSON body under /api: the message, and for a field, the same field errors as pages."""
        body = {"success": False, "message": self.message, "error": self.message, "code": self.error}
        body.update(self.extra)
        if self.field:
            body["field"] = self.field
            body["errors"] = self.field_errors()
        return body


class Invalid(ServiceError):
    """Bad input: names the field and why."""

    status, error = 400, "invalid"


class Unauthorized(ServiceError):
    status, error = 401, "unauthorized"


class Forbidden(ServiceError):
    status, error = 403, "forbidden"


class NotFound(ServiceError):
    status, error = 404, "not_found"


class Conflict(ServiceError):
    status, error = 409, "conflict"


class TooLarge(ServiceError):
    status, error = 413, "too_large"


class Unsupported(ServiceError):
    status, error = 415, "unsupported_media_type"


class TooManyRequests(ServiceError):
    """Over a rate limit; `retry_after` seconds go out as Retry-After."""

    status, error = 429, "rate_limited"

    def __init__(self, message: str, *, retry_after: int | None = None, **extra):
        super().__init__(message, **extra)
        self.retry_after = retry_after


# Where the spec's client looks for pending accounts and barangays after /api/admin/... (spec
# section 7). Nothing need answer there, but whatever does is JSON with CORS headers.
CLIENT_FALLBACK_PATHS = ("/admin/pending-accounts", "/pending-accounts", "/admin/barangays", "/barangays")


def is_api_path(path: str) -> bool:
    """/api and below, and the client's fallback paths: answered as JSON, with CORS headers."""
    if path == "/api" or path.startswith("/api/"):
        return True
    return any(path == p or path.startswith(p + "/") for p in CLIENT_FALLBACK_PATHS)


def wants_json() -> bool:
    return is_api_path(request.path)


def json_error(status: int, message: str, *, code: str | None = None, **extra):
    body = {"success": False, "message": message, "error": message}
    if code:
        body["code"] = code
    body.update(extra)
    response = jsonify(body)
    response.status_code = status
    return response


HTTP_MESSAGES = {
    400: N_("The request could not be understood."),
    401: N_("Sign in to continue."),
    403: N_("You do not have access to this."),
    404: N_("Not found."),
    405: N_("This method is not allowed here."),
    413: N_("The upload is too large (10 MB at most)."),
    415: N_("Send the body as JSON (Content-Type: application/json)."),
    429: N_("Too many attempts. Try again later."),
    500: N_("Something went wrong on our side. Please try again."),
}


BUSY_MESSAGE = N_("The system is busy right now. Please try again in a moment.")
BUSY_RETRY_AFTER = 5
# MySQL/MariaDB: lock wait timeout, deadlock. SQLite says so in its message.
BUSY_MYSQL_CODES = {1205, 1213}


def database_busy(err: OperationalError) -> bool:
    """The database stayed locked or busy past the wait (not broken): worth a retry."""
    orig = err.orig
    if orig is None:
        return False
    if "database is locked" in str(orig) or "database is busy" in str(orig):
        return True
    args: tuple = getattr(orig, "args", ())
    return bool(args) and args[0] in BUSY_MYSQL_CODES


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ServiceError)
    def service_error(err: ServiceError):
        retry_after = getattr(err, "retry_after", None)
        headers = {"Retry-After": str(retry_after)} if retry_after else {}
        if wants_json():
            response = jsonify(err.payload())
            response.status_code = err.status
            response.headers.update(headers)
            return response
        page = render_template("errors/error.html", status=err.status, message=err.message)
        return page, err.status, headers

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        status = err.code or 500
        message = _(HTTP_MESSAGES[status]) if status in HTTP_MESSAGES else (err.description or _("Error"))
        if status == 400 and err.description and "CSRF" in err.description:
            message = _("The form expired or its security token is missing. Reload the page and try again.")
        if wants_json():
            response = json_error(status, message, code=err.name.lower().replace(" ", "_"))
        else:
            template = "errors/404.html" if status == 404 else "errors/error.html"
            response = app.make_response((render_template(template, status=status, message=message), status))
        if status == 405 and hasattr(err, "valid_methods") and err.valid_methods:
            response.headers["Allow"] = ", ".join(err.valid_methods)
        return response

    @app.errorhandler(OperationalError)
    def database_error(err: OperationalError):
        if not database_busy(err):
            return unexpected(err)

        db.session.rollback()
        app.logger.warning("Database busy on %s %s: %s", request.method, request.path, err.orig)
        headers = {"Retry-After": str(BUSY_RETRY_AFTER)}
        if wants_json():
            response = json_error(503, _(BUSY_MESSAGE), code="database_busy", retryAfter=BUSY_RETRY_AFTER)
            response.headers.update(headers)
            return response
        page = render_template("errors/error.html", status=503, message=_(BUSY_MESSAGE))
        return page, 503, headers

    @app.errorhandler(Exception)
    def unexpected(err: Exception):
        if isinstance(err, HTTPException):  # pragma: no cover - handled above
            return http_error(err)
        app.logger.exception("Unhandled error on %s %s", request.method, request.path)

        db.session.rollback()
        if wants_json():
            return json_error(500, _(HTTP_MESSAGES[500]), code="internal_error")
        return render_template("errors/error.html", status=500, message=_(HTTP_MESSAGES[500])), 500
