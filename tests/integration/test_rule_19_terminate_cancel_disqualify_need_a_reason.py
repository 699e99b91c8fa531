"""Rule 19 at the operators' HTTP edge: terminate, cancel and disqualify refuse an empty reason (docs/openapi.json).
A missing, empty or blank reason is a 422 with the contract's error body, and nothing changes:
the tournament keeps its status, the player their seat, and the audit has no record of the act."""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services

from functions.admin.app import handler as admin
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import announce, clock, context, fund, memory, running  # noqa: F401

EMPTY_REASONS = [None, {}, {"reason": ""}, {"reason": "   "}, {"reason": "\n\t"}]


def call(context: FakeContext, path: str, body: Any) -> tuple[int, Any]:
    response = admin(http_event("POST", path, body=body, player="olga", operator=True), context)
    return response["statusCode"], answer_json(response)


def refused_for_its_reason(status: int, body: Any) -> bool:
    """422 with the contract's error body, saying what is missing: the reason, or the whole body that carries it."""
    said = body["message"]
    return status == 422 and body["error"] == "invalid_request" and ("body.reason" in said or "body: " in said)


@pytest.mark.parametrize("body", EMPTY_REASONS)
def test_rule_19_terminate_refuses_an_empty_reason(memory: Services, clock: FrozenClock, context, body: Any) -> None:
    # Given a running tournament
    tid, _ = running(memory, clock)
    # When an operator terminates it without a reason
    status, answer = call(context, f"/admin/tournaments/{tid}/terminate", body)
    # Then the request is refused (422, saying the reason is missing) and the tournament runs on, unaudited
    assert refused_for_its_reason(status, answer), (status, answer)
    assert memory.adapters.store.tournaments.get(tid).status == "running"
    assert not list(memory.adapters.workflows.pending_recoveries)
    assert not [r for r in memory.audit.listing(tournament=tid).records if r.act == "terminate"]


@pytest.mark.parametrize("body", EMPTY_REASONS)
def test_rule_19_cancel_refuses_an_empty_reason(memory: Services, clock: FrozenClock, context, body: Any) -> None:
    # Given an announced tournament with a registered player
    tid = announce(memory, clock)
    fund(memory, "ann")
    memory.registration.register(tid, "ann")
    # When an operator cancels it without a reason
    status, answer = call(context, f"/admin/tournaments/{tid}/cancel", body)
    # Then the request is refused and the tournament stays open, ann registered and charged
    assert refused_for_its_reason(status, answer), (status, answer)
    assert memory.adapters.store.tournaments.get(tid).status == "registering"
    assert memory.accounts.account("ann").balance < 10_000
    assert not [r for r in memory.audit.listing(tournament=tid).records if r.act == "cancel"]


@pytest.mark.parametrize("body", EMPTY_REASONS)
def test_rule_19_disqualify_refuses_an_empty_reason(memory: Services, clock: FrozenClock, context, body: Any) -> None:
    # Given a running tournament
    tid, _ = running(memory, clock)
    # When an operator disqualifies p0 without a reason
    status, answer = call(context, f"/admin/tournaments/{tid}/players/p0/disqualify", body)
    # Then the request is refused and p0 plays on
    assert refused_for_its_reason(status, answer), (status, answer)
    entrant = memory.adapters.store.entrants.get(tid, "p0")
    assert entrant is not None and entrant.disqualified_at is None
    assert not [r for r in memory.audit.listing(tournament=tid).records if r.act == "disqualify"]


def test_rule_19_a_reason_is_kept_stripped_in_the_audit(memory: Services, clock: FrozenClock, context) -> None:
    # Given a running tournament
    tid, _ = running(memory, clock)
    # When an operator terminates it with a reason padded with spaces
    status, _ = call(context, f"/admin/tournaments/{tid}/terminate", {"reason": "  dealer fault  "})
    # Then it is terminated and the audit keeps the reason as written, stripped
    assert status == 200
    assert [r.reason for r in memory.audit.listing(tournament=tid).records if r.act == "terminate"] == ["dealer fault"]
