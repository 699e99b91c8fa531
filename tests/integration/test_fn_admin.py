"""The operators' HTTP function fed with API Gateway HTTP (payload v2) events; idempotency on moto's DynamoDB."""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

import boto3
import pytest
from tourney.adapters.dynamo.schema import IDEMPOTENCY, create_tables
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services

from functions.admin.app import handler as admin
from functions.api.app import handler as api
from tests.support.aws import REGION, aws  # noqa: F401
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import announce, clock, context, fund, memory, running  # noqa: F401

TOURNAMENT = {"name": "Sunday", "format": "freezeout", "buy_in": 1_000, "entry_fee": 100,
              "start_at": "2030-01-05T18:00:00Z"}  # fmt: skip


def call(function: Any, context: FakeContext, method: str, path: str, **kw: Any) -> tuple[int, Any]:
    response = function(http_event(method, path, **kw), context)
    return response["statusCode"], answer_json(response)


@pytest.fixture
def idempotency_table(aws: None) -> str:
    return create_tables(boto3.client("dynamodb", region_name=REGION), schemas=[IDEMPOTENCY])["idempotency"]


def test_an_operator_creates_and_announces_a_tournament(memory: Services, context) -> None:
    # When an operator posts a tournament
    status, body = call(admin, context, "POST", "/admin/tournaments", body=TOURNAMENT, player="op", operator=True)
    # Then it is created (201 {id}) and players see it in the lobby
    assert status == 201 and body["id"]
    assert [t["id"] for t in call(api, context, "GET", "/tournaments")[1]] == [body["id"]]


def test_a_player_is_refused_every_admin_route_with_403(memory: Services, context) -> None:
    # When a player who is not an operator calls the operator routes
    answers = [
        call(admin, context, "POST", "/admin/tournaments", body=TOURNAMENT, player="ann"),
        call(admin, context, "POST", "/admin/tournaments/t1/terminate", body={}, player="ann"),
        call(admin, context, "POST", "/admin/accounts/ann/deposits", body={"amount": 10**6}, player="ann"),
    ]
    # Then each is 403 forbidden, and no money was made
    assert [(status, body["error"]) for status, body in answers] == [(403, "forbidden")] * 3
    assert memory.accounts.account("ann").balance == 0


@pytest.mark.parametrize(
    "body",
    [
        {**TOURNAMENT, "buy_in": -1},
        {**TOURNAMENT, "buy_in": "1000"},
        {**TOURNAMENT, "format": "omaha"},
        {k: v for k, v in TOURNAMENT.items() if k != "name"},
        {**TOURNAMENT, "seats_per_table": 11},
    ],
)
def test_a_bad_tournament_is_422_json(memory: Services, context, body: dict[str, Any]) -> None:
    status, answer = call(admin, context, "POST", "/admin/tournaments", body=body, player="op", operator=True)
    assert status == 422 and answer["error"] in ("invalid_request", "invalid_configuration")


@pytest.mark.parametrize("amount", [0, -5, 1.5, "100"])
def test_a_deposit_must_be_a_positive_integer_of_cents(memory: Services, context, amount: object) -> None:
    status, answer = call(
        admin, context, "POST", "/admin/accounts/ann/deposits", body={"amount": amount}, player="op", operator=True
    )
    assert (status, answer["error"]) == (422, "invalid_request")


def test_a_deposit_credits_the_account(memory: Services, context) -> None:
    memory.accounts.open("ann")  # ann signed in once
    status, body = call(
        admin, context, "POST", "/admin/accounts/ann/deposits", body={"amount": 2_500}, player="op", operator=True
    )
    assert status == 201 and body["balance"] == 2_500
    assert call(api, context, "GET", "/me/account", player="ann")[1]["balance"] == 2_500


def test_a_deposit_replayed_with_its_idempotency_key_credits_once(memory: Services, context, idempotency_table) -> None:
    # When the same deposit is posted twice with one Idempotency-Key to ann, who signed in once
    memory.accounts.open("ann")
    headers = {"Idempotency-Key": "dep-1"}
    first = call(admin, context, "POST", "/admin/accounts/ann/deposits", body={"amount": 700}, player="op",
                 operator=True, headers=headers)  # fmt: skip
    second = call(admin, context, "POST", "/admin/accounts/ann/deposits", body={"amount": 700}, player="op",
                  operator=True, headers=headers)  # fmt: skip
    # Then both answers are the first one, and the account was credited once
    assert first == second and first[0] == 201
    assert memory.accounts.account("ann").balance == 700


def test_a_registration_replayed_with_its_idempotency_key_answers_the_same_201(
    memory: Services, clock: FrozenClock, context, idempotency_table
) -> None:
    # Given a funded player
    tid = announce(memory, clock)
    fund(memory, "ann")
    # When the registration is posted twice with one key (a retry after a lost answer)
    path = f"/tournaments/{tid}/registrations"
    first = call(api, context, "POST", path, player="ann", headers={"Idempotency-Key": "k-1"})
    again = call(api, context, "POST", path, player="ann", headers={"Idempotency-Key": "k-1"})
    # Then the second answer is the first (201, registered), and the player paid once
    assert first == again and first[0] == 201 and first[1]["status"] == "registered"
    assert memory.accounts.account("ann").balance == 10_000 - 1_100
    # And the registration itself keeps the key (a replay answers it as it stands, not a stored copy)
    assert memory.adapters.store.registrations.get(tid, "ann").key == "k-1"


def test_one_players_key_does_not_replay_anothers_registration(
    memory: Services, clock: FrozenClock, context, idempotency_table
) -> None:
    tid = announce(memory, clock)
    fund(memory, "ann", "bob")
    path = f"/tournaments/{tid}/registrations"
    call(api, context, "POST", path, player="ann", headers={"Idempotency-Key": "same"})
    # When bob uses the same key
    status, body = call(api, context, "POST", path, player="bob", headers={"Idempotency-Key": "same"})
    # Then bob is registered in his own right
    assert status == 201 and body["player"] == "bob"
    assert memory.accounts.account("bob").balance == 10_000 - 1_100


def test_an_operator_terminates_a_running_tournament(memory: Services, clock: FrozenClock, context) -> None:
    tid, _ = running(memory, clock)
    status, body = call(admin, context, "POST", f"/admin/tournaments/{tid}/terminate",
                        body={"reason": "stalled"}, player="op", operator=True)  # fmt: skip
    assert status == 200 and body["tournament_id"] == tid and body["terminated_at"]
    assert list(memory.adapters.workflows.pending_recoveries) == [tid]


def test_terminating_an_unknown_tournament_is_404(memory: Services, context) -> None:
    status, body = call(admin, context, "POST", "/admin/tournaments/nope/terminate", body={"reason": "stalled"},
                        player="op", operator=True)  # fmt: skip
    assert (status, body["error"]) == (404, "not_found")


def test_rule_17_an_operator_restarts_a_terminated_tournament_within_twenty_minutes(
    memory: Services, clock: FrozenClock, context
) -> None:
    # Given a running tournament terminated by an operator
    tid, table = running(memory, clock)
    terminate = f"/admin/tournaments/{tid}/terminate"
    call(admin, context, "POST", terminate, body={"reason": "x"}, player="op", operator=True)
    # When the operator restarts it ten minutes later
    clock.advance(10 * 60)
    status, body = call(admin, context, "POST", f"/admin/tournaments/{tid}/restart",
                        body={"reason": "fixed"}, player="op", operator=True)  # fmt: skip
    # Then it runs again at its level, and its tables deal
    assert status == 200 and (body["tournament_id"], body["status"], body["level"]) == (tid, "running", 1)
    assert body["restarted_at"] and body["terminated_at"]
    assert memory.adapters.store.tables.get(tid, table).table.hand_in_progress


def test_rule_17_a_restart_after_twenty_minutes_or_of_a_running_tournament_is_409(
    memory: Services, clock: FrozenClock, context
) -> None:
    tid, _ = running(memory, clock)
    # A running tournament is not restarted
    status, body = call(admin, context, "POST", f"/admin/tournaments/{tid}/restart", player="op", operator=True)
    assert (status, body["error"]) == (409, "conflict")
    # Nor one whose 20 minutes are over
    terminate = f"/admin/tournaments/{tid}/terminate"
    call(admin, context, "POST", terminate, body={"reason": "x"}, player="op", operator=True)
    clock.advance(20 * 60)
    status, body = call(admin, context, "POST", f"/admin/tournaments/{tid}/restart",
                        body={"reason": "late"}, player="op", operator=True)  # fmt: skip
    assert (status, body["error"]) == (409, "conflict") and "20 minutes" in body["message"]
    assert memory.adapters.store.tournaments.get(tid).status == "terminated"


def test_a_player_may_not_restart_a_tournament(memory: Services, clock: FrozenClock, context) -> None:
    tid, _ = running(memory, clock)
    status, body = call(admin, context, "POST", f"/admin/tournaments/{tid}/restart", body={}, player="ann")
    assert (status, body["error"]) == (403, "forbidden")


def test_rule_19_an_operator_cancels_before_the_start_and_everyone_is_refunded(
    memory: Services, clock: FrozenClock, context
) -> None:
    # Given an announced tournament with two registered players
    tid = announce(memory, clock)
    fund(memory, "ann", "bob")
    for player in ("ann", "bob"):
        memory.registration.register(tid, player)
    # When an operator cancels it
    status, body = call(admin, context, "POST", f"/admin/tournaments/{tid}/cancel",
                        body={"reason": "no dealers"}, player="op", operator=True)  # fmt: skip
    # Then it is cancelled and both are refunded in full
    assert status == 200 and (body["status"], body["refunded"]) == ("cancelled", 2)
    assert memory.accounts.account("ann").balance == memory.accounts.account("bob").balance == 10_000


def test_rule_19_cancelling_a_running_tournament_is_409(memory: Services, clock: FrozenClock, context) -> None:
    tid, _ = running(memory, clock)
    status, body = call(admin, context, "POST", f"/admin/tournaments/{tid}/cancel", body={"reason": "no dealers"},
                        player="op", operator=True)  # fmt: skip
    assert (status, body["error"]) == (409, "already_started")
    assert memory.adapters.store.tournaments.get(tid).status == "running"
