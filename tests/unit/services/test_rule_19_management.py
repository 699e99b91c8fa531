"""Rule 19: management decisions, each final and audited (who, when, why, before, after), over the memory store.

Stack and balance adjustments, disqualifications, mutes, deposits, and the
older acts (create, cancel, terminate, restart): every act writes one audit
record, a redelivered act writes nothing twice, and bad input changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.errors import Conflict, HandInProgress, IllegalAction, InsufficientFunds, NotFound, StaleVersion
from tourney.domain.ledger import HOUSE_ADJUSTMENTS, house_account, player_account, pool_account
from tourney.domain.registration import TournamentStatus
from tourney.domain.table import Awaiting
from tourney.services.commands import CreateTournament
from tourney.services.records import AuditAct, TableRecord
from tourney.simulation.checks import Checks

from tests.support.driver import Driver
from tests.unit.services.conftest import fund, started
from tests.unit.services.test_rule_17_termination_defects import fold_to_the_end_of_the_hand


def acts(services: Services, *, tournament: str | None = None, player: str | None = None) -> list[str]:
    return [line.act for line in services.audit.listing(tournament=tournament, player=player).records]


def check_chips_and_money(services: Services, tid: str) -> None:
    """The simulation's invariants: every chip bought or adjusted is in play, the money held (docs/rules.md, 12)."""
    Checks(services.adapters.store, tid, full_check_players=10**6, check_every=1).tournament_wide(full=True)


def chips_in_play(services: Services, tid: str) -> int:
    tables = [r for r in services.adapters.store.tables.list(tid) if not r.closed]
    return sum(sp.stack for r in tables for sp in r.table.seats.values()) + sum(
        c for r in tables for _, c in r.pending_chips
    )


# -- the older acts ----------------------------------------------------------------


def test_rule_19_create_cancel_terminate_and_restart_are_audited_once_each(
    services: Services, clock: FrozenClock
) -> None:
    # Given an operator who creates a tournament (twice: the same id again is the same act)
    command = CreateTournament(
        name="Audited",
        format="freezeout",
        buy_in=1_000,
        entry_fee=100,
        start_at=clock.now().replace(hour=14),
        tournament_id="ta",
        operator="olga",
    )
    services.admin.create_tournament(command)
    services.admin.create_tournament(command)
    # When they cancel it a minute later, twice
    clock.advance(60)
    services.admin.cancel("ta", "olga", "no room")
    services.admin.cancel("ta", "olga", "no room")
    # Then the audit holds one create and one cancel, with who, why, before and after
    records = services.audit.listing(tournament="ta").records
    assert [r.act for r in records] == ["create", "cancel"]
    cancel = records[1]
    assert (cancel.operator, cancel.reason, cancel.tournament) == ("olga", "no room", "ta")
    assert cancel.before == {"status": "registering"} and cancel.after == {"status": "cancelled", "refunded": 0}


def test_rule_19_terminate_and_restart_are_audited(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a running tournament terminated by an operator (the request sent twice), then restarted
    tid = started(services, create, clock)
    services.admin.terminate(tid, "olga", "server fault")
    services.admin.terminate(tid, "olga", "server fault")
    services.recovery.cancel_hands(tid)
    clock.advance(60)
    services.admin.restart(tid, "olga", "fixed")
    # Then the audit holds one termination and one restart, each with the states before and after
    records = services.audit.listing(tournament=tid).records
    assert [r.act for r in records] == ["terminate", "restart"]
    assert records[0].before == {"status": "running"} and records[0].after["status"] == "terminated"  # type: ignore[index]
    assert records[1].after["status"] == "running"  # type: ignore[index]


# -- stack adjustments -------------------------------------------------------------


def test_rule_19_stack_adjustment_during_the_players_hand_is_added_when_it_ends(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a running table, every player dealt in
    tid = started(services, create, clock)
    store = services.adapters.store
    before = chips_in_play(services, tid)
    # When an operator adds 500 chips to p1
    answer = services.management.adjust_stack(tid, "p1", 500, "olga", "disconnection", key="k1")
    # Then they wait for the hand's end (its stack is unchanged meanwhile), and chip conservation counts them
    assert answer.pending
    assert chips_in_play(services, tid) == before + 500
    assert store.entrants.get(tid, "p1").chips_adjusted == 500  # type: ignore[union-attr]
    fold_to_the_end_of_the_hand(services, tid)
    Driver(services).drain_coordinator()
    assert chips_in_play(services, tid) == before + 500
    assert not store.tables.get(tid, "1").pending_chips
    # And the act is audited once, even when the request comes again
    services.management.adjust_stack(tid, "p1", 500, "olga", "disconnection", key="k1")
    assert chips_in_play(services, tid) == before + 500
    (line,) = services.audit.listing(player="p1").records
    assert (line.act, line.before["table"], line.after["delta"]) == ("stack_adjustment", "1", 500)  # type: ignore[index]


def test_rule_19_stack_adjustment_between_hands_removes_chips_and_never_during_the_hand(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a player dealt in the hand in progress
    tid = started(services, create, clock)
    store = services.adapters.store
    before = chips_in_play(services, tid)
    # When an operator removes chips from them now, then the act is refused and changes nothing
    with pytest.raises(HandInProgress):
        services.management.adjust_stack(tid, "p2", -100, "olga", "chip dumping", key="k1")
    assert chips_in_play(services, tid) == before and acts(services, tournament=tid) == []
    # When the hand is over (its end not yet coordinated: the table is between hands), chips come off at once
    fold_to_the_end_of_the_hand(services, tid)
    seat = store.tables.get(tid, "1").table.seat_of("p2")
    stack = store.tables.get(tid, "1").table.stack(seat)
    services.management.adjust_stack(tid, "p2", -100, "olga", "chip dumping", key="k2")
    assert store.tables.get(tid, "1").table.stack(seat) == stack - 100
    assert chips_in_play(services, tid) == before - 100
    # And never the last chip
    with pytest.raises(Conflict):
        services.management.adjust_stack(tid, "p2", -(stack - 100), "olga", "x", key="k5")
    # And bad input changes nothing
    for delta in (0, 10**12):
        with pytest.raises(IllegalAction):
            services.management.adjust_stack(tid, "p2", delta, "olga", "x", key="k3")
    with pytest.raises(NotFound):
        services.management.adjust_stack(tid, "nobody", 5, "olga", "x", key="k4")


# -- disqualification --------------------------------------------------------------


def not_to_act(services: Services, tid: str) -> tuple[TableRecord, Awaiting, str]:
    """Table 1 of a hand in progress, the decision it awaits, and a player at it who is not the one to act."""
    record = services.adapters.store.tables.get(tid, "1")
    awaiting = record.table.awaiting()
    assert awaiting is not None
    return record, awaiting, next(p for p in record.table.players.values() if p != awaiting.player)


def test_rule_19_disqualified_players_hand_is_folded_at_once_and_they_take_no_place(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given six players at one table, a hand in progress, p3 not the one to act
    tid = started(services, create, clock)
    store = services.adapters.store
    record, awaiting, victim = not_to_act(services, tid)
    # When an operator adds chips to one player, removes some from another between hands, and disqualifies a third
    services.management.adjust_stack(tid, awaiting.player, 700, "olga", "goodwill", key="k1")
    check_chips_and_money(services, tid)
    answer = services.management.disqualify(tid, victim, "olga", "collusion")
    check_chips_and_money(services, tid)
    # Then their hand is folded at once, and the decision awaited is still the same one
    assert answer.folded
    record = store.tables.get(tid, "1")
    hand = record.table.hand
    assert hand is not None and str(hand.status(record.table.seat_of(victim))) == "folded"
    after = record.table.awaiting()
    assert after is not None and (after.seat, after.seq) == (awaiting.seat, awaiting.seq)
    # And the standings no longer list them, though their chips leave play only when the hand ends
    standings = services.lobby.standings(tid)
    assert victim not in [row.player for row in standings.players] and standings.players_left == 5
    # And, once the hand ends, their chips leave play and they are dealt no further hand
    fold_to_the_end_of_the_hand(services, tid)
    check_chips_and_money(services, tid)
    Driver(services).drain_coordinator()
    check_chips_and_money(services, tid)
    assert victim not in store.tables.get(tid, "1").table.players.values()
    entrant = store.entrants.get(tid, victim)
    assert entrant is not None and entrant.placing is None and entrant.chips_removed == answer.chips
    # And a second disqualification is the same act, audited once
    services.management.disqualify(tid, victim, "olga", "collusion")
    assert acts(services, player=victim) == ["disqualify"]
    # And the tournament plays to its end: the others take places 1 to 5, nobody the sixth
    Driver(services).play_to_the_end(tid)
    check_chips_and_money(services, tid)
    places = sorted(e.placing.place for e in store.entrants.list(tid) if e.placing is not None)
    assert places == [1, 2, 3, 4, 5]
    assert store.entrants.get(tid, victim).placing is None  # type: ignore[union-attr]
    store.money.verify_invariants()


def test_rule_19_disqualified_in_the_money_forfeits_that_prize_and_others_keep_theirs(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a heads-up tournament paying 70/30
    tid = started(services, create, clock, players=2, payout_percent=(70, 30))
    store = services.adapters.store
    pool = store.ledger.balance(pool_account(tid))
    balances = {p: store.ledger.balance(player_account(p)) for p in ("p0", "p1")}
    house = store.ledger.balance(house_account(tid))
    # When an operator disqualifies p0
    services.management.disqualify(tid, "p0", "olga", "multi-accounting")
    Driver(services).drain_coordinator()
    # Then p1 wins (place 1, 70 %), p0 takes no place and no prize, and the 30 % goes to the house's revenue
    assert store.tournaments.get(tid).status is TournamentStatus.FINISHED
    winner = store.entrants.get(tid, "p1")
    assert winner is not None and winner.placing is not None and winner.placing.place == 1
    assert store.ledger.balance(player_account("p1")) == balances["p1"] + pool * 70 // 100
    assert store.ledger.balance(player_account("p0")) == balances["p0"]
    assert store.ledger.balance(house_account(tid)) == house + pool - pool * 70 // 100
    store.money.verify_invariants()


def test_rule_19_disqualification_refused_outside_play_changes_nothing(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament still registering
    tid = create()
    fund(services, "ann")
    services.registration.register(tid, "ann")
    # When an operator disqualifies a player, then it is refused (409) and nothing is audited
    with pytest.raises(Conflict):
        services.management.disqualify(tid, "ann", "olga", "x")
    assert acts(services, player="ann") == []


# -- mutes -------------------------------------------------------------------------


def test_rule_19_mute_and_unmute_are_stored_for_the_chat_and_audited(services: Services, clock: FrozenClock) -> None:
    # When an operator mutes ann for 30 minutes
    answer = services.management.mute("ann", "olga", "abuse", 30, key="m1")
    clock.advance(60)
    # Then the chat reads her muted until then, and not after
    mute = services.adapters.store.mutes.get("ann")
    assert answer.muted and mute is not None and mute.muted_at(clock.now())
    assert not mute.muted_at(clock.now() + timedelta(minutes=30))
    # When the operator unmutes her (the request sent twice), then she may chat; unmuting again is refused
    services.management.unmute("ann", "olga", "apologised", key="u1")
    services.management.unmute("ann", "olga", "apologised", key="u1")
    assert not services.management.mute_of("ann").muted
    with pytest.raises(Conflict):
        services.management.unmute("ann", "olga", "again", key="u2")
    records = services.audit.listing(player="ann").records
    assert [r.act for r in records] == ["mute", "unmute"]
    assert records[0].after["muted"] and records[1].before["muted"]  # type: ignore[index]
    # And a mute of 0 minutes is bad input
    with pytest.raises(IllegalAction):
        services.management.mute("ann", "olga", "x", 0, key="m2")


# -- money -------------------------------------------------------------------------


def test_rule_19_balance_adjustment_is_a_double_entry_with_the_house_adjustments_account(
    services: Services, clock: FrozenClock
) -> None:
    # Given ann with 10,000 cents
    fund(services, "ann")
    ledger = services.adapters.store.ledger
    # When an operator credits 2,500 and then takes 1,000 (the second request redelivered)
    services.management.adjust_balance("ann", 2_500, "olga", "goodwill", key="a1")
    clock.advance(60)
    services.management.adjust_balance("ann", -1_000, "olga", "chargeback", key="a2")
    services.management.adjust_balance("ann", -1_000, "olga", "chargeback", key="a2")
    # Then her account and the house's adjustments account move in lock-step, and both acts are audited
    assert ledger.balance(player_account("ann")) == 11_500
    assert ledger.balance(HOUSE_ADJUSTMENTS) == -1_500
    services.adapters.store.money.verify_invariants()
    records = services.audit.listing(player="ann").records
    assert [(r.act, r.before, r.after["balance"]) for r in records] == [  # type: ignore[index]
        ("balance_adjustment", {"balance": 10_000}, 12_500),
        ("balance_adjustment", {"balance": 12_500}, 11_500),
    ]
    # And taking more than she holds, or an amount out of bounds, changes nothing
    with pytest.raises(InsufficientFunds):
        services.management.adjust_balance("ann", -20_000, "olga", "x", key="a3")
    for amount in (0, 10**9 + 1):
        with pytest.raises(IllegalAction):
            services.management.adjust_balance("ann", amount, "olga", "x", key="a4")
    assert ledger.balance(player_account("ann")) == 11_500 and len(records) == 2
    assert len(services.audit.listing(player="ann").records) == 2


def test_rule_19_deposit_is_audited_once_per_key(services: Services) -> None:
    # When an operator deposits for ann, the request redelivered
    services.management.deposit("ann", 5_000, "olga", key="d1")
    answer = services.management.deposit("ann", 5_000, "olga", key="d1")
    # Then she is credited once, and the audit holds one deposit
    assert answer.balance == 5_000
    assert acts(services, player="ann") == [str(AuditAct.DEPOSIT)]


# -- the audit itself --------------------------------------------------------------


def test_rule_19_audit_record_is_never_written_twice(services: Services) -> None:
    # Given a stored audit record
    services.management.deposit("ann", 5_000, "olga", key="d1")
    (line,) = services.audit.listing(player="ann").records
    stored = services.adapters.store.audit.get(line.id, None, "ann")
    assert stored is not None
    # When anything saves a record of that id again, changed, then the store refuses it
    uow = services.adapters.store.unit_of_work()
    uow.save(type(stored)(**{**stored.__dict__, "reason": "rewritten", "version": 0}))
    with pytest.raises(StaleVersion):
        uow.commit()
    assert services.adapters.store.audit.get(line.id, None, "ann") == stored


def test_rule_19_audit_is_listed_for_one_tournament_or_one_player(services: Services) -> None:
    assert services.audit.listing().records == ()  # no filter: the latest acts
    with pytest.raises(IllegalAction):
        services.audit.listing(tournament="t1", player="ann")
    assert services.audit.listing(tournament="t1").records == ()


def test_rule_19_disqualified_then_terminated_leaves_play_with_the_cancelled_hand_and_is_not_dealt_again(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a player disqualified during a hand, and the tournament terminated before that hand ends
    tid = started(services, create, clock)
    store = services.adapters.store
    record, _, victim = not_to_act(services, tid)
    start_stack = record.table.seats[record.table.seat_of(victim)].stack
    services.management.disqualify(tid, victim, "olga", "collusion")
    services.admin.terminate(tid, "olga", "server fault")
    # When the recovery workflow cancels the hands
    services.recovery.cancel_hands(tid)
    # Then the void hand gave them back their stack, and they left play with it, placeless
    assert victim not in store.tables.get(tid, "1").table.players.values()
    entrant = store.entrants.get(tid, victim)
    assert entrant is not None and entrant.chips_removed == start_stack and entrant.placing is None
    coordinator = store.coordinators.get(tid)
    assert coordinator is not None and coordinator.state.remaining == 5
    check_chips_and_money(services, tid)
    # And a restart deals the next hand without them
    clock.advance(60)
    services.admin.restart(tid, "olga", "fixed")
    table = store.tables.get(tid, "1").table
    assert table.hand_in_progress and victim not in table.players.values()
    Driver(services).play_to_the_end(tid)
    assert sorted(e.placing.place for e in store.entrants.list(tid) if e.placing is not None) == [1, 2, 3, 4, 5]
    check_chips_and_money(services, tid)
