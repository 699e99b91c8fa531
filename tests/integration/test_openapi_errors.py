"""The OpenAPI document describes every error as it reaches the client (docs/architecture.md, 'Hardening').

Behind the JWT authorizer a request without a valid token never reaches a
function: API Gateway answers 401 ``{"message": "Unauthorized"}`` itself (the
local gateway does the same, ``infra/local/http_api.py``), so every authorized
operation documents its 401 with that body, and the function's own error body
fits the same schema. Every operation documents the refusals every request
may get: 413 (body size), 415 (not JSON), 422 (invalid), and the stage's
throttle, 429 as API Gateway answers it.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from infra import wiring
from tests.integration.test_openapi_drift import generated

GATEWAY_401 = {"message": "Unauthorized"}
"""What API Gateway's JWT authorizer answers (and the local gateway, ``gateway_error(401, "Unauthorized")``)."""


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return generated()


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, item in document["paths"].items() for method, op in item.items()]


def schema_of(document: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
    """The response's JSON schema, resolvable against the document's components."""
    return {**response["content"]["application/json"]["schema"], "components": document["components"]}


def test_every_authorized_operation_documents_the_authorizers_401(document: dict[str, Any]) -> None:
    authorized = {(r.method.lower(), r.path) for r in wiring.HTTP_ROUTES if r.authorized}
    for method, path, operation in operations(document):
        assert (method, path) in authorized, f"{method} {path} is documented but not behind the authorizer"
        response = operation["responses"]["401"]
        assert "Unauthorized" in response["description"]
        # the gateway's own body, and the function's error body, both fit the documented schema
        jsonschema.validate(GATEWAY_401, schema_of(document, response))
        jsonschema.validate({"error": "unauthorized", "message": "no authorizer claims"}, schema_of(document, response))


def test_every_operation_documents_the_refusals_any_request_may_get(document: dict[str, Any]) -> None:
    for method, path, operation in operations(document):
        assert {"413", "415", "422", "429"} <= set(operation["responses"]), f"{method} {path}"
        jsonschema.validate({"message": "Too Many Requests"}, schema_of(document, operation["responses"]["429"]))
        jsonschema.validate(
            {"error": "payload_too_large", "message": "bodies are at most 16384 bytes"},
            schema_of(document, operation["responses"]["413"]),
        )
        with pytest.raises(jsonschema.ValidationError):  # a function's 422 always names its code
            jsonschema.validate({"message": "x"}, schema_of(document, operation["responses"]["422"]))


def test_the_limits_are_in_the_document(document: dict[str, Any]) -> None:
    from tourney.entrypoints.limits import MAX_BODY_BYTES
    from tourney.entrypoints.models import MAX_CENTS

    assert f"{MAX_BODY_BYTES} bytes" in document["info"]["description"]
    deposit = document["components"]["schemas"]["DepositRequest"]["properties"]["amount"]
    assert deposit["maximum"] == MAX_CENTS
