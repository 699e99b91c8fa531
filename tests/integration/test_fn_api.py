"""The players' HTTP function fed with API Gateway HTTP (payload v2) events, over the in-memory services."""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services

from functions.api.app import handler
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import announce, clock, context, fund, memory, running  # noqa: F401


def call(context: FakeContext, method: str, path: str, **kw: Any) -> tuple[int, Any]:
    response = handler(http_event(method, path, **kw), context)
    return response["statusCode"], answer_json(response)


def test_lobby_lists_an_announced_tournament_with_its_counts(memory: Services, clock: FrozenClock, context) -> None:
    # Given a tournament announced with one registered player
    tid = announce(memory, clock)
    fund(memory, "ann")
    memory.registration.register(tid, "ann")
    # When a player opens the lobby and the tournament's details
    status, lobby = call(context, "GET", "/tournaments")
    detail_status, details = call(context, "GET", f"/tournaments/{tid}")
    # Then both show it, with one registered player
    assert status == 200 and [t["id"] for t in lobby] == [tid]
    assert detail_status == 200 and details["registered"] == 1 and details["waitlisted"] == 0


def test_register_answers_201_with_the_status(memory: Services, clock: FrozenClock, context) -> None:
    # Given a funded player and an announced tournament
    tid = announce(memory, clock)
    fund(memory, "ann")
    # When the player registers
    status, body = call(context, "POST", f"/tournaments/{tid}/registrations", player="ann")
    # Then the answer is 201 registered, and the registration is the caller's
    assert status == 201
    assert body["status"] == "registered" and body["player"] == "ann"
    assert call(context, "GET", f"/tournaments/{tid}/registrations/me", player="ann")[1]["status"] == "registered"


def test_register_without_funds_is_422_insufficient_funds(memory: Services, clock: FrozenClock, context) -> None:
    # Given a player with no money
    tid = announce(memory, clock)
    # When the player registers
    status, body = call(context, "POST", f"/tournaments/{tid}/registrations", player="broke")
    # Then the refusal names the reason, and nothing is registered
    assert (status, body["error"]) == (422, "insufficient_funds")
    assert call(context, "GET", f"/tournaments/{tid}", player="broke")[1]["registered"] == 0


def test_registering_twice_is_409_already_registered(memory: Services, clock: FrozenClock, context) -> None:
    tid = announce(memory, clock)
    fund(memory, "ann")
    call(context, "POST", f"/tournaments/{tid}/registrations", player="ann")
    # When the same player registers again without an idempotency key
    status, body = call(context, "POST", f"/tournaments/{tid}/registrations", player="ann")
    # Then it is a conflict, not a second charge
    assert (status, body["error"]) == (409, "already_registered")
    assert memory.accounts.account("ann").balance == 10_000 - 1_100


def test_unregister_refunds_in_full(memory: Services, clock: FrozenClock, context) -> None:
    tid = announce(memory, clock)
    fund(memory, "ann")
    call(context, "POST", f"/tournaments/{tid}/registrations", player="ann")
    # When the player unregisters before the start
    status, body = call(context, "DELETE", f"/tournaments/{tid}/registrations/me", player="ann")
    # Then buy-in and fee come back
    assert status == 200 and body["refunded"] == 1_100
    assert call(context, "GET", "/me/account", player="ann")[1]["balance"] == 10_000


def test_account_and_ledger_are_the_callers_own(memory: Services, context) -> None:
    fund(memory, "ann", amount=2_500)
    fund(memory, "bob", amount=700)
    # When ann reads her account and ledger
    _, account = call(context, "GET", "/me/account", player="ann")
    _, ledger = call(context, "GET", "/me/ledger", player="ann")
    # Then she sees her balance and her entries only
    assert account == {"player": "ann", "balance": 2_500}
    assert ledger["player"] == "ann" and [e["amount"] for e in ledger["entries"]] == [2_500]


def test_unknown_tournament_is_404_json(memory: Services, context) -> None:
    status, body = call(context, "GET", "/tournaments/nope")
    assert status == 404 and body["error"] == "not_found" and body["message"]


def test_unknown_route_is_404_json(memory: Services, context) -> None:
    status, body = call(context, "GET", "/nowhere")
    assert (status, body["error"]) == (404, "not_found")


def test_a_request_without_authorizer_claims_is_401(memory: Services, context) -> None:
    status, body = call(context, "GET", "/me/account", player=None)
    assert (status, body["error"]) == (401, "unauthorized")


@pytest.mark.parametrize(
    "raw",
    [
        '{"hand": 1, "seq": 0, "action": "call"',  # malformed JSON
        '{"hand": "one", "seq": 0, "action": "call"}',  # wrong type
        '{"hand": 1, "seq": 0, "action": "bet", "amount": -100}',  # negative amount
        '{"hand": 1, "seq": 0, "action": "bet", "amount": 10.5}',  # chips are integers
        '{"hand": 1, "seq": 0, "action": "dance"}',  # unknown action
        '{"hand": 1, "seq": 0}',  # missing action
        '{"hand": 1, "seq": 0, "action": "call", "extra": true}',  # unknown field
        "[]",
        "",
    ],
)
def test_bad_input_is_422_json_never_5xx(memory: Services, clock: FrozenClock, context, raw: str) -> None:
    # Given a running table
    tid, table = running(memory, clock)
    # When a player posts a malformed action
    status, body = call(context, "POST", f"/tournaments/{tid}/tables/{table}/actions", raw_body=raw, player="p0")
    # Then the answer is a 422 JSON error naming the field
    assert status == 422
    assert body["error"] == "invalid_request" and body["detail"]


def test_a_body_that_is_not_json_is_415(memory: Services, context) -> None:
    status, body = call(context, "POST", "/tournaments/t1/tables/a/actions", raw_body="fold",
                        headers={"content-type": "text/plain"})  # fmt: skip
    assert (status, body["error"]) == (415, "unsupported_media_type")


def test_a_hand_number_that_is_not_a_number_is_422(memory: Services, context) -> None:
    status, body = call(context, "GET", "/tournaments/t1/tables/a/hands/abc")
    assert (status, body["error"]) == (422, "invalid_request")


def test_a_player_acts_only_at_their_own_seat(memory: Services, clock: FrozenClock, context) -> None:
    # Given a running table and the player whose turn it is
    tid, table = running(memory, clock)
    to_act = memory.lobby.table_view(tid, table, None).to_act
    assert to_act is not None
    view = memory.lobby.table_view(tid, table, to_act.player)
    intruder = next(s.player for s in view.seats if s.player != to_act.player)
    decision = {"hand": view.hand, "seq": to_act.seq, "action": "fold"}
    # When another player sends the decision, then the player to act does
    other_status, other_body = call(
        context, "POST", f"/tournaments/{tid}/tables/{table}/actions", body=decision, player=intruder
    )
    status, body = call(
        context, "POST", f"/tournaments/{tid}/tables/{table}/actions", body=decision, player=to_act.player
    )
    # Then the intruder is refused and the player's action is taken
    assert other_status in (403, 409) and other_body["error"] in ("not_your_seat", "not_your_turn")
    assert status == 200 and body["action"] == "fold" and body["seq"] == to_act.seq


def test_the_same_decision_twice_is_a_409_stale_action(memory: Services, clock: FrozenClock, context) -> None:
    tid, table = running(memory, clock)
    to_act = memory.lobby.table_view(tid, table, None).to_act
    assert to_act is not None
    hand = memory.lobby.table_view(tid, table, to_act.player).hand
    decision = {"hand": hand, "seq": to_act.seq, "action": "fold"}
    path = f"/tournaments/{tid}/tables/{table}/actions"
    assert call(context, "POST", path, body=decision, player=to_act.player)[0] == 200
    # When the same decision arrives again (a retry, a double click)
    status, body = call(context, "POST", path, body=decision, player=to_act.player)
    # Then it is refused as stale: exactly one of the two counted
    assert status == 409 and body["error"] in ("stale_action", "no_hand_in_progress", "not_your_turn")


def test_a_player_sees_only_their_own_hole_cards(memory: Services, clock: FrozenClock, context) -> None:
    # Given a hand in progress
    tid, table = running(memory, clock)
    seated = [s.player for s in memory.lobby.table_view(tid, table, None).seats]
    # When one seated player reads the table
    status, view = call(context, "GET", f"/tournaments/{tid}/tables/{table}", player=seated[0])
    # Then their own two cards are there and nobody else's
    assert status == 200
    mine = [s for s in view["seats"] if s["player"] == seated[0]]
    others = [s for s in view["seats"] if s["player"] != seated[0]]
    assert len(mine[0]["cards"]) == 2
    assert all(s["cards"] == [] for s in others)


def test_standings_list_the_remaining_players_largest_first(memory: Services, clock: FrozenClock, context) -> None:
    tid, _ = running(memory, clock)
    status, body = call(context, "GET", f"/tournaments/{tid}/standings")
    chips = [row["chips"] for row in body["players"]]
    assert status == 200 and body["players_left"] == 4 and chips == sorted(chips, reverse=True)


def test_away_and_back(memory: Services, clock: FrozenClock, context) -> None:
    tid, _ = running(memory, clock)
    assert call(context, "POST", f"/tournaments/{tid}/away", player="p1")[1]["away"] is True
    assert call(context, "POST", f"/tournaments/{tid}/back", player="p1")[1]["away"] is False


def test_a_rebuy_in_a_freezeout_is_refused_with_a_4xx(memory: Services, clock: FrozenClock, context) -> None:
    tid, _ = running(memory, clock)
    status, body = call(context, "POST", f"/tournaments/{tid}/rebuys", player="p1")
    assert 400 <= status < 500 and body["error"]


def test_openapi_and_swagger_are_served_without_a_token(memory: Services, context) -> None:
    status, spec = call(context, "GET", "/openapi.json", player=None)
    page = handler(http_event("GET", "/swagger", player=None), context)
    assert status == 200 and "/tournaments/{id}/registrations" in spec["paths"]
    assert page["statusCode"] == 200 and "SwaggerUIBundle" in page["body"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)
ACTION_LIKE = st.fixed_dictionaries(
    {},
    optional={
        "hand": JSON | st.integers(-2, 3),
        "seq": JSON | st.integers(-2, 3),
        "action": JSON | st.sampled_from(["fold", "check", "call", "bet", "raise", "FOLD", ""]),
        "amount": JSON | st.integers(-10, 10**12),
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=ACTION_LIKE | JSON, raw=st.one_of(st.none(), st.text(max_size=20)))
def test_no_action_body_gets_a_5xx(memory: Services, context, body: Any, raw: str | None) -> None:
    # Given any JSON (or any text) posted as an action to a table
    response = handler(http_event("POST", "/tournaments/t1/tables/a/actions", body=body, raw_body=raw), context)
    # Then the answer is a JSON error or success below 500
    assert response["statusCode"] < 500
    if response["statusCode"] >= 400:
        assert set(answer_json(response)) >= {"error", "message"}
