"""The start workflow's steps (docs/rules.md, rules 2, 3, 5, 6): close registration, seat the tables, deal.

* ``start_due``: the schedule fired (or a Sit&Go filled): start the workflow.
  A schedule that fires before the start time (schedules take whole seconds,
  rounded up; clocks differ) is armed again for the start time.
* ``close_registration``: seal the counter shards and the waiting list (no
  registration gets in after this), refund the waiting list, or cancel and
  refund everyone below ``min_players``; draw the tables and seats with the
  secure generator and store the draw in batches of ``BATCH_TABLES`` tables
  (``SeatingPlan``), then the coordinator's state and the tournament
  (running). Each part is idempotent: a retried step finds what it wrote.
  A cancel racing the start: see ``cancel_before_start`` (exactly one wins).
* ``seat_batch``: write one batch's tables, each with its button drawn by
  cards, and the entrants' records (nothing once cancelled).
* ``deal_first_hands``: start the clock (``started_at``: the first hand dealt)
  and deal the first hand at each table, arming the time-outs.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from tourney.domain.errors import AlreadyStarted, NotFound, NotStartedYet, StaleVersion
from tourney.domain.ledger import pool_account
from tourney.domain.registration import (
    ENTERED,
    TournamentStatus,
    buy_in_refund,
    field_is_full,
    starts_when_full,
    too_few_to_start,
)
from tourney.domain.seating import TableSeating, draw_start
from tourney.domain.structure import TournamentConfig
from tourney.domain.table import Table, TimeBank
from tourney.domain.tournament import TournamentState, entry_contribution
from tourney.services.dealer import publish_orders
from tourney.services.deps import Deps, SeatingPorts
from tourney.services.messages import StartPlan
from tourney.services.records import (
    CoordinatorRecord,
    EntrantRecord,
    RegistrationRecord,
    RegistrationState,
    SeatingPlan,
    TableRecord,
    TournamentRecord,
)
from tourney.services.register import start_when_full
from tourney.services.tables import deal, follow_writes, retrying, table_push
from tourney.services.views import BatchSeated, HandsDealt, StartDue

BATCH_TABLES = 50
REFUNDS_PER_UNIT = 15
"""Refunds per unit of work (each is an entry, its accounts and a registration: under 100 items)."""


def refund_registrations(deps: Deps, tid: str, states: Sequence[RegistrationState]) -> int:
    """Refund buy-in and fee in full to every registration in ``states`` (rules 3, 4, 17.6); idempotent by key.

    Registrations are refunded ``REFUNDS_PER_UNIT`` per unit of work; a unit
    that lost a race (the start refunding the waiting list while an operator
    cancels) reads its registrations again and refunds those still due. The
    count is of the registrations this call refunded.
    """
    t = deps.store.tournaments.get(tid)
    due = [r for r in deps.store.registrations.list(tid) if r.state in states]
    return sum(
        _refund_chunk(deps, t, due[i : i + REFUNDS_PER_UNIT], states) for i in range(0, len(due), REFUNDS_PER_UNIT)
    )


def _refund_chunk(
    deps: Deps, t: TournamentRecord, chunk: Sequence[RegistrationRecord], states: Sequence[RegistrationState]
) -> int:
    store = deps.store
    tid = t.tournament_id
    attempts = 0

    def attempt() -> int:
        nonlocal attempts
        records = list(chunk)
        if attempts:  # lost a race: read them again, refund those still due
            found = (store.registrations.get(tid, r.player_id) for r in chunk)
            records = [r for r in found if r is not None and r.state in states]
        attempts += 1
        now = deps.clock.now()
        uow = store.unit_of_work()
        for r in records:
            entry = buy_in_refund(tid, r.player_id, r.number, t.config, now, t.house_shards)
            if entry is not None:
                uow.post([entry])
            uow.save(replace(r, state=RegistrationState.REFUNDED, shard=None))
        uow.commit()
        return len(records)

    return retrying(deps, attempt)


def seal_registration(deps: Deps, tid: str) -> None:
    """Seal every counter shard and the waiting list: registration is closed from this commit on."""

    def attempt() -> None:
        store = deps.store
        uow = store.unit_of_work()
        for shard in store.registrations.shards(tid):
            if not shard.sealed:
                uow.save(replace(shard, sealed=True))
        waiting = store.registrations.waiting_list(tid)
        if not waiting.sealed:
            uow.save(replace(waiting, sealed=True))
        uow.commit()

    retrying(deps, attempt)


def cancel_before_start(deps: Deps, tid: str, by: str = "", reason: str = "") -> int:
    """Cancel a tournament that has not started and refund everyone in full (rules 17.6, 19); players refunded.

    The tournament is marked cancelled first, on its version and only while
    it is registering: the start commits ``running`` on the same version, so
    of a cancel and a start racing exactly one wins (a cancel that loses is
    ``AlreadyStarted``, 409; a start that loses ends ``cancelled`` before it
    seats or deals anything). Then registration is sealed, every registered
    and wait-listed player refunded (idempotent by key) and ``ended_at`` set;
    a cancel cut short is finished by calling this again (the sweeper does).
    """

    def mark() -> TournamentRecord:
        t = deps.store.tournaments.get(tid)
        if t.life.cancelled:
            return t
        cancelled = t.lived(t.life.cancel(deps.clock.now(), by, reason))
        uow = deps.store.unit_of_work()
        uow.save(cancelled)
        uow.commit()
        return replace(cancelled, version=cancelled.version + 1)

    t = retrying(deps, mark)
    if t.ended_at is not None:
        return 0
    deps.start_scheduler.cancel(tid)
    seal_registration(deps, tid)
    refunded = refund_registrations(deps, tid, ENTERED)  # in the field or on the waiting list

    def finish() -> None:
        current = deps.store.tournaments.get(tid)
        if current.ended_at is not None:
            return
        uow = deps.store.unit_of_work()
        uow.save(current.lived(current.life.complete_cancellation(deps.clock.now())))
        uow.commit()

    retrying(deps, finish)
    return refunded


def give_up_start(deps: Deps, tid: str, by: str, reason: str) -> int:
    """Cancel a tournament whose start never dealt a hand and refund everyone in full (rule 17.6); players refunded.

    The sweeper gives a start up ``life.START_GIVEN_UP`` late; an operator's
    terminate or cancel gives it up at once (``AdminService``). One unit of
    work marks the tournament and the coordinator's state cancelled, on their
    versions and only while no hand was dealt: the first deal starts the clock
    on the same versions, so of the two exactly one wins (a start step
    delivered later seats and deals nothing; a give-up that loses is
    ``AlreadyStarted``). The refunds are ``cancel_before_start``'s.
    """

    def mark() -> None:
        t = deps.store.tournaments.get(tid)
        if t.life.cancelled:
            return
        coordinator = deps.store.coordinators.get(tid)
        dealt = coordinator is not None and coordinator.state.started_at is not None
        given_up = t.lived(t.life.give_up_start(by, reason, first_hand_dealt=dealt))
        uow = deps.store.unit_of_work()
        if coordinator is not None:
            coordinator.state.status = given_up.status
            uow.save(coordinator)
        uow.save(given_up)
        uow.commit()

    retrying(deps, mark)
    return cancel_before_start(deps, tid, by, reason)


def refund_everyone(deps: Deps, tid: str) -> int:
    """Cancel before the start: refund every registered and wait-listed player (17.6); ``cancel_before_start``."""
    return cancel_before_start(deps, tid)


def _already_closed(t: TournamentRecord) -> StartPlan | None:
    """The answer of a start step retried after registration closed (running or cancelled); None while open."""
    tid = t.tournament_id
    if t.life.running and t.batches:
        return StartPlan(
            tournament_id=tid, status="running", batches=list(range(t.batches)), tables=t.tables_at_start,
            players=t.players_at_start,
        )  # fmt: skip
    if t.life.cancelled:
        return StartPlan(tournament_id=tid, status="cancelled")
    t.life.verify_close_registration()
    return None


class StartService(SeatingPorts):
    def start_due(self, tid: str) -> StartDue:
        """Start the start workflow if the tournament is due (its start time, or a Sit&Go full)."""
        store = self._d.store
        t = store.tournaments.get(tid)
        if not t.life.registering:
            return StartDue(tid, False, f"it is {t.status}")
        if starts_when_full(t.config):
            if not start_when_full(self._d, t):
                counted = sum(s.count for s in store.registrations.shards(tid, t.registration_shards))
                return StartDue(tid, False, f"{counted} of {t.config.max_players} registered")
            return StartDue(tid, True)
        elif t.start_at is None:
            return StartDue(tid, False, "no start time")
        elif self._d.clock.now() < t.start_at:
            # Fired early (the scheduler fires to the minute): the watchdog starts it when due (life.start_missed).
            return StartDue(tid, False, "not yet")
        self._d.workflows.start_tournament(tid)
        return StartDue(tid, True)

    def close_registration(self, tid: str) -> StartPlan:
        """Close registration and plan the tables (docs/rules.md, rules 2, 3, 5); cancel below ``min_players``."""
        d = self._d
        store = d.store
        t = store.tournaments.get(tid)
        closed = _already_closed(t)
        if closed is not None:
            return closed
        now = d.clock.now()
        self._check_start_due(t, now)
        seal_registration(d, tid)
        players = sorted(r.player_id for r in store.registrations.list(tid, RegistrationState.REGISTERED))
        if too_few_to_start(t.config, len(players)):
            try:
                refunded = cancel_before_start(d, tid, "start", f"fewer than {t.config.min_players} players")
            except AlreadyStarted:
                return self.close_registration(tid)  # a retry of this step started it meanwhile
            return StartPlan(tournament_id=tid, status="cancelled", refunded=refunded)
        refunded = refund_registrations(d, tid, (RegistrationState.WAITLISTED,))
        plans = self._seating_plans(tid, players, t.config.seats_per_table)
        sizes = {str(s.table): len(s.seats) for plan in plans for s in plan.tables}
        if not retrying(d, lambda: self._commit_start(t, now, sizes, len(plans), len(players))):
            return StartPlan(tournament_id=tid, status="cancelled", refunded=refunded)
        return StartPlan(
            tournament_id=tid, status="running", batches=[p.batch for p in plans], tables=len(sizes),
            players=len(players), refunded=refunded,
        )  # fmt: skip

    def _check_start_due(self, t: TournamentRecord, now: datetime) -> None:
        """A Sit&Go starts full, a scheduled tournament at its start time (rule 2): else ``NotStartedYet``."""
        tid = t.tournament_id
        if starts_when_full(t.config):
            counted = sum(s.count for s in self._d.store.registrations.shards(tid, t.registration_shards))
            if not field_is_full(t.config, counted):
                raise NotStartedYet(f"the Sit&Go {tid} is not full")
        elif t.start_at is None or now < t.start_at:
            raise NotStartedYet(f"{tid} starts at {t.start_at}")

    def _seating_plans(self, tid: str, players: Sequence[str], seats_per_table: int) -> list[SeatingPlan]:
        """The tables and seats drawn for ``players`` (rule 5), in batches: drawn once, read again on a retry."""
        store = self._d.store
        try:
            store.registrations.plan(tid, 0)
            return self._stored_plans(tid)
        except NotFound:
            pass
        seatings = draw_start(list(players), seats_per_table, self._d.rng)
        plans = [
            SeatingPlan(tid, i // BATCH_TABLES, tuple(seatings[i : i + BATCH_TABLES]))
            for i in range(0, len(seatings), BATCH_TABLES)
        ]
        for plan in plans:
            uow = store.unit_of_work()
            uow.save(plan)
            uow.commit()
        return plans

    def _commit_start(
        self, t: TournamentRecord, now: datetime, sizes: dict[str, int], batches: int, players: int
    ) -> bool:
        """Mark ``t`` running with its coordinator's state; False when a cancel won meanwhile."""
        store = self._d.store
        tid = t.tournament_id
        current = store.tournaments.get(tid)
        if current.life.running:
            return True
        if not current.life.registering:
            return False  # cancelled meanwhile: the cancel won, nothing is seated or dealt
        uow = store.unit_of_work()
        if store.coordinators.get(tid) is None:
            uow.save(CoordinatorRecord(tid, TournamentState.start(tid, t.config, sizes)))
        uow.save(
            replace(
                current.lived(current.life.close_registration(now)),
                tables_at_start=len(sizes),
                batches=batches,
                players_at_start=players,
            )
        )
        uow.commit()
        return True

    def _stored_plans(self, tid: str) -> list[SeatingPlan]:
        plans: list[SeatingPlan] = []
        while True:
            try:
                plans.append(self._d.store.registrations.plan(tid, len(plans)))
            except NotFound:
                return plans

    def seat_batch(self, tid: str, batch: int) -> BatchSeated:
        """Write one batch's tables with their buttons drawn by cards (docs/rules.md, rules 5, 6), and the entrants."""
        d = self._d
        store = d.store
        t = store.tournaments.get(tid)
        if t.life.cancelled:
            return BatchSeated(tid, batch, ())
        config = t.config
        plan = store.registrations.plan(tid, batch)
        now = d.clock.now()
        written: list[str] = []
        for seating in plan.tables:
            written.append(str(seating.table))
            # A commit that lost (a retry of this step wrote the table meanwhile, or a throttled transaction)
            # reads again: the table is there, or it is written now.
            retrying(d, functools.partial(self._seat_table, tid, config, seating, now))
        return BatchSeated(tid, batch, tuple(written))

    def _seat_table(self, tid: str, config: TournamentConfig, seating: TableSeating, now: datetime) -> None:
        """Write one table of the draw with its button drawn, and its entrants; nothing when it is written."""
        store = self._d.store
        table_id = str(seating.table)
        try:
            store.tables.get(tid, table_id)
            return
        except NotFound:
            pass
        table = Table(seating.table, config.seats_per_table)
        for seat, player in seating.seats:
            table.seat_player(player, seat, config.starting_stack, bank=TimeBank(config.time_bank_seconds))
        if len(table.active) >= 2:
            table.draw_button(rng=self._d.rng)  # a lone player's table draws when a second player arrives
        uow = store.unit_of_work()
        uow.save(
            TableRecord(
                tid,
                table_id,
                table,
                level=1,
                updated_at=now,
                decision_seconds=config.decision_seconds,
                away_seconds=config.away_decision_seconds,
            )
        )
        for _, player in seating.seats:
            uow.save(EntrantRecord(tid, player, entry_contribution(player, config), table_id))
        uow.commit()

    def deal_first_hands(self, tid: str, tables: Sequence[str]) -> HandsDealt:
        """Deal the first hand at ``tables``; the first deal of the tournament starts its clock (rule 17)."""
        d = self._d
        store = d.store

        def start_clock() -> TournamentState | None:
            coordinator = store.coordinators.get(tid)
            if coordinator is None:
                raise NotFound(f"{tid} has no tables planned")
            state = coordinator.state
            if state.status is not TournamentStatus.RUNNING:
                return None  # terminated during the start: the clock starts with the restart's deal
            now = d.clock.now()
            if state.first_hand_dealt(now):
                t = store.tournaments.get(tid)
                if not t.life.running:  # cancelled or terminated since the coordinator was read: read both again
                    raise StaleVersion(f"{tid} is {t.status}: its first deal reads it again")
                uow = store.unit_of_work()
                if state.prizes_due(now):  # a freezeout's pool is final once registration closed: fixed now
                    uow.post(state.fix_prizes(store.ledger.balance(pool_account(tid)), now))
                uow.save(replace(coordinator, state=state))
                publish_orders(store, uow, state)
                uow.save(t.lived(t.life.deal_first_hand(now)))
                uow.commit()
            return state

        state = retrying(d, start_clock) if store.tournaments.get(tid).life.running else None
        if state is None:
            return HandsDealt(tid, (), None)  # cancelled, or terminated during the start: nothing is dealt
        dealt = _deal_each(d, tid, tables, state)
        follow_writes(d, dealt)  # their time-outs armed together, then their pushes in one round
        d.pushes.many([table_push(d, record, "hand_dealt") for record in dealt])
        return HandsDealt(tid, tuple(r.table_id for r in dealt), state.started_at)


def _deal_each(d: Deps, tid: str, tables: Sequence[str], state: TournamentState) -> list[TableRecord]:
    """The first hand dealt at each of ``tables`` (read together, each written on its own): the tables as stored.

    A table dealt already, or halted by a termination (the restart deals it), is left as it is.
    """
    read = d.store.tables.get_many(tid, tables)
    dealt: list[TableRecord] = []
    for table_id in tables:

        def deal_one(table_id: str = table_id) -> None:
            record = read.pop(table_id, None) or d.store.tables.get(tid, table_id)  # a retry reads it again
            if record.table.hand_number > 0 or record.halted:
                return
            fresh = deal(d, record, state, d.clock.now())
            if fresh is None:
                return
            uow = d.store.unit_of_work()
            uow.save(fresh)
            uow.commit()
            dealt.append(replace(fresh, version=fresh.version + 1))

        retrying(d, deal_one)
    return dealt
