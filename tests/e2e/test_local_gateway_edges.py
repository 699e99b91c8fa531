"""The local runtime at the edges of what a client may send (the real template and handlers).

Every request a client can make is answered as API Gateway would, with the
contract's error bodies, never a 500: a path too long for any file under
``/app/``, a WebSocket message nested thousands deep (the connection stays
usable), percent-encoded path parameters (decoded, as the HTTP API delivers
them) and a ``Host`` header that is not a host (never copied into
``config.json`` or the Content-Security-Policy: the stack's own address is).
"""

from __future__ import annotations

import asyncio
import http.client
import json
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from infra.local.runtime import LocalRuntime
from tests.e2e.seeding import REPO_ROOT, call

PATIENCE = 60.0

pytestmark = pytest.mark.skipif(not (REPO_ROOT / "app.py").exists(), reason="no CDK app to synthesize")


def raw(
    stack: LocalRuntime, method: str, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One request sent as written (the path and the headers as given, ``Host`` too)."""
    address = urlsplit(stack.urls["http"])
    connection = http.client.HTTPConnection(address.hostname or "127.0.0.1", address.port, timeout=PATIENCE)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


# ---------------------------------------------------------------------- a path too long for any file


@pytest.mark.parametrize(
    "path",
    ["/app/" + "a" * 5_000, "/app/" + "a/" * 2_500, "/app/views/" + "%41" * 1_700],
    ids=["one long name", "many folders", "percent-encoded"],
)
def test_a_path_under_app_too_long_for_a_file_is_a_client_error(stack: LocalRuntime, path: str) -> None:
    # When a client asks for a 5,000-character path under /app/
    status, headers, body = raw(stack, "GET", path)
    # Then it is answered as a file that is not there (or a URI too long), with the contract's error body
    assert status in (404, 414), body[:200]
    assert headers["content-type"].startswith("application/json")
    answer = json.loads(body)
    assert set(answer) == {"error", "message"} and answer["error"] in ("not_found", "uri_too_long")
    # And the stack still serves the client
    assert raw(stack, "GET", "/app/")[0] == 200


@pytest.mark.parametrize("path", ["/app/" + "a" * 20_000, "/tournaments/" + "a" * 9_000, "/" + "%41" * 4_000])
def test_a_url_longer_than_the_gateway_takes_is_414_with_the_error_body(stack: LocalRuntime, path: str) -> None:
    # When a client sends a URL longer than 8 KiB
    status, headers, body = raw(stack, "GET", path)
    # Then it is refused as too long, with the contract's error body, before any route or file is looked up
    assert status == 414, body[:200]
    assert headers["content-type"].startswith("application/json")
    assert json.loads(body)["error"] == "uri_too_long"
    assert set(json.loads(body)) == {"error", "message"}


# ---------------------------------------------------------------------- a WebSocket message nested deep


@pytest.mark.parametrize(("depth", "code"), [(3_000, "invalid_request"), (100_000, "payload_too_large")])
def test_a_websocket_message_nested_deep_is_refused_clearly_and_the_connection_stays(
    stack: LocalRuntime, depth: int, code: str
) -> None:
    nested = "[" * depth + "]" * depth
    messages = [
        '{"action": "subscribe", "tournament_id": ' + nested + "}",
        nested,
        '{"action": "act", "hand": 1, "seq": ' + nested + ', "kind": "fold"}',
    ]

    async def scenario() -> list[dict[str, Any]]:
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(f"{stack.urls['ws']}?token={stack.token('ann')}") as ws,
        ):
            answers = []
            for message in messages:
                # When a player sends a message nested thousands deep
                await ws.send_str(message)
                answers.append(await ws.receive_json(timeout=PATIENCE))
            # Then the connection is still usable: a well-formed message is answered by the product
            await ws.send_str(json.dumps({"action": "subscribe", "tournament_id": "nowhere", "table_id": "1"}))
            answers.append(await ws.receive_json(timeout=PATIENCE))
            assert not ws.closed
            return answers

    *refused, after = asyncio.run(scenario())
    # And each deep message got a client error that says what is wrong, not an internal error
    for answer in refused:
        assert answer.get("type") == "error" and answer.get("error") == code, answer
        assert "internal" not in json.dumps(answer).lower(), answer
    assert after.get("type") == "error" and after.get("error") not in ("invalid_request", code), after


# ---------------------------------------------------------------------- percent-encoded path parameters


def test_percent_encoded_path_parameters_are_decoded_as_api_gateway_does(stack: LocalRuntime) -> None:
    olga = stack.token("olga", operator=True)
    # When an operator credits "ann.marie" (signed in once) with her name percent-encoded in the path
    assert call(stack, "GET", "/me/account", stack.token("ann.marie"))[0] == 200
    status, answer = call(stack, "POST", "/admin/accounts/ann%2Emarie/deposits", olga, {"amount": 2_500})
    assert status == 201, answer
    # Then the credit reached ann.marie (the function got the decoded name, as on AWS)
    account = call(stack, "GET", "/me/account", stack.token("ann.marie"))
    assert account == (200, {"player": "ann.marie", "balance": 2_500})
    # And a tournament's page answers the same for its id written either way
    assert call(stack, "GET", "/tournaments/%6Eo-such-id")[0] == call(stack, "GET", "/tournaments/no-such-id")[0]


# ---------------------------------------------------------------------- the Host header


HOSTILE_HOSTS = [
    'evil.example"; script-src *; x="',
    "127.0.0.1:1/ ws://evil.example",
    'a", "auth": {"mode": "none"}, "x": "',
    "evil.example:99999",
    "evil..example",
    "",
]


@pytest.mark.parametrize("host", HOSTILE_HOSTS)
def test_a_host_header_that_is_not_a_host_is_never_copied_into_the_page(stack: LocalRuntime, host: str) -> None:
    own = urlsplit(stack.urls["http"]).netloc
    # When a request for the page and its config.json names a host that is not a well-formed host[:port]
    _, headers, _ = raw(stack, "GET", "/app/", {"Host": host})
    status, _, body = raw(stack, "GET", "/app/config.json", {"Host": host})
    # Then config.json and the Content-Security-Policy name the stack's own address
    assert status == 200
    config = json.loads(body)
    assert config["api"] == f"http://{own}" and config["ws"].startswith(f"ws://{own}")
    assert config["auth"] == {"mode": "local"}
    policy = headers["content-security-policy"]
    assert f"connect-src 'self' ws://{own};" in policy
    assert "evil" not in policy and "script-src *" not in policy


def test_a_well_formed_host_is_the_address_the_browser_reached(stack: LocalRuntime) -> None:
    port = urlsplit(stack.urls["http"]).port
    # When the browser reached the stack as localhost
    _, headers, _ = raw(stack, "GET", "/app/", {"Host": f"localhost:{port}"})
    _, _, body = raw(stack, "GET", "/app/config.json", {"Host": f"localhost:{port}"})
    # Then the page talks to localhost, as the browser named it
    assert json.loads(body)["api"] == f"http://localhost:{port}"
    assert f"connect-src 'self' ws://localhost:{port};" in headers["content-security-policy"]
