"""The local WebSocket gateway survives any message, and its ``@connections`` API answers only this run's
signers (docs/architecture.md, 'Hardening'), on the small fixture template of ``test_local_runtime.py``.

A message without ``action`` used to drop the connection (the route selection
raised ``KeyError``); now every malformed message is answered (by the
``$default`` route, or an error frame) and the connection stays open. The
``@connections`` API on 127.0.0.1 is reachable by any process of the machine:
over HTTP it now needs a request signed with the run's own secret key
(``LocalRuntime.aws_secret``), which only the runtime's handlers have. And the
gateway throttles as the template's stages say (``DefaultRouteSettings``).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from infra.local.runtime import LocalRuntime
from infra.local.template import load_stack

FIXTURE = Path(__file__).parent / "fixtures" / "local_stack"
REPO_ROOT = Path(__file__).resolve().parents[2]
PATIENCE = 45.0

MALFORMED: dict[str, str | bytes] = {
    "no action": '{"tournament_id": "t1"}',
    "an empty message": "",
    "JSON null": "null",
    "a JSON list": "[]",
    "action null": '{"action": null}',
    "action a number": '{"action": 5}',
    "action a system route": '{"action": "$connect"}',
    "not JSON": "{not json",
    "a 5,000-digit number": '{"action": 1' + "0" * 5_000 + "}",
    "deeply nested": '{"action": ' + "[" * 5_000 + "]" * 5_000 + "}",
    "binary, not UTF-8": b"\xff\xfe\x00",
}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalRuntime]:
    runtime = LocalRuntime(load_stack(FIXTURE), REPO_ROOT, port=0, keys_dir=tmp_path_factory.mktemp("keys"))
    with runtime:
        yield runtime


async def echo(ws: aiohttp.ClientWebSocketResponse, text: str) -> str:
    """Send to the echo route; the connection id from its two-way answer (after the pushed copy)."""
    await ws.send_str(json.dumps({"action": "echo", "text": text}))
    pushed = await ws.receive_json(timeout=PATIENCE)
    assert pushed["pushed"] == text
    reply: dict[str, Any] = await ws.receive_json(timeout=PATIENCE)
    return str(reply["connectionId"])


@pytest.mark.parametrize("message", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_message_is_answered_and_the_connection_stays_open(stack: LocalRuntime, message: str | bytes):
    async def scenario() -> Any:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{stack.urls['ws']}?token=t") as ws:
            # When a client sends a malformed message
            if isinstance(message, bytes):
                await ws.send_bytes(message)
            else:
                await ws.send_str(message)
            answer = await ws.receive(timeout=PATIENCE)
            # Then it is answered (the $default route, or an error frame), and the connection still works
            assert answer.type == aiohttp.WSMsgType.TEXT, answer
            await echo(ws, "still here")
            assert not ws.closed
            return json.loads(answer.data)

    answer = asyncio.run(scenario())
    assert answer.get("routeKey") == "$default" or "message" in answer, answer


MANAGE = textwrap.dedent(
    """
    import sys, boto3
    from botocore.config import Config
    url, connection, secret, method = sys.argv[1:5]
    client = boto3.client("apigatewaymanagementapi", endpoint_url=url, region_name="us-east-1",
                          aws_access_key_id="testing", aws_secret_access_key=secret,
                          config=Config(retries={"max_attempts": 1}))
    try:
        if method == "post":
            client.post_to_connection(ConnectionId=connection, Data=b'{"from": "elsewhere"}')
        else:
            client.delete_connection(ConnectionId=connection)
        print("accepted")
    except client.exceptions.ClientError as error:
        print(error.response["Error"]["Code"], error.response["ResponseMetadata"]["HTTPStatusCode"])
    """
)


def from_another_process(stack: LocalRuntime, connection: str, secret: str, method: str) -> str:
    """What a process of its own (not the runtime's) gets from ``@connections`` with ``secret``."""
    done = subprocess.run(
        [sys.executable, "-c", MANAGE, f"{stack.urls['http']}/live", connection, secret, method],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_another_process_cannot_push_to_or_close_a_connection(stack: LocalRuntime) -> None:
    async def scenario() -> list[str]:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{stack.urls['ws']}?token=t") as ws:
            connection = await echo(ws, "hello")
            # When another process of the machine posts to the connection and deletes it, signing with the
            # well-known local credentials, or sends an unsigned request
            outcomes = [
                await asyncio.to_thread(from_another_process, stack, connection, "testing", "post"),
                await asyncio.to_thread(from_another_process, stack, connection, "testing", "delete"),
                await asyncio.to_thread(unsigned_post, stack, connection),
            ]
            # Then each is refused, nothing reached the client, and the connection is open
            await echo(ws, "nothing came between")
            assert not ws.closed
            # while a request signed with the run's own key is served (the check is the signature)
            outcomes.append(await asyncio.to_thread(from_another_process, stack, connection, stack.aws_secret, "post"))
            assert (await ws.receive_json(timeout=PATIENCE)) == {"from": "elsewhere"}
            return outcomes

    assert asyncio.run(scenario()) == ["ForbiddenException 403", "ForbiddenException 403", "403", "accepted"]


def unsigned_post(stack: LocalRuntime, connection: str) -> str:
    url = f"{stack.urls['http']}/live/@connections/{connection}"
    request = urllib.request.Request(url, data=b'{"from": "elsewhere"}', method="POST")
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as response:
            return str(response.status)
    except urllib.error.HTTPError as error:
        return str(error.code)


# -- the stages' throttling (infra/throttling.py on AWS; infra/local/throttle.py here) ---------------------------------


@pytest.fixture(scope="module")
def throttled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalRuntime]:
    """The fixture stack with both stages throttled to 2 requests a second, bursts of 5."""
    folder = tmp_path_factory.mktemp("throttled") / "local_stack"
    shutil.copytree(FIXTURE, folder)
    template_file = folder / "Fixture.template.json"
    template = json.loads(template_file.read_text())
    for name in ("HttpStage", "WsStage"):
        template["Resources"][name]["Properties"]["DefaultRouteSettings"] = {
            "ThrottlingRateLimit": 2, "ThrottlingBurstLimit": 5,
        }  # fmt: skip
    template_file.write_text(json.dumps(template))
    runtime = LocalRuntime(load_stack(folder), REPO_ROOT, port=0, keys_dir=tmp_path_factory.mktemp("keys"))
    with runtime:
        yield runtime


def test_a_flood_of_http_requests_is_answered_429_by_the_stage(throttled: LocalRuntime) -> None:
    def get() -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(throttled.urls["http"] + "/public", timeout=PATIENCE) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    # When 20 requests arrive at once at a stage allowing bursts of 5 and 2 a second
    began = time.monotonic()
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda _: get(), range(20)))
    served = allowed(time.monotonic() - began)
    # Then the burst (and what refilled meanwhile) is served, the rest get API Gateway's own 429
    statuses = sorted(status for status, _ in answers)
    assert statuses.count(200) <= served and statuses.count(429) >= 20 - served, statuses
    assert {"message": "Too Many Requests"} in [body for status, body in answers if status == 429]
    # and once the bucket refills, requests are served again
    time.sleep(1.5)
    assert get()[0] == 200


def test_a_flood_of_websocket_messages_is_refused_and_the_connection_stays(throttled: LocalRuntime) -> None:
    async def scenario() -> tuple[list[dict[str, Any]], float]:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{throttled.urls['ws']}?token=t") as ws:
            began = time.monotonic()
            for _ in range(20):
                await ws.send_str(json.dumps({"action": "no-such-route"}))
            frames = [await ws.receive_json(timeout=PATIENCE) for _ in range(20)]
            elapsed = time.monotonic() - began
            await asyncio.sleep(1.5)
            await echo(ws, "after the flood")
            return frames, elapsed

    frames, elapsed = asyncio.run(scenario())
    refused = [f for f in frames if f.get("message") == "Too Many Requests"]
    assert len(frames) - len(refused) <= allowed(elapsed) and len(refused) >= 20 - allowed(elapsed), frames


def allowed(seconds: float) -> int:
    """Requests a bucket of 5 refilled at 2 a second may let through in ``seconds`` (one more for rounding)."""
    return 5 + int(2 * seconds) + 1
