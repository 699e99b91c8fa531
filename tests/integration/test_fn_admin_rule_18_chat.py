"""Rule 18 through the operators' HTTP function: every chat line of a table, refused ones with their reason."""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain import chat as rules

from functions.admin.app import handler as admin
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import clock, context, memory, running  # noqa: F401


def call(context: FakeContext, path: str, **kw: Any) -> tuple[int, Any]:
    kw.setdefault("player", "olga")
    kw.setdefault("operator", True)
    response = admin(http_event("GET", path, **kw), context)
    return response["statusCode"], answer_json(response)


def test_rule_18_operators_read_every_line_of_a_table_with_its_hand_and_reason(
    memory: Services, clock: FrozenClock, context
) -> None:
    # Given a running table where p0 (in the hand) and an observer were refused, and an operator wrote
    tid, table = running(memory, clock)
    for player in ("p0", "watcher"):
        with pytest.raises(rules.ChatRefused):
            memory.chat.say(tid, table, player, "hello there")
    memory.chat.say(tid, table, "olga", "keep it friendly please", operator=True)
    # When an operator reads the table's chat
    status, body = call(context, f"/admin/tournaments/{tid}/tables/{table}/chat")
    # Then every line is there, oldest first, with the hand it was said in and the refusals' reasons
    assert status == 200, body
    hand = memory.adapters.store.tables.get(tid, table).table.hand_number
    assert (body["tournament_id"], body["table"]) == (tid, table)
    assert [(x["player"], x["hand"], x["accepted"], x["reason"]) for x in body["lines"]] == [
        ("p0", hand, False, "in_hand"),
        ("watcher", hand, False, "observer"),
        ("olga", hand, True, None),
    ]


def test_rule_18_only_operators_read_the_chat_and_an_unknown_table_is_404(
    memory: Services, clock: FrozenClock, context
) -> None:
    tid, table = running(memory, clock)
    assert call(context, f"/admin/tournaments/{tid}/tables/{table}/chat", player="p1", operator=False)[0] == 403
    assert call(context, f"/admin/tournaments/{tid}/tables/nope/chat")[0] == 404
