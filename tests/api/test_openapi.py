"""The OpenAPI document is true to the registered routes."""

from sibol.api.openapi import api_rules, openapi_path


def test_document_lists_exactly_the_registered_api_routes(app, client):
    doc = client.get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.")
    documented = {(path, method.upper()) for path, ops in doc["paths"].items() for method in ops}
    registered = {
        (openapi_path(rule.rule)[0], method)
        for rule in api_rules(app)
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    assert documented == registered


def test_every_operation_documents_its_errors_as_json(client):
    doc = client.get("/api/openapi.json").json
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert op["operationId"] and op["responses"], (path, method)
            for code, response in op["responses"].items():
                if code.startswith(("4", "5")):
                    assert response["content"]["application/json"]["schema"] == {
                        "$ref": "#/components/schemas/Error"
                    }


def test_login_operation_describes_its_body(client):
    doc = client.get("/api/openapi.json").json
    body = doc["paths"]["/api/auth/login"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["username", "password"]
    assert doc["paths"]["/api/auth/login"]["post"]["security"] == []


def test_every_operation_is_described_in_the_registry(app):
    from sibol.api.openapi import operations

    OPERATIONS = operations(app)
    registered = {
        (rule.endpoint, method) for rule in api_rules(app) for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    assert registered - set(OPERATIONS) == set(), "add an OPERATIONS entry in the feature's openapi.py"
    assert set(OPERATIONS) - registered == set(), "OPERATIONS names a route that no longer exists"


def test_upload_operations_document_multipart_and_their_errors(client):
    doc = client.get("/api/openapi.json").json
    for path in ("/api/household/rewards", "/api/maintenance/requests"):
        op = doc["paths"][path]["post"]
        assert "multipart/form-data" in op["requestBody"]["content"]
        assert {"201", "400", "413", "415"} <= set(op["responses"])
    image = doc["paths"]["/api/household/rewards/{reward_id}/image"]["get"]["responses"]["200"]["content"]
    assert "image/png" in image and "application/json" not in image
