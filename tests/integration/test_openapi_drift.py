"""The committed OpenAPI document (docs/openapi.json) is the one the routes generate.

Regenerate it after changing a route or a model::

    PYTHONPATH=. .venv/bin/python tests/integration/test_openapi_drift.py --write
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

COMMITTED = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"

# docs/interfaces.md, 'HTTP API': every route, in the spec's path syntax.
CONTRACT_ROUTES = {
    ("get", "/tournaments"),
    ("get", "/tournaments/{id}"),
    ("get", "/tournaments/{id}/registrations/me"),
    ("get", "/tournaments/{id}/standings"),
    ("post", "/tournaments/{id}/registrations"),
    ("delete", "/tournaments/{id}/registrations/me"),
    ("get", "/me/account"),
    ("get", "/me/ledger"),
    ("get", "/tournaments/{id}/tables/{table}"),
    ("post", "/tournaments/{id}/tables/{table}/actions"),
    ("post", "/tournaments/{id}/rebuys"),
    ("post", "/tournaments/{id}/addons"),
    ("post", "/tournaments/{id}/away"),
    ("post", "/tournaments/{id}/back"),
    ("get", "/tournaments/{id}/tables/{table}/hands/{hand}"),
    ("post", "/admin/tournaments"),
    ("post", "/admin/tournaments/{id}/terminate"),
    ("post", "/admin/tournaments/{id}/restart"),
    ("post", "/admin/tournaments/{id}/cancel"),
    ("post", "/admin/accounts/{player}/deposits"),
    ("post", "/admin/tournaments/{id}/players/{player}/stack"),
    ("post", "/admin/tournaments/{id}/players/{player}/disqualify"),
    ("post", "/admin/players/{player}/mute"),
    ("delete", "/admin/players/{player}/mute"),
    ("post", "/admin/accounts/{player}/adjustments"),
    ("get", "/admin/audit"),
    ("get", "/admin/tournaments/{id}/recovery"),
}


def generated() -> dict[str, Any]:
    from functions.api.app import openapi_document

    return openapi_document()


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, sort_keys=True) + "\n"


def test_the_committed_openapi_document_is_the_generated_one() -> None:
    # Given the routes as they are, when the document is generated
    document = generated()
    # Then it is the committed one (regenerate with the command in this module's docstring)
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    assert committed == document, f"docs/openapi.json drifted: regenerate it ({__doc__.strip().splitlines()[-1]})"


def test_the_document_has_every_route_of_the_contract() -> None:
    document = generated()
    routes = {(method, path) for path, item in document["paths"].items() for method in item}
    assert routes >= CONTRACT_ROUTES


def test_registration_is_documented_as_201_with_the_idempotency_key_header() -> None:
    operation = generated()["paths"]["/tournaments/{id}/registrations"]["post"]
    headers = [p["name"].lower() for p in operation.get("parameters", []) if p["in"] == "header"]
    assert "201" in operation["responses"] and "idempotency-key" in headers


if __name__ == "__main__":
    if "--write" in sys.argv:
        COMMITTED.write_text(render(generated()), encoding="utf-8")
        print(f"wrote {COMMITTED}")
    else:
        sys.exit(0 if json.loads(COMMITTED.read_text()) == generated() else 1)
