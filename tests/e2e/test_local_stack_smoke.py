"""The local runtime on the real template (synthesized once per test run) and the real handlers.

A smoke test: the stack comes up from the CDK app's template, the HTTP API's
JWT authorizer accepts the runtime's tokens and reaches the ``api`` function,
and the WebSocket ``$connect`` accepts a token (checked by the ``ws`` function
against the runtime's keys) and refuses a connection without one.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import pytest

from infra.local.runtime import LocalRuntime
from tests.e2e.seeding import REPO_ROOT

PATIENCE = 60.0
"""Seconds a step may take on a busy machine (the tests check order and outcome, not speed)."""

pytestmark = pytest.mark.skipif(not (REPO_ROOT / "app.py").exists(), reason="no CDK app to synthesize")


def call(stack: LocalRuntime, method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(stack.urls["http"] + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw.startswith((b"{", b"[")) else raw
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, json.loads(raw) if raw.startswith((b"{", b"[")) else raw


def test_every_function_of_the_template_runs_from_the_repository(stack: LocalRuntime) -> None:
    functions = {f.code_dir.name for f in stack.functions if f.code_dir is not None}
    assert functions == {p.name for p in (REPO_ROOT / "functions").iterdir() if (p / "app.py").exists()}
    assert all(f.unavailable is None for f in stack.functions)


def test_lobby_needs_a_token_and_answers_with_one(stack: LocalRuntime) -> None:
    assert call(stack, "GET", "/tournaments") == (401, {"message": "Unauthorized"})
    status, body = call(stack, "GET", "/tournaments", token=stack.token("ann"))
    assert status == 200, body


def test_openapi_spec_and_swagger_ui_are_served(stack: LocalRuntime) -> None:
    status, spec = call(stack, "GET", "/openapi.json")
    assert status == 200
    assert "/tournaments" in spec["paths"]
    assert call(stack, "GET", "/swagger")[0] == 200


def test_the_asyncapi_document_is_served_beside_the_openapi_document(stack: LocalRuntime) -> None:
    # Given the local stack, When its AsyncAPI document is read without a token
    status, document = call(stack, "GET", "/asyncapi.json")
    # Then it is the WebSocket API's, as docs/asyncapi.json has it
    assert status == 200
    committed = json.loads((REPO_ROOT / "docs" / "asyncapi.json").read_text())
    assert document == committed


def test_websocket_connect_checks_the_token(stack: LocalRuntime) -> None:
    async def scenario() -> None:
        async with aiohttp.ClientSession() as session:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(stack.urls["ws"])
            assert refused.value.status in (401, 403)
            async with session.ws_connect(f"{stack.urls['ws']}?token={stack.token('ann')}") as ws:
                assert not ws.closed

    asyncio.run(scenario())


def announce_and_register(stack: LocalRuntime, players: tuple[str, ...]) -> tuple[str, datetime]:
    """A freezeout starting soon, with ``players`` registered before its start.

    The registration window is a few seconds; when the machine is too busy to register everyone in it (a
    registration is refused, the start came first), the next attempt gives twice the time: the test checks
    what happens, not how fast.
    """
    operator = stack.token("olga", operator=True)
    for player in players:
        assert call(stack, "GET", "/me/account", stack.token(player))[0] == 200  # signing in opens the account
        assert call(stack, "POST", f"/admin/accounts/{player}/deposits", operator, {"amount": 50_000})[0] == 201
    window = 6
    for attempt in range(4):
        start_at = (datetime.now(UTC) + timedelta(seconds=window)).replace(microsecond=0)
        body = {
            "name": f"smoke-{attempt}", "format": "freezeout", "buy_in": 1000, "entry_fee": 100, "min_players": 2,
            "start_at": start_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }  # fmt: skip
        status, created = call(stack, "POST", "/admin/tournaments", operator, body)
        assert status == 201, created
        answers = [
            call(stack, "POST", f"/tournaments/{created['id']}/registrations", stack.token(p), {}) for p in players
        ]
        if all(code == 201 for code, _ in answers):
            return created["id"], start_at
        assert all(code == 201 or answer["error"] == "registration_closed" for code, answer in answers), answers
        window *= 2
    raise AssertionError("registration closed before two players could register, four times")


def test_a_tournament_starts_by_its_schedule_and_workflow_and_deals(stack: LocalRuntime) -> None:
    # Given an operator's tournament starting in a few seconds, and two players registered in time
    tid, start_at = announce_and_register(stack, ("ann", "bob"))

    # When its start time comes: the Scheduler schedule fires `start`, which runs the start workflow
    # (close registration, seat, deal); then table 1 shows its first hand
    def first_hand_dealt() -> bool:
        status, view = call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token("ann"))
        return status == 200 and isinstance(view, dict) and int(view.get("hand") or 0) >= 1

    deadline = start_at.timestamp() + PATIENCE  # generous: a busy machine may take its time
    while not first_hand_dealt():
        assert time.time() < deadline, "the first hand was not dealt"
        time.sleep(0.3)
    assert call(stack, "GET", f"/tournaments/{tid}", stack.token("ann"))[1]["status"] == "running"

    # Then a subscriber of the table gets it over the WebSocket API
    async def subscribe() -> dict[str, Any]:
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(f"{stack.urls['ws']}?token={stack.token('ann')}") as ws,
        ):
            await ws.send_str(json.dumps({"action": "subscribe", "tournament_id": tid, "table_id": "1"}))
            message: dict[str, Any] = await ws.receive_json(timeout=PATIENCE)
            return message

    pushed = asyncio.run(subscribe())
    assert pushed["table"]["tournament_id"] == tid
    assert pushed["table"]["hand"] >= 1
