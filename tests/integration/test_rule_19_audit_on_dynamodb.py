"""Rule 19 on DynamoDB (moto): the audit is append-only, listed per tournament and per player; management acts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from tourney.adapters.dynamo.models.audit import act_sk, audit_pk
from tourney.adapters.dynamo.schema import AUDIT
from tourney.adapters.dynamo.store import DynamoStore
from tourney.adapters.memory import (
    FrozenClock,
)
from tourney.domain.errors import InsufficientFunds, StaleVersion
from tourney.domain.ledger import HOUSE_ADJUSTMENTS, player_account
from tourney.services.commands import CreateTournament
from tourney.services.records import AuditAct, AuditRecord

from tests.support.aws import aws, dynamodb, raw_item  # noqa: F401
from tests.support.contracts import operator_act
from tests.support.driver import Driver
from tests.support.handler_room import services_on_dynamo

pytestmark = pytest.mark.usefixtures("dynamodb")


def record(audit_id: str, clock: FrozenClock, **kw: object) -> AuditRecord:
    """A stack adjustment about ann in t1, now."""
    before, after = {"stack": 100}, {"stack": 600, "nested": {"list": [1, 2]}}
    kw = {"act": AuditAct.STACK_ADJUSTMENT, "tournament_id": "t1", "before": before, "after": after, **kw}
    return operator_act(audit_id, clock.now(), **kw)


def test_rule_19_audit_records_round_trip_and_are_listed_per_tournament_and_per_player() -> None:
    # Given three records: two about ann (one in t1, one in no tournament), one about t1 alone
    clock = FrozenClock()
    store = DynamoStore()
    first = record("a1", clock)
    clock.advance(1)
    second = record("a2", clock, tournament_id=None, act=AuditAct.MUTE)
    clock.advance(1)
    third = record("a3", clock, player_id=None, act=AuditAct.TERMINATE)
    for r in (first, second, third):
        uow = store.unit_of_work()
        uow.save(r)
        uow.commit()
    # Then the tournament's and the player's listings hold them, oldest first, as they were written
    stored = [AuditRecord(**{**r.__dict__, "version": 1}) for r in (first, second, third)]
    assert list(store.audit.for_tournament("t1")) == [stored[0], stored[2]]
    assert list(store.audit.for_player("ann")) == [stored[0], stored[1]]
    assert store.audit.get("a2", None, "ann") == stored[1]


def test_rule_19_audit_record_is_never_overwritten_on_dynamodb() -> None:
    # Given a stored record
    clock = FrozenClock()
    store = DynamoStore()
    uow = store.unit_of_work()
    uow.save(record("a1", clock))
    uow.commit()
    before = raw_item(AUDIT.name(), audit_pk("t1", "ann"), act_sk("a1"))
    # When the same act is saved again with another reason, then the put's condition refuses it
    uow = store.unit_of_work()
    uow.save(record("a1", clock, reason="rewritten"))
    with pytest.raises(StaleVersion):
        uow.commit()
    assert raw_item(AUDIT.name(), audit_pk("t1", "ann"), act_sk("a1")) == before


def test_rule_19_management_acts_on_dynamodb_are_audited_with_their_effects() -> None:
    # Given the services over DynamoDB and a running heads-up tournament
    clock = FrozenClock()
    services = services_on_dynamo(clock, seed=19)
    services.admin.create_tournament(
        CreateTournament(
            name="Dyn", format="freezeout", buy_in=1_000, entry_fee=100, seats_per_table=2,
            start_at=clock.now() + timedelta(hours=1), tournament_id="dq", operator="olga",
        )
    )  # fmt: skip
    for player in ("p0", "p1"):
        services.management.deposit(player, 5_000, "olga", key=f"d-{player}")
        services.registration.register("dq", player, key=f"r-{player}")
    clock.advance(3_600)
    services.start.start_due("dq")
    Driver(services).run_workflows()
    ledger = services.deps.store.ledger
    # When an operator adjusts a stack, a balance, mutes, and disqualifies p0
    clock.advance(1)
    services.management.adjust_stack("dq", "p1", 250, "olga", "compensation", key="s1")
    clock.advance(1)
    services.management.adjust_balance("p0", 400, "olga", "goodwill", key="b1")
    with pytest.raises(InsufficientFunds):
        services.management.adjust_balance("p0", -1_000_000, "olga", "too much", key="b2")
    clock.advance(1)
    services.management.mute("p0", "olga", "abuse", 10, key="m1")
    clock.advance(1)
    services.management.disqualify("dq", "p0", "olga", "collusion")
    Driver(services).drain_coordinator()
    # Then each act took effect: the stack and the disqualification on the stored table and entrants
    store = services.deps.store
    assert store.entrants.get("dq", "p1").chips_adjusted == 250  # type: ignore[union-attr]
    p0 = store.entrants.get("dq", "p0")
    assert p0 is not None and p0.disqualified_at is not None and p0.placing is None
    assert ledger.balance(HOUSE_ADJUSTMENTS) < 0
    assert store.mutes.get("p0").muted_at(clock.now())  # type: ignore[union-attr]
    assert store.tournaments.get("dq").status == "finished"
    assert ledger.balance(player_account("p0")) == 5_000 - 1_100 + 400
    # And the audit lists them, per tournament and per player, the refused adjustment nowhere
    assert [r.act for r in store.audit.for_tournament("dq")] == [
        AuditAct.CREATE,
        AuditAct.STACK_ADJUSTMENT,
        AuditAct.DISQUALIFY,
    ]
    assert [r.act for r in store.audit.for_player("p0")] == [
        AuditAct.DEPOSIT,
        AuditAct.BALANCE_ADJUSTMENT,
        AuditAct.MUTE,
        AuditAct.DISQUALIFY,
    ]
