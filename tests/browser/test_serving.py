"""The local stack serves the web client (docs/interfaces.md, 'Web client'): ``/`` redirects to ``/app/``, files with
their content types, a ``config.json`` of the stack's own URLs, nothing outside ``web/``, and the local sign-in."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import pytest

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import CHROMIUM
from tests.e2e.seeding import call

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="the browser suite runs where Chromium is")


def raw(stack: LocalRuntime, method: str, path: str, body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request sent as written (no client-side normalisation of the path), not following redirects."""
    address = urlsplit(stack.urls["http"])
    connection = http.client.HTTPConnection(address.hostname or "127.0.0.1", address.port, timeout=30)
    try:
        connection.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_root_redirects_to_the_app(stack: LocalRuntime) -> None:
    status, headers, _ = raw(stack, "GET", "/")
    assert (status, headers["location"]) == (302, "/app/")


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/app/", "text/html"),
        ("/app/index.html", "text/html"),
        ("/app/app.js", "text/javascript"),
        ("/app/views/table.js", "text/javascript"),
        ("/app/style.css", "text/css"),
        ("/app/icon.svg", "image/svg+xml"),
    ],
)
def test_files_of_web_are_served_with_their_content_type(stack: LocalRuntime, path: str, content_type: str) -> None:
    status, headers, body = raw(stack, "GET", path)
    assert status == 200
    assert headers["content-type"].startswith(content_type)
    assert headers["x-content-type-options"] == "nosniff"
    assert body


def test_config_names_this_stack_and_the_local_sign_in(stack: LocalRuntime) -> None:
    status, headers, body = raw(stack, "GET", "/app/config.json")
    assert status == 200 and headers["content-type"] == "application/json"
    assert json.loads(body) == {"api": stack.urls["http"], "ws": stack.urls["ws"], "auth": {"mode": "local"}}


@pytest.mark.parametrize(
    "path",
    [
        "/app/../pyproject.toml",
        "/app/%2e%2e/pyproject.toml",
        "/app/..%2fpyproject.toml",
        "/app/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/app/views/../../README.md",
        "/app/..\\pyproject.toml",
        "/app//etc/passwd",
        "/app/.gitignore",
        "/app/views/",
        "/app/missing.js",
    ],
)
def test_nothing_outside_web_nor_hidden_nor_a_folder_is_served(stack: LocalRuntime, path: str) -> None:
    status, _, body = raw(stack, "GET", path)
    assert status == 404, body[:200]
    assert b"[project]" not in body and b"root:" not in body


def test_local_token_is_accepted_by_the_api_for_that_player(stack: LocalRuntime) -> None:
    status, _, body = raw(stack, "POST", "/local/token", json.dumps({"player": "tokyo"}).encode())
    assert status == 200
    token = json.loads(body)["token"]
    assert call(stack, "GET", "/me/account", token) == (200, {"player": "tokyo", "balance": 0})
    assert call(stack, "GET", "/admin/audit?player=tokyo", token)[0] == 403  # not an operator


def test_local_token_for_an_operator_opens_the_admin_api(stack: LocalRuntime) -> None:
    _, _, body = raw(stack, "POST", "/local/token", json.dumps({"player": "olga", "operator": True}).encode())
    assert call(stack, "GET", "/admin/audit?player=tokyo", json.loads(body)["token"])[0] == 200


@pytest.mark.parametrize(
    "body",
    [b"", b"not json", b"[]", b'{"player": ""}', b'{"player": "a/b"}', b'{"player": "ann", "operator": "yes"}',
     b'{"player": "ann", "extra": 1}', json.dumps({"player": "x" * 65}).encode()],
)  # fmt: skip
def test_local_token_refuses_a_bad_body_with_400(stack: LocalRuntime, body: bytes) -> None:
    status, _, answer = raw(stack, "POST", "/local/token", body)
    assert status == 400
    assert json.loads(answer)["error"] == "invalid_request"


def test_local_token_is_posted_only(stack: LocalRuntime) -> None:
    assert raw(stack, "GET", "/local/token")[0] == 405
