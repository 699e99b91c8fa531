"""Every bad input is a 4xx JSON error and changes nothing.

A naive ``start_at``, deeply nested JSON, a 5,000-digit integer, a deposit of
10^130, a body over the size limit, a lone surrogate: each, sent to the route
it could hurt, is answered 4xx with the ``{error, message}`` body, and the
state the route would have changed (the lobby, the account, the table) is the
same afterwards. The maximums are ``tourney.entrypoints.models``' and
``tourney.entrypoints.limits``' (docs/operations.md, 'Input limits').
"""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

import json
from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.entrypoints.limits import MAX_BODY_BYTES, MAX_INT_DIGITS, MAX_JSON_DEPTH, InvalidJson, parse_json
from tourney.entrypoints.models import MAX_CENTS, MAX_CHIPS, MAX_HAND

from functions.admin.app import handler as admin
from functions.api.app import handler as api
from functions.ws.app import handler as ws
from tests.integration.test_fn_ws import connect, sent_to, signing_key, ws_settings  # noqa: F401
from tests.integration.test_fn_ws import services as ws_services  # noqa: F401
from tests.support.aws import aws  # noqa: F401
from tests.support.events import FakeContext, answer_json, http_event, ws_event
from tests.support.functions import announce, clock, context, fund, memory, running  # noqa: F401

TOURNAMENT = {"name": "Sunday", "format": "freezeout", "buy_in": 1_000, "entry_fee": 100,
              "start_at": "2030-01-05T18:00:00Z"}  # fmt: skip


def call(function: Any, context: FakeContext, method: str, path: str, **kw: Any) -> tuple[int, Any]:
    response = function(http_event(method, path, **kw), context)
    return response["statusCode"], answer_json(response)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def with_field(body: dict[str, Any], name: str, raw_value: str) -> str:
    """``body`` as JSON text with ``name`` set to ``raw_value`` as written (a number too long for json.dumps)."""
    return json.dumps({**body, name: "@"}).replace('"@"', raw_value)


BAD_TOURNAMENTS: dict[str, str] = {
    "naive start_at": json.dumps({**TOURNAMENT, "start_at": "2030-01-05T18:00:00"}),
    "naive announce_at": json.dumps({**TOURNAMENT, "announce_at": "2029-12-05T18:00:00"}),
    "start_at in year 9999": json.dumps({**TOURNAMENT, "start_at": "9999-12-31T23:59:59Z"}),
    "5,000-digit buy-in": with_field(TOURNAMENT, "buy_in", "9" * 5_000),
    "buy-in of 10^130": with_field(TOURNAMENT, "buy_in", str(10**130)),
    "buy-in over the maximum": json.dumps({**TOURNAMENT, "buy_in": MAX_CENTS + 1}),
    "guarantee over the maximum": json.dumps({**TOURNAMENT, "guarantee": MAX_CENTS + 1}),
    "starting stack over the maximum": json.dumps({**TOURNAMENT, "starting_stack": MAX_CHIPS + 1}),
    "a field of a billion": json.dumps({**TOURNAMENT, "max_players": 10**9}),
    "a thousand payout places": json.dumps({**TOURNAMENT, "payout_percent": [1] * 1_000}),
    "deeply nested JSON": with_field(TOURNAMENT, "name", nested(8_000)),
    "nested past the depth limit": with_field(TOURNAMENT, "payout_percent", nested(MAX_JSON_DEPTH + 1)),
    "a lone surrogate in the name": json.dumps({**TOURNAMENT, "name": "\ud800"}),
    "NaN as the fee": with_field(TOURNAMENT, "entry_fee", "NaN"),
    "a body over the size limit": json.dumps({**TOURNAMENT, "name": "x" * MAX_BODY_BYTES}),
}


@pytest.mark.parametrize("raw", BAD_TOURNAMENTS.values(), ids=BAD_TOURNAMENTS.keys())
def test_a_bad_tournament_is_a_4xx_and_creates_nothing(memory: Services, context, raw: str) -> None:
    # When an operator posts a tournament with one bad field
    status, body = call(admin, context, "POST", "/admin/tournaments", raw_body=raw, player="olga", operator=True)
    # Then the answer is a 4xx JSON error, and the lobby is as empty as before
    assert 400 <= status < 500 and set(body) >= {"error", "message"}, (status, body)
    assert status in (413, 422)
    assert list(memory.lobby.list_tournaments()) == []


BAD_DEPOSITS: dict[str, str] = {
    "10^130": with_field({}, "amount", str(10**130)),
    "5,000 digits": with_field({}, "amount", "9" * 5_000),
    "over the maximum": json.dumps({"amount": MAX_CENTS + 1}),
    "a float": json.dumps({"amount": 1e300}),
    "Infinity": with_field({}, "amount", "Infinity"),
    "deeply nested": with_field({}, "amount", nested(8_000)),
    "a lone surrogate in the key": json.dumps({"amount": 100, "key": "\udfff"}),
    "over the size limit": json.dumps({"amount": 100, "pad": " " * MAX_BODY_BYTES}),
}


@pytest.mark.parametrize("raw", BAD_DEPOSITS.values(), ids=BAD_DEPOSITS.keys())
def test_a_bad_deposit_is_a_4xx_and_credits_nothing(memory: Services, context, raw: str) -> None:
    fund(memory, "ann", amount=500)
    status, body = call(admin, context, "POST", "/admin/accounts/ann/deposits", raw_body=raw, player="olga",
                        operator=True)  # fmt: skip
    assert status in (413, 422) and set(body) >= {"error", "message"}, (status, body)
    assert memory.accounts.account("ann").balance == 500


def test_the_largest_deposit_is_taken(memory: Services, context) -> None:
    memory.accounts.open("ann")
    status, body = call(admin, context, "POST", "/admin/accounts/ann/deposits", body={"amount": MAX_CENTS},
                        player="olga", operator=True)  # fmt: skip
    assert status == 201 and body["balance"] == MAX_CENTS


def test_a_naive_start_at_is_named_in_the_refusal(memory: Services, context) -> None:
    raw = BAD_TOURNAMENTS["naive start_at"]
    status, body = call(admin, context, "POST", "/admin/tournaments", raw_body=raw, player="olga", operator=True)
    assert (status, body["error"]) == (422, "invalid_request")
    assert {"loc": ["body", "start_at"], "type": "timezone_aware"} in body["detail"]


def test_a_start_at_with_an_offset_is_taken(memory: Services, context) -> None:
    raw = json.dumps({**TOURNAMENT, "start_at": "2030-01-05T19:00:00+01:00"})
    status, body = call(admin, context, "POST", "/admin/tournaments", raw_body=raw, player="olga", operator=True)
    assert status == 201, body


def bad_actions(hand: int, seq: int) -> dict[str, str]:
    decision = {"hand": hand, "seq": seq, "action": "bet"}
    return {
        "5,000-digit amount": with_field(decision, "amount", "9" * 5_000),
        "amount of 10^130": with_field(decision, "amount", str(10**130)),
        "amount over the maximum": json.dumps({**decision, "amount": MAX_CHIPS + 1}),
        "hand over the maximum": json.dumps({**decision, "hand": MAX_HAND + 1}),
        "5,000-digit seq": with_field(decision, "seq", "9" * 5_000),
        "deeply nested": with_field(decision, "amount", nested(8_000)),
        "over the size limit": json.dumps({**decision, "pad": "x" * MAX_BODY_BYTES}),
    }


@pytest.mark.parametrize("case", list(bad_actions(1, 0)))
def test_a_bad_action_is_a_4xx_and_the_table_does_not_move(memory: Services, clock: FrozenClock, context,
                                                           case: str) -> None:  # fmt: skip
    # Given the player to act at a running table
    tid, table = running(memory, clock)
    before = memory.lobby.table_view(tid, table, None)
    assert before.to_act is not None
    raw = bad_actions(before.hand, before.to_act.seq)[case]
    # When they send a decision with one bad field
    path = f"/tournaments/{tid}/tables/{table}/actions"
    status, body = call(api, context, "POST", path, raw_body=raw, player=before.to_act.player)
    # Then it is refused and the decision is still awaited
    assert status in (413, 422) and set(body) >= {"error", "message"}, (status, body)
    after = memory.lobby.table_view(tid, table, None)
    assert (after.hand, after.seq, after.to_act) == (before.hand, before.seq, before.to_act)


@pytest.mark.parametrize("hand", [str(MAX_HAND + 1), "9" * 5_000, "0", "-1"])
def test_a_hand_number_out_of_range_is_a_422(memory: Services, clock: FrozenClock, context, hand: str) -> None:
    tid, table = running(memory, clock)
    status, body = call(api, context, "GET", f"/tournaments/{tid}/tables/{table}/hands/{hand}", player="p0")
    assert (status, body["error"]) == (422, "invalid_request")


def test_a_body_over_the_limit_is_refused_before_any_route_runs(memory: Services, clock: FrozenClock,
                                                                 context) -> None:  # fmt: skip
    # Given a registration, a route without a body
    tid = announce(memory, clock)
    fund(memory, "ann")
    raw = json.dumps({"pad": "x" * MAX_BODY_BYTES})
    status, body = call(api, context, "POST", f"/tournaments/{tid}/registrations", raw_body=raw)
    assert (status, body["error"]) == (413, "payload_too_large")
    assert memory.accounts.account("ann").balance == 10_000


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (nested(MAX_JSON_DEPTH), None),
        (nested(MAX_JSON_DEPTH + 1), "json_too_deep"),
        (nested(8_000), "json_too_deep"),
        ("1" * MAX_INT_DIGITS, None),
        ("-" + "1" * (MAX_INT_DIGITS + 1), "json_invalid"),
        ('{"a": "1' + "0" * 100 + '"}', None),  # digits in a text are text
        ('"\\ud800"', "json_invalid"),
        ('{"\\udc00": 1}', "json_invalid"),
        ("-Infinity", "json_invalid"),
        ("{", "json_invalid"),
        (b"\xff", "json_invalid"),
    ],
)
def test_parse_json_holds_every_body_to_the_limits(text: str | bytes, kind: str | None) -> None:
    if kind is None:
        parse_json(text)
        return
    with pytest.raises(InvalidJson) as refused:
        parse_json(text)
    assert refused.value.kind == kind


@pytest.mark.parametrize(
    ("raw", "status", "code"),
    [
        (json.dumps({"action": "chat", "tournament_id": "t1", "table_id": "1", "text": "x" * MAX_BODY_BYTES}), 413,
         "payload_too_large"),
        ('{"action": "act", "tournament_id": "t1", "table_id": "1", "hand": ' + "9" * 5_000 + ', "seq": 0}', 422,
         "invalid_request"),
        ('{"action": "subscribe", "tournament_id": ' + nested(5_000) + "}", 422, "invalid_request"),
        ('{"tournament_id": "t1", "table_id": "1"}', 422, "invalid_request"),  # no action
    ],
)  # fmt: skip
def test_a_bad_websocket_message_is_an_error_frame(ws_services, signing_key, context, raw: str, status: int,
                                                   code: str) -> None:  # fmt: skip
    connect(context, signing_key, "c1", "ann")
    answer = ws(ws_event("$default", "c1", raw_body=raw), context)
    frame = json.loads(answer["body"])
    assert (answer["statusCode"], frame["type"], frame["error"]) == (status, "error", code)
    assert sent_to("c1")[-1] == frame  # the sender hears it over its connection too


@pytest.mark.parametrize(
    "content_type", ["multipart/form-data", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded",
                     "text/plain"],
)  # fmt: skip
def test_a_body_that_is_not_json_is_a_415_and_credits_nothing(memory: Services, context, content_type: str) -> None:
    # Given a body that says it is form data (found by Schemathesis: a multipart type without its boundary was a 500)
    status, body = call(admin, context, "POST", "/admin/accounts/ann/deposits", raw_body='{"amount": 100}',
                        headers={"content-type": content_type}, player="olga", operator=True)  # fmt: skip
    assert (status, body["error"]) == (415, "unsupported_media_type")
    assert memory.accounts.account("ann").balance == 0


@pytest.mark.parametrize(
    ("path", "raw"),
    [
        ("/admin/accounts/ann/deposits", with_field({}, "amount", "9" * 5_000)),
        ("/admin/tournaments", BAD_TOURNAMENTS["naive start_at"]),
        ("/admin/tournaments", json.dumps({"pad": "x" * MAX_BODY_BYTES})),
    ],
)
def test_a_player_is_refused_an_operator_route_before_its_body_is_read(memory: Services, context, path: str,
                                                                       raw: str) -> None:  # fmt: skip
    # A player learns nothing of what an operator route validates: 403, not 422 or 413
    status, body = call(admin, context, "POST", path, raw_body=raw, player="mallory")
    assert (status, body["error"]) == (403, "forbidden")


@pytest.mark.parametrize("content_type", ["application/octet-stream", "multipart/form-data", "text/plain"])
def test_a_post_without_a_body_is_taken_whatever_type_it_names(memory: Services, clock: FrozenClock, context,
                                                               content_type: str) -> None:  # fmt: skip
    # aiohttp, for one, sends a POST without a body as application/octet-stream: there is no body to refuse
    tid = announce(memory, clock)
    fund(memory, "ann")
    headers = {"content-type": content_type}
    status, body = call(api, context, "POST", f"/tournaments/{tid}/registrations", headers=headers)
    assert status == 201, body
    # An operator's cancel without a body is read as a missing body (422: it names a reason, not 415 for the type)
    status, body = call(admin, context, "POST", f"/admin/tournaments/{tid}/cancel", player="olga", operator=True,
                        headers=headers)  # fmt: skip
    assert (status, body["detail"]) == (422, [{"loc": ["body"], "type": "missing"}]), body
