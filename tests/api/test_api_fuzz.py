"""Property-based fuzzing of every /api operation from the OpenAPI document (schemathesis).

Bounded examples per operation; asserts no 5xx and responses that match the document.
Requests carry a bearer token of an admin, so every operation is reached past its access check.
"""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from sibol.api.tokens import issue_token
from sibol.extensions import db
from tests.factories import make_admin

MAX_EXAMPLES = 12
# The document describes what each route reads loosely (it does not list every rule a field
# obeys), so schema-valid data may be refused with a 400: that is not a finding.
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def fuzz_operation(operation, headers: dict) -> list[str]:
    problems: list[str] = []

    @given(case=operation.as_strategy())
    @settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
              derandomize=True, database=None)
    def run(case):
        # Logging the fuzzing admin out would turn every later case into a 401.
        logout = operation.path == "/api/auth/logout"
        response = case.call(headers={"Accept-Encoding": "identity"} if logout else headers)
        if response.status_code >= 500:
            problems.append(f"{case.method} {case.formatted_path}: {response.status_code} {response.text[:200]}")
            return
        try:
            case.validate_response(response, checks=CHECKS)
        except (Exception, BaseExceptionGroup) as err:  # schemathesis raises a group of failures
            problems.append(f"{case.method} {case.formatted_path} -> {response.status_code}: {str(err)[:400]}")

    run()
    return problems


def test_every_operation_survives_fuzzing_and_matches_the_document(app):
    app.config["RATELIMIT_ENABLED"] = False
    admin = make_admin(username="fuzz.admin")
    # identity: the in-process WSGI transport does not undo Content-Encoding.
    headers = {"Authorization": f"Bearer {issue_token(admin)}", "Accept-Encoding": "identity"}
    db.session.commit()
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    problems: list[str] = []
    operations = 0
    for result in schema.get_all_operations():
        operations += 1
        problems += fuzz_operation(result.ok(), headers)
    assert operations > 0
    assert not problems, "\n".join(problems[:30])
