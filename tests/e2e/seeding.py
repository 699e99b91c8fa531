"""Seed data for the tests that drive the local stack as clients do (Schemathesis, the authorization matrix).

Everything goes through the public HTTP API with the stack's own tokens: an
operator funds the players and creates the tournaments, the players register,
and a tournament started by its schedule deals at table 1.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from infra.local.runtime import LocalRuntime
from infra.local.template import load_stack

REPO_ROOT = Path(__file__).resolve().parents[2]

PATIENCE = 60.0
"""Seconds a step may take on a busy machine (the tests check order and outcome, not speed)."""


def local_stack(synth: Any, tmp_path_factory: pytest.TempPathFactory) -> LocalRuntime:
    """A local stack of the infra tests' synthesized template on a free port; use it in ``with``."""
    return LocalRuntime(load_stack(synth.outdir), REPO_ROOT, port=0, keys_dir=tmp_path_factory.mktemp("keys"))


def call(
    stack: LocalRuntime,
    method: str,
    path: str,
    token: str | None = None,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """One HTTP request to the stack: its status and JSON body (text when it is not JSON)."""
    sent = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        stack.urls["http"] + path, data=data, method=method, headers={**sent, **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        raw, status = error.read(), error.code
    try:
        return status, json.loads(raw or b"null")
    except ValueError:
        return status, raw.decode("utf-8", "replace")


def fund(stack: LocalRuntime, operator: str, *players: str, amount: int = 10**8) -> None:
    for player in players:
        assert call(stack, "GET", "/me/account", stack.token(player))[0] == 200  # signs in: the account opens
        body = {"amount": amount}
        status, answer = call(stack, "POST", f"/admin/accounts/{player}/deposits", stack.token(operator, True), body)
        assert status == 201, answer


def create(stack: LocalRuntime, operator: str, tid: str, start_at: datetime, **options: Any) -> None:
    """A freezeout ``tid`` (buy-in 10.00, fee 1.00, two players at least) starting at ``start_at``."""
    body = {"name": tid, "format": "freezeout", "buy_in": 1_000, "entry_fee": 100, "min_players": 2,
            "tournament_id": tid, "start_at": start_at.strftime("%Y-%m-%dT%H:%M:%SZ"), **options}  # fmt: skip
    status, answer = call(stack, "POST", "/admin/tournaments", stack.token(operator, operator=True), body)
    assert status == 201, answer


def register(stack: LocalRuntime, tid: str, *players: str) -> bool:
    return all(call(stack, "POST", f"/tournaments/{tid}/registrations", stack.token(p), {})[0] == 201 for p in players)


def later() -> datetime:
    """A start time no test waits for."""
    return datetime.now(UTC) + timedelta(days=1)


def seed_running(
    stack: LocalRuntime, operator: str, prefix: str, players: tuple[str, str], **options: Any
) -> tuple[str, dict[str, Any]]:
    """A freezeout started by its schedule with ``players`` at table 1, its first hand folded (so that its
    history exists) and the second waiting for a decision of 300 seconds; its id and the first player's view.

    The registration window is a few seconds; when the machine is too busy to register both in it, the next
    attempt gives twice the time. ``options``: more of the creation's fields (a rebuy format, its levels).
    """
    window = 6
    for attempt in range(4):
        tid = f"{prefix}-{attempt}"
        start_at = (datetime.now(UTC) + timedelta(seconds=window)).replace(microsecond=0)
        create(stack, operator, tid, start_at, **{"decision_seconds": 300, "starting_stack": 100_000, **options})
        if register(stack, tid, *players):
            break
        window *= 2
    else:
        raise AssertionError("two players could not register before the start, four times")
    view = wait_for_hand(stack, tid, players[0], 1, time.time() + window + PATIENCE)
    status, answer = act(stack, tid, view, "fold")
    assert status == 200, answer
    return tid, wait_for_hand(stack, tid, players[0], 2, time.time() + PATIENCE)


def act(stack: LocalRuntime, tid: str, view: dict[str, Any], action: str, amount: int | None = None) -> tuple[int, Any]:
    """``action`` (``amount``: a bet's or raise's) by the player table 1's ``view`` waits for: status and answer."""
    to_act = view["to_act"]
    body = {"hand": view["hand"], "seq": to_act["seq"], "action": action}
    if amount is not None:
        body["amount"] = amount
    return call(stack, "POST", f"/tournaments/{tid}/tables/1/actions", stack.token(to_act["player"]), body)


def check_or_call(view: dict[str, Any]) -> str:
    """What a passive player does at the decision table 1's ``view`` waits for."""
    return "check" if view["to_act"]["can_check"] else "call"


def wait_for_hand(stack: LocalRuntime, tid: str, viewer: str, hand: int, deadline: float) -> dict[str, Any]:
    """Table 1 of ``tid`` as ``viewer`` sees it once hand ``hand`` (or a later one) waits for a decision."""
    while True:
        status, view = call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token(viewer))
        if status == 200 and view.get("hand_in_progress") and view["hand"] >= hand and view.get("to_act"):
            return dict(view)
        assert time.time() < deadline, f"hand {hand} was not dealt at {tid} table 1: {status} {view}"
        time.sleep(0.3)


def terminate_voiding_the_hand(stack: LocalRuntime, operator: str, tid: str, reason: str, viewer: str) -> None:
    """The operator terminates ``tid``; back once table 1, as ``viewer`` sees it, has no hand in progress."""
    status, answer = call(
        stack, "POST", f"/admin/tournaments/{tid}/terminate", stack.token(operator, True), {"reason": reason}
    )
    assert status == 200, answer
    deadline = time.monotonic() + PATIENCE
    while call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token(viewer))[1]["hand_in_progress"]:
        assert time.monotonic() < deadline, "the termination did not void the hand in progress"
        time.sleep(0.3)
