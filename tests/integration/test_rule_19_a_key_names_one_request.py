"""Rule 19 and Money: an idempotency key names one request; the same key with another request is a 409.

A replay (the same request, the same key) answers the first answer and moves
nothing. The same key with another amount, delta, duration or reason is not a
replay: it is refused with 409 ``idempotency_conflict`` and changes nothing,
rather than answering what it did not do. Driven through the operators' and
the players' HTTP functions over the in-memory services.
"""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

import boto3
import pytest
from tourney.adapters.dynamo.schema import IDEMPOTENCY, create_tables
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.ledger import HOUSE_ADJUSTMENTS

from functions.admin.app import handler as admin
from functions.api.app import handler as api
from tests.support.aws import REGION, aws  # noqa: F401
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import announce, clock, context, fund, memory, running  # noqa: F401


def call(function: Any, context: FakeContext, method: str, path: str, **kw: Any) -> tuple[int, Any]:
    kw.setdefault("player", "olga")
    kw.setdefault("operator", function is admin)
    response = function(http_event(method, path, **kw), context)
    return response["statusCode"], answer_json(response)


def acts(memory: Services, player: str) -> list[str]:
    return [r.act for r in memory.audit.listing(player=player).records]


def test_rule_19_a_deposit_key_reused_with_another_amount_is_409_and_credits_nothing(
    memory: Services, context: FakeContext
) -> None:
    # Given a deposit of 700 to bob (who signed in once) under the key d-1
    memory.accounts.open("bob")
    path = "/admin/accounts/bob/deposits"
    first = call(admin, context, "POST", path, body={"amount": 700, "key": "d-1"})
    assert first[0] == 201
    # When the same key comes again with 900
    status, body = call(admin, context, "POST", path, body={"amount": 900, "key": "d-1"})
    # Then it is refused with the contract's error body, and bob holds the 700 credited once
    assert (status, body["error"]) == (409, "idempotency_conflict"), body
    assert body["message"]
    assert memory.accounts.account("bob").balance == 700
    # And the very same request again is a replay answering the first answer
    assert call(admin, context, "POST", path, body={"amount": 700, "key": "d-1"}) == first
    assert acts(memory, "bob") == ["deposit"]


@pytest.mark.parametrize(
    "again",
    [
        {"amount": -3_000, "reason": "chargeback"},
        {"amount": -2_000, "reason": "another reason"},
    ],
)
def test_rule_19_an_adjustment_key_reused_with_another_request_is_409_and_moves_nothing(
    memory: Services, context: FakeContext, again: dict[str, Any]
) -> None:
    # Given ann with 10,000 cents, 2,000 taken under the key adj-1
    fund(memory, "ann")
    path = "/admin/accounts/ann/adjustments"
    first = call(admin, context, "POST", path, body={"amount": -2_000, "reason": "chargeback", "key": "adj-1"})
    assert first[0] == 201
    # When the key comes again with another amount or reason
    status, body = call(admin, context, "POST", path, body={**again, "key": "adj-1"})
    # Then it is 409 and nothing more moved
    assert (status, body["error"]) == (409, "idempotency_conflict"), body
    assert memory.accounts.account("ann").balance == 8_000
    assert memory.adapters.store.ledger.balance(HOUSE_ADJUSTMENTS) == 2_000
    assert acts(memory, "ann") == ["balance_adjustment"]


def test_rule_19_a_stack_adjustment_key_reused_with_another_delta_is_409(
    memory: Services, clock: FrozenClock, context: FakeContext
) -> None:
    # Given 300 chips added to p1 under the key s-1
    tid, _ = running(memory, clock)
    path = f"/admin/tournaments/{tid}/players/p1/stack"
    assert call(admin, context, "POST", path, body={"delta": 300, "reason": "lost connection", "key": "s-1"})[0] == 200
    # When the key comes again with 500
    status, body = call(admin, context, "POST", path, body={"delta": 500, "reason": "lost connection", "key": "s-1"})
    # Then it is 409 and the chips adjusted are the first 300
    assert (status, body["error"]) == (409, "idempotency_conflict"), body
    assert memory.adapters.store.entrants.get(tid, "p1").chips_adjusted == 300


def test_rule_19_a_mute_key_reused_with_another_duration_is_409(memory: Services, context: FakeContext) -> None:
    # Given ann muted for 15 minutes under the key m-1
    path = "/admin/players/ann/mute"
    first = call(admin, context, "POST", path, body={"reason": "abuse", "minutes": 15, "key": "m-1"})
    assert first[0] == 200
    # When the key comes again for a mute until unmuted
    status, body = call(admin, context, "POST", path, body={"reason": "abuse", "key": "m-1"})
    # Then it is 409, the mute is the first one, and a replay answers the first answer
    assert (status, body["error"]) == (409, "idempotency_conflict"), body
    assert call(admin, context, "POST", path, body={"reason": "abuse", "minutes": 15, "key": "m-1"}) == first
    assert acts(memory, "ann") == ["mute"]


@pytest.fixture
def idempotency_table(aws: None) -> str:
    return create_tables(boto3.client("dynamodb", region_name=REGION), schemas=[IDEMPOTENCY])["idempotency"]


def test_rule_3_a_registration_key_reused_after_unregistering_is_409_not_registered(
    memory: Services, clock: FrozenClock, context: FakeContext, idempotency_table: str
) -> None:
    # Given ann registered with the key k-1, then unregistered (refunded in full)
    tid = announce(memory, clock)
    fund(memory, "ann")
    path = f"/tournaments/{tid}/registrations"
    first = call(api, context, "POST", path, player="ann", headers={"Idempotency-Key": "k-1"})
    assert first[0] == 201 and first[1]["status"] == "registered"
    assert call(api, context, "DELETE", f"/tournaments/{tid}/registrations/me", player="ann")[0] == 200
    # When she registers again with the same key
    status, body = call(api, context, "POST", path, player="ann", headers={"Idempotency-Key": "k-1"})
    # Then it is 409 (the key named the registration she withdrew), and she is not registered
    assert (status, body["error"]) == (409, "idempotency_conflict"), body
    mine = call(api, context, "GET", f"/tournaments/{tid}/registrations/me", player="ann")[1]
    assert mine["status"] == "not_registered"
    assert memory.accounts.account("ann").balance == 10_000
    # And a new key registers her again
    again = call(api, context, "POST", path, player="ann", headers={"Idempotency-Key": "k-2"})
    assert again[0] == 201 and again[1]["status"] == "registered"
    assert memory.accounts.account("ann").balance == 10_000 - 1_100


def test_rule_2_a_tournament_id_reused_with_another_structure_is_409_and_the_first_stands(
    memory: Services, clock: FrozenClock, context: FakeContext
) -> None:
    # Given a tournament created under the id chosen by the operator (creation is then idempotent)
    body = {"name": "Sunday", "format": "freezeout", "buy_in": 1_000, "entry_fee": 100,
            "start_at": "2030-01-05T18:00:00Z", "tournament_id": "sunday"}  # fmt: skip
    first = call(admin, context, "POST", "/admin/tournaments", body=body)
    assert first[0] == 201
    # When the same id comes again with another buy-in
    status, answer = call(admin, context, "POST", "/admin/tournaments", body={**body, "buy_in": 2_000})
    # Then it is 409 idempotency_conflict and the first tournament stands; the same request again replays it
    assert (status, answer["error"]) == (409, "idempotency_conflict"), answer
    assert memory.adapters.store.tournaments.get("sunday").config.buy_in == 1_000
    assert call(admin, context, "POST", "/admin/tournaments", body=body) == first
