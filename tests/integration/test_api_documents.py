"""The OpenAPI document groups its operations by tag with real summaries and says how to get a token."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.test_openapi_drift import generated


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    return generated()


def test_every_operation_is_grouped_by_a_declared_tag_with_a_real_summary(openapi: dict[str, Any]) -> None:
    # Given the generated OpenAPI document
    declared = {tag["name"] for tag in openapi.get("tags", [])}
    assert declared, "the document declares no tags"
    for path, item in openapi["paths"].items():
        for method, operation in item.items():
            # Then each operation sits in exactly one declared tag
            assert len(operation.get("tags", [])) == 1 and operation["tags"][0] in declared, (method, path)
            # And its summary says what it does, not only its method and path
            summary = operation.get("summary", "")
            assert summary and summary != f"{method.upper()} {path}" and "/" not in summary, (method, path, summary)
    # And every declared tag is used and described
    used = {op["tags"][0] for item in openapi["paths"].values() for op in item.values()}
    assert used == declared
    assert all(tag.get("description") for tag in openapi["tags"])


def test_the_document_says_how_to_get_a_token(openapi: dict[str, Any]) -> None:
    # Given the generated OpenAPI document, When its token scheme is read
    scheme = openapi["components"]["securitySchemes"]["jwt"]["description"]
    # Then it says how a player and an operator get one, on AWS and on the local stack
    for words in ("UserPoolClientId", "USER_SRP_AUTH", "operators", "tourney local token", "Authorization: Bearer"):
        assert words in scheme, words
    assert "How to get a token" in openapi["info"]["description"]
