"""Rule 18 on the local stack: table chat over the WebSocket API (the real template, handlers and moto tables).

docs/rules.md's conduct section, one test each, as clients see it: players in the
hand in progress cannot chat, observers read only, operators may always write,
200 characters a line, 5 lines in any 10 seconds, muted players are silenced,
English only (short chat accepted), seated players not in the hand may chat,
and every line, refused ones too, is kept with its table and hand for the
operators (``GET /admin/tournaments/{id}/tables/{table}/chat``). A refusal is
an error frame to its sender; the connection stays open.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest

from infra.local.runtime import LocalRuntime
from tests.e2e.seeding import PATIENCE, call, fund, seed_running
from tests.e2e.test_local_stack_smoke import REPO_ROOT

pytestmark = pytest.mark.skipif(not (REPO_ROOT / "app.py").exists(), reason="no CDK app to synthesize")


OPERATOR, ANN, BOB, WATCHER = "olga", "ann", "bob", "watcher"
Frame = dict[str, Any]


@pytest.fixture(scope="module")
def table(stack: LocalRuntime) -> tuple[str, int]:
    """A running tournament whose ann and bob are dealt in hand 2 at table 1 (a decision of 300 s): id, hand."""
    fund(stack, OPERATOR, ANN, BOB)
    tid, view = seed_running(stack, OPERATOR, "chat", (ANN, BOB))
    return tid, int(view["hand"])


class Client:
    """One WebSocket connection: send a message, read frames until one matches."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.frames: list[Frame] = []

    async def until(self, wanted: Callable[[Frame], bool]) -> Frame:
        for frame in self.frames:
            if wanted(frame):
                self.frames.remove(frame)
                return frame
        deadline = time.monotonic() + PATIENCE
        while True:
            frame = await self.ws.receive_json(timeout=max(0.1, deadline - time.monotonic()))
            if wanted(frame):
                return frame
            self.frames.append(frame)

    async def say(self, tid: str, text: str) -> Frame:
        """Chat at table 1: the answer to the sender (``chat_accepted`` or an ``error`` frame)."""
        await self.ws.send_str(json.dumps({"action": "chat", "tournament_id": tid, "table_id": "1", "text": text}))
        return await self.until(lambda f: f.get("type") in ("chat_accepted", "error"))

    async def subscribe(self, tid: str) -> Frame:
        await self.ws.send_str(json.dumps({"action": "subscribe", "tournament_id": tid, "table_id": "1"}))
        return await self.until(lambda f: f.get("type") == "table")


def chatting(stack: LocalRuntime, tid: str, *players: tuple[str, bool], scene: Any) -> Any:
    """Connect ``players`` (name, operator?), subscribe each to table 1, and run ``scene(clients)``."""

    async def run() -> Any:
        async with aiohttp.ClientSession() as session:
            sockets = [await session.ws_connect(f"{stack.urls['ws']}?token={stack.token(p, op)}") for p, op in players]
            try:
                clients = [Client(ws) for ws in sockets]
                for client in clients:
                    await client.subscribe(tid)
                return await scene(*clients)
            finally:
                for ws in sockets:
                    await ws.close()

    return asyncio.run(run())


def heard(text: str) -> Callable[[Frame], bool]:
    return lambda f: f.get("type") == "chat" and f.get("text") == text


def log_of(stack: LocalRuntime, tid: str) -> list[Frame]:
    status, body = call(stack, "GET", f"/admin/tournaments/{tid}/tables/1/chat", stack.token(OPERATOR, True))
    assert status == 200, body
    lines: list[Frame] = body["lines"]
    return lines


def kept(stack: LocalRuntime, tid: str) -> list[tuple[str, str | None]]:
    """(player, refusal reason) of every line the operators' listing has for table 1."""
    return [(line["player"], line["reason"]) for line in log_of(stack, tid)]


def test_rule_18_a_player_in_the_hand_in_progress_cannot_chat(stack: LocalRuntime, table: tuple[str, int]) -> None:
    tid, _ = table

    async def scene(ann: Client) -> tuple[Frame, Frame]:
        refused = await ann.say(tid, "I have a big hand here")
        return refused, await ann.subscribe(tid)  # the connection is still open

    refused, still_open = chatting(stack, tid, (ANN, False), scene=scene)
    assert (refused["type"], refused["error"]) == ("error", "in_hand")
    assert still_open["type"] == "table"
    assert (ANN, "in_hand") in kept(stack, tid)


def test_rule_18_observers_read_only_and_operators_may_always_write(
    stack: LocalRuntime, table: tuple[str, int]
) -> None:
    tid, hand = table

    async def scene(watcher: Client, olga: Client, ann: Client) -> tuple[Frame, Frame, Frame, Frame]:
        refused = await watcher.say(tid, "hello everyone at this table")
        accepted = await olga.say(tid, "welcome to the table, good luck")
        line = "welcome to the table, good luck"
        return refused, accepted, await watcher.until(heard(line)), await ann.until(heard(line))

    refused, accepted, by_watcher, by_ann = chatting(
        stack, tid, (WATCHER, False), (OPERATOR, True), (ANN, False), scene=scene
    )
    # Then the observer's line is refused; the operator's, during the hand, reaches observers and players
    assert refused["error"] == "observer"
    assert accepted == {"type": "chat_accepted", "hand": hand}
    expected = {"type": "chat", "tournament_id": tid, "table": "1", "hand": hand, "player": OPERATOR,
                "name": OPERATOR, "text": "welcome to the table, good luck"}  # fmt: skip
    assert by_watcher == expected and by_ann == expected
    assert {(WATCHER, "observer"), (OPERATOR, None)} <= set(kept(stack, tid))


def test_rule_18_a_line_is_at_most_200_characters(stack: LocalRuntime, table: tuple[str, int]) -> None:
    tid, _ = table

    async def scene(olga: Client) -> tuple[Frame, Frame]:
        return await olga.say(tid, "x" * 201), await olga.say(tid, "y" * 200)

    too_long, fits = chatting(stack, tid, ("otto", True), scene=scene)
    assert (too_long["error"], fits["type"]) == ("too_long", "chat_accepted")
    assert ("otto", "too_long") in kept(stack, tid)


def test_rule_18_at_most_5_lines_in_any_10_seconds_per_player(stack: LocalRuntime, table: tuple[str, int]) -> None:
    tid, _ = table

    async def scene(oscar: Client) -> list[Frame]:
        return [await oscar.say(tid, f"gg {i}") for i in range(6)]

    answers = chatting(stack, tid, ("oscar", True), scene=scene)
    assert [a["type"] for a in answers[:5]] == ["chat_accepted"] * 5
    assert answers[5]["error"] == "rate_limited"
    assert ("oscar", "rate_limited") in kept(stack, tid)


def test_rule_18_a_line_in_another_language_is_refused_short_chat_accepted(
    stack: LocalRuntime, table: tuple[str, int]
) -> None:
    tid, _ = table

    async def scene(olivia: Client) -> list[Frame]:
        return [await olivia.say(tid, text) for text in ("gg", "nh", "buena suerte a todos", "bonne chance à tous")]

    answers = chatting(stack, tid, ("olivia", True), scene=scene)
    accepted, refused = "chat_accepted", "not_english"
    assert [a.get("error", a["type"]) for a in answers] == [accepted, accepted, refused, refused]
    assert kept(stack, tid).count(("olivia", "not_english")) == 2


def test_rule_18_a_muted_player_is_silenced(stack: LocalRuntime, table: tuple[str, int]) -> None:
    tid, _ = table
    olga = stack.token(OPERATOR, operator=True)
    # Given an operator who muted bob
    assert call(stack, "POST", f"/admin/players/{BOB}/mute", olga, {"reason": "abuse", "minutes": 10})[0] == 200

    async def scene(bob: Client) -> Frame:
        return await bob.say(tid, "this is not fair at all")

    # When bob chats, then he is refused as muted; unmuted, he is refused only as a player in the hand
    assert chatting(stack, tid, (BOB, False), scene=scene)["error"] == "muted"
    assert call(stack, "DELETE", f"/admin/players/{BOB}/mute", olga, {"reason": "apologised"})[0] == 200
    assert chatting(stack, tid, (BOB, False), scene=scene)["error"] == "in_hand"
    assert {(BOB, "muted"), (BOB, "in_hand")} <= set(kept(stack, tid))


def test_rule_18_seated_players_not_in_the_hand_may_chat_and_every_line_is_kept(
    stack: LocalRuntime, table: tuple[str, int]
) -> None:
    tid, hand = table

    async def during(ann: Client, watcher: Client) -> tuple[Frame, Frame]:
        return await ann.say(tid, "nice hand so far"), await watcher.say(tid, "what a table")

    # Given ann refused during the hand, and an observer refused
    assert [f["error"] for f in chatting(stack, tid, (ANN, False), (WATCHER, False), scene=during)] == [
        "in_hand",
        "observer",
    ]
    # And the tournament terminated by an operator: its hand cancelled, ann and bob still seated, no hand dealt
    olga = stack.token(OPERATOR, operator=True)
    assert call(stack, "POST", f"/admin/tournaments/{tid}/terminate", olga, {"reason": "chat test"})[0] == 200
    deadline = time.time() + PATIENCE
    while call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token(ANN))[1].get("hand_in_progress"):
        assert time.time() < deadline, "the hand was not cancelled"
        time.sleep(0.3)

    async def scene(ann: Client, bob: Client) -> tuple[Frame, Frame]:
        return await ann.say(tid, "see you at the next one"), await bob.until(heard("see you at the next one"))

    # When ann chats, then bob hears it
    accepted, by_bob = chatting(stack, tid, (ANN, False), (BOB, False), scene=scene)
    assert accepted["type"] == "chat_accepted" and by_bob["player"] == ANN
    # And the operators' listing has every line said at the table, refused ones with their reason, with the hand
    lines = log_of(stack, tid)
    said = [(line["player"], line["text"], line["hand"], line["accepted"], line["reason"]) for line in lines]
    assert said[-3:] == [
        (ANN, "nice hand so far", hand, False, "in_hand"),
        (WATCHER, "what a table", hand, False, "observer"),
        (ANN, "see you at the next one", hand, True, None),
    ]
    assert [line["at"] for line in lines] == sorted(line["at"] for line in lines)
    # And a player may not read it
    assert call(stack, "GET", f"/admin/tournaments/{tid}/tables/1/chat", stack.token(ANN))[0] == 403
