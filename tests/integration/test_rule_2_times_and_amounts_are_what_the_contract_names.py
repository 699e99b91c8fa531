"""Rules 2 and 9 at the edge: a time is ISO-8601 text with its offset; only a bet or a raise carries an amount.

A bare number for ``start_at`` was read as seconds since 1970 and a ``call``
with an ``amount`` was played with the amount echoed back: neither is what the
contract names, and each is now a 422 ``invalid_request`` that changes nothing.
"""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

import json
from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services

from functions.admin.app import handler as admin
from functions.api.app import handler as api
from functions.ws.app import handler as ws
from tests.integration.test_fn_ws import connect, signing_key, ws_settings  # noqa: F401
from tests.integration.test_fn_ws import services as ws_services  # noqa: F401
from tests.support.aws import aws  # noqa: F401
from tests.support.events import FakeContext, answer_json, http_event, ws_event
from tests.support.functions import clock, context, memory, running  # noqa: F401

TOURNAMENT = {"name": "Sunday", "format": "freezeout", "buy_in": 1_000, "entry_fee": 100}


def call(function: Any, context: FakeContext, method: str, path: str, **kw: Any) -> tuple[int, Any]:
    response = function(http_event(method, path, **kw), context)
    return response["statusCode"], answer_json(response)


@pytest.mark.parametrize(
    "moment",
    [1893456000, 1893456000.5, "1893456000", "1893456000.5", "2030-01-05", True],
    ids=["integer", "float", "digits as text", "decimal as text", "a date alone", "a boolean"],
)
@pytest.mark.parametrize("field", ["start_at", "announce_at"])
def test_rule_2_a_time_that_is_not_iso_8601_with_its_offset_is_422(
    memory: Services, context: FakeContext, field: str, moment: object
) -> None:
    # When an operator names a start (or announcement) time as anything but ISO-8601 text with an offset
    body = {**TOURNAMENT, "start_at": "2030-01-05T18:00:00Z", field: moment}
    status, answer = call(admin, context, "POST", "/admin/tournaments", body=body, player="olga", operator=True)
    # Then it is refused, naming the field, and no tournament is created
    assert (status, answer["error"]) == (422, "invalid_request"), answer
    assert ["body", field] in [d["loc"] for d in answer["detail"]]
    assert list(memory.lobby.list_tournaments()) == []


@pytest.mark.parametrize("moment", ["2030-01-05T18:00:00Z", "2030-01-05T19:00:00+01:00", "2030-01-05T18:00:00.250Z"])
def test_rule_2_an_iso_8601_time_with_its_offset_is_taken(memory: Services, context: FakeContext, moment: str) -> None:
    status, answer = call(admin, context, "POST", "/admin/tournaments", body={**TOURNAMENT, "start_at": moment},
                          player="olga", operator=True)  # fmt: skip
    assert status == 201, answer


@pytest.mark.parametrize("action", ["call", "check", "fold"])
def test_rule_9_a_decision_other_than_a_bet_or_raise_with_an_amount_is_422(
    memory: Services, clock: FrozenClock, context: FakeContext, action: str
) -> None:
    # Given the player to act at a running table
    tid, table = running(memory, clock)
    before = memory.lobby.table_view(tid, table, None)
    assert before.to_act is not None
    # When they send a call (check, fold) carrying an amount
    decision = {"hand": before.hand, "seq": before.to_act.seq, "action": action, "amount": 500}
    path = f"/tournaments/{tid}/tables/{table}/actions"
    status, answer = call(api, context, "POST", path, raw_body=json.dumps(decision), player=before.to_act.player)
    # Then it is refused, naming the amount, and the decision is still awaited
    assert (status, answer["error"]) == (422, "invalid_request"), answer
    assert any(d["loc"][:2] == ["body", "amount"] or d["loc"] == ["body"] for d in answer["detail"]), answer
    after = memory.lobby.table_view(tid, table, None)
    assert (after.hand, after.seq, after.to_act) == (before.hand, before.seq, before.to_act)


def test_rule_9_a_websocket_call_with_an_amount_is_an_error_frame(ws_services, signing_key, context) -> None:
    # Given a connected player, When they send a call carrying an amount over the WebSocket
    connect(context, signing_key, "c1", "ann")
    raw = json.dumps({"action": "act", "tournament_id": "t1", "table_id": "1", "hand": 1, "seq": 0, "kind": "call",
                      "amount": 500})  # fmt: skip
    answer = ws(ws_event("$default", "c1", raw_body=raw), context)
    # Then it is refused as bad input before any table is read
    frame = json.loads(answer["body"])
    assert (answer["statusCode"], frame["type"], frame["error"]) == (422, "error", "invalid_request"), frame
