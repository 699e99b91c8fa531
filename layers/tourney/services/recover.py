"""Termination and recovery (docs/rules.md, rule 17), the sweeper (17.6) and the watchdog.

The recovery workflow (Step Functions) calls, in order: ``cancel_hands``
(rule 17.1: stacks back to the start of each hand in progress, the clock
paused at the termination), then ``try_restart`` until it answers
``restarted`` or 20 minutes have passed since the termination, then
``compensate`` (rule 17.3; it answers ``retry`` with the seconds left while
the window is open). The window is the workflow's, not a process's.

Reading: a tournament terminated by the watchdog (play stopped) is restarted
as soon as its tables can deal again; one terminated by an operator is not
restarted by itself (the operator decided it cannot go on): the operator may
restart it inside its 20 minutes (``restart``, docs/rules.md), else it is
compensated when the 20 minutes are over.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from tourney.domain.errors import AlreadyStarted, Conflict
from tourney.domain.formats import TournamentFormat
from tourney.domain.ledger import pool_account
from tourney.domain.life import window_left
from tourney.domain.prizes import Placing
from tourney.domain.registration import TournamentStatus
from tourney.services.compensation import UNITS_PER_STEP, pay_step
from tourney.services.dealer import publish_orders
from tourney.services.deps import Deps, SeatingPorts
from tourney.services.management import disqualified_leave
from tourney.services.messages import HandEnded, RebuyClosed
from tourney.services.ports import PlayerPush
from tourney.services.records import TableRecord, TournamentRecord
from tourney.services.register import start_when_full
from tourney.services.start import cancel_before_start, give_up_start
from tourney.services.tables import after_write, arm, deal, retrying
from tourney.services.views import RecoveryStep, Restarted, SweepReport, WatchReport, placed_push

SWEEP_GRACE = timedelta(minutes=15)
"""A tournament still registering this long after its start time should have started (rule 17.6)."""
STALL_SLACK = timedelta(minutes=5)
"""A table whose hand made no progress this long past its own deadline (the decision awaited, with the time bank
its player may still start: ``Table.longest_wait``) has stalled: its tournament is terminated. The slack covers a
time-out's delivery and the watchdog's re-arming of a lost one."""
RESEND_AFTER = timedelta(minutes=1)
"""A hand end not coordinated this long after its table's last write was lost: the watchdog sends it again."""
REARM_SLACK = timedelta(minutes=1)
"""A time-out that has not applied this long after it was due (or, for a shorter decision, as long again as the
decision's time) was lost: the watchdog arms it again, for the time left (``time_out_lost``)."""
START_QUIET = timedelta(minutes=10)
"""A start not complete this long after registration closed (or after the last request) is requested again."""
RECOVERY_QUIET = timedelta(minutes=5)
"""A terminated tournament's recovery workflow shows a sign of life at every step (at least every minute while
its window is open); this long without one, the watchdog requests the workflow again (a lost start, a failure)."""
WATCHDOG = "watchdog"
ENTRIES_PER_UNIT = 20


def resend_due(quiet: timedelta) -> bool:
    """Whether the watchdog sends a hand end again after ``quiet``: at 1, 2, 4, 8, ... times ``RESEND_AFTER``.

    A hand end is usually only waiting behind others in the tournament's FIFO group (one that failed
    holds the group for the queue's visibility timeout). Sent again every minute, each would be one more
    message for the group to get through, one more chance to fail and hold it, and a large field would
    fall further behind at every minute; backing off keeps the resends a few per lost message.
    """
    periods = quiet // RESEND_AFTER
    return periods >= 1 and periods & (periods - 1) == 0


def time_out_lost(quiet: timedelta, seconds: int) -> bool:
    """Whether a table quiet for ``quiet`` lost the time-out of the decision it awaits for ``seconds`` (rule 16).

    ``seconds``: the decision's own time, or its time bank's once that runs. Lost past that time and a delivery
    slack as long again, at most ``REARM_SLACK``: armed again then, for what is left (nothing), it applies well
    before the table counts as stalled (``STALL_SLACK`` past ``Table.longest_wait``), at any decision time.

    >>> time_out_lost(timedelta(seconds=29), 15), time_out_lost(timedelta(seconds=30), 15)
    (False, True)
    >>> time_out_lost(timedelta(seconds=359), 300), time_out_lost(timedelta(seconds=360), 300)
    (False, True)
    """
    due = timedelta(seconds=seconds)
    return quiet >= due + min(due, REARM_SLACK)


def _each_on_its_own(
    tournaments: Sequence[TournamentRecord],
    check: Callable[[TournamentRecord], None],
    failed: list[str],
    on_error: Callable[[str, Exception], None] | None,
) -> None:
    """``check`` every tournament; one that raises is listed in ``failed`` and given to ``on_error`` (the handler
    logs it as an error), and the others are still checked: one tournament's failure never stops the rest."""
    for t in tournaments:
        try:
            check(t)
        except Exception as error:
            failed.append(t.tournament_id)
            if on_error is not None:
                on_error(t.tournament_id, error)


def seconds_up(left: timedelta) -> int:
    """Whole seconds to wait for ``left`` to pass, rounded up (a workflow's ``Wait`` never ends early).

    >>> seconds_up(timedelta(milliseconds=1)), seconds_up(timedelta(seconds=900)), seconds_up(timedelta(0))
    (1, 900, 0)
    """
    whole, rest = divmod(left, timedelta(seconds=1))
    return max(0, int(whole) + (1 if rest else 0))


def terminate_running(deps: Deps, t: TournamentRecord, by: str, reason: str, now: datetime) -> TournamentRecord:
    """Terminate a running tournament (rule 17) and start its recovery workflow; the terminated record.

    One unit of work writes the tournament (terminated: who, when, why) and
    the coordinator's state (terminated, its clock paused at ``now``), both on
    their versions: from this commit on the coordinator settles hand ends
    without dealing, and no rebuy or add-on is accepted (they check the
    tournament's version), nor away or back. The tables learn it from ``cancel_hands``,
    the workflow's first step, which halts them. ``StaleVersion`` when either
    changed since it was read (the caller reads again).
    """
    ended = replace(t.lived(t.life.terminate(now, by, reason)), workflow_seen_at=None)
    uow = deps.store.unit_of_work()
    uow.save(ended)
    coordinator = deps.store.coordinators.get(t.tournament_id)
    placings: tuple[Placing, ...] = ()
    if coordinator is not None:
        state = coordinator.state
        if state.hand_for_hand is not None:  # a round's eliminations are placed now, as the round stops
            pool = pool_account(t.tournament_id)
            placings, entries = state.close_round(now, lambda: deps.store.ledger.balance(pool))
            uow.post(entries)
            for p in placings:
                entrant = deps.store.entrants.get(t.tournament_id, p.player_id)
                if entrant is not None:
                    uow.save(replace(entrant, placing=p, placed_at=now))
        state.status = ended.status
        if state.clock is not None and not state.clock.is_paused:
            state.clock = state.clock.pause(now)
        uow.save(coordinator)
        publish_orders(deps.store, uow, state)
    uow.commit()
    deps.pushes.many([PlayerPush(p.player_id, placed_push(t.tournament_id, p)) for p in placings])
    deps.workflows.recover(t.tournament_id)
    return replace(ended, version=ended.version + 1)


HALTS_PER_UNIT = 20
"""Tables halted in one unit of work (one transaction of 21 items with the tournament's check): few enough that an
action racing the halt at one of them seldom sends the batch round again."""


def _halt(
    d: Deps, tid: str, terminated_at: datetime, tables: Sequence[str], *, alone: bool = False
) -> tuple[int, list[str]]:
    """Halt ``tables`` in one unit of work checked against the termination (``cancel_hands``): the hands cancelled,
    and the tables left for a unit of work of their own (a void hand whose disqualified players leave play, which
    writes the coordinator's state); ``alone``: that unit of work, for one such table."""
    now_t = d.store.tournaments.get(tid)
    if not now_t.life.still_terminated(terminated_at):
        return 0, []  # restarted (or terminated again) meanwhile: not this termination's tables any more
    uow = d.store.unit_of_work()
    uow.check(now_t)
    cancelled, deferred, halted = 0, [], 0
    for current in d.store.tables.get_many(tid, tables).values():
        in_progress = current.table.hand_in_progress
        if current.halted and not in_progress:
            continue
        if in_progress and current.disqualified and not alone:
            deferred.append(current.table_id)
            continue
        if in_progress:
            current.table.cancel_hand()
            # bought in the void hand: theirs now (rule 17.1)
            current = current.holding(current.between_hands.hand_cancelled(current.table))
            cancelled += 1
        if in_progress and current.disqualified:
            current = disqualified_leave(d, current, uow)  # their hand is void: they leave now (rule 19)
        uow.save(replace(current, halted=True, updated_at=d.clock.now()))
        halted += 1
    if halted:
        uow.commit()
    return cancelled, deferred


class RecoveryService(SeatingPorts):
    def _tables(self, tid: str) -> list[TableRecord]:
        return [t for t in self._d.store.tables.list(tid) if not t.closed]

    def cancel_hands(self, tid: str) -> RecoveryStep:
        """Halt every table, cancelling its hand in progress (rule 17.1), and pause the clock at the termination.

        Each table is written once, ``halted`` with its hand cancelled, on the
        condition that the tournament is still the one read (terminated, not
        restarted meanwhile): a table halted after a restart would never deal
        again. ``HALTS_PER_UNIT`` tables share one unit of work and one check
        of the tournament (a check is a write unit on the tournament's item:
        one per table at 250,000 players neared its partition's limit). An
        action that reached a table between the termination and this write is
        voided with its hand.
        """
        d = self._d
        t = self._seen(tid)
        if t is None or t.terminated_at is None:
            return RecoveryStep(tid, "nothing")
        tables = [r.table_id for r in self._tables(tid)]
        cancelled = 0
        for first in range(0, len(tables), HALTS_PER_UNIT):
            batch = tables[first : first + HALTS_PER_UNIT]
            halted, alone = retrying(d, functools.partial(_halt, d, tid, t.terminated_at, batch))
            cancelled += halted
            for table_id in alone:  # its disqualified leave play with the void hand: a unit of work of its own
                cancelled += retrying(d, functools.partial(_halt, d, tid, t.terminated_at, [table_id], alone=True))[0]
        terminated_at = t.terminated_at

        def pause() -> None:
            coordinator = d.store.coordinators.get(tid)
            if coordinator is None or coordinator.state.clock is None or coordinator.state.clock.is_paused:
                return
            if coordinator.state.status is not TournamentStatus.TERMINATED:
                return  # restarted meanwhile (its state and clock commit together): the clock runs again
            now_t = d.store.tournaments.get(tid)
            if not now_t.life.still_terminated(terminated_at):
                return  # restarted, or terminated again: not this termination's clock any more
            coordinator.state.clock = coordinator.state.clock.pause(terminated_at)
            uow = d.store.unit_of_work()
            uow.check(now_t)
            uow.save(coordinator)
            publish_orders(d.store, uow, coordinator.state)
            uow.commit()

        retrying(d, pause)
        return RecoveryStep(tid, "cancelled", cancelled_hands=cancelled)

    def _seen(self, tid: str) -> TournamentRecord | None:
        """A recovery step ran: the terminated tournament with ``workflow_seen_at`` now (None: not terminated).

        The watchdog requests the workflow again when no step has been seen
        for ``RECOVERY_QUIET`` (a lost start, or an execution that failed).
        """
        d = self._d

        def attempt() -> TournamentRecord | None:
            t = d.store.tournaments.get(tid)
            if not t.life.recovering:
                return None
            seen = replace(t, workflow_seen_at=d.clock.now())
            uow = d.store.unit_of_work()
            uow.save(seen)
            uow.commit()
            return replace(seen, version=seen.version + 1)

        return retrying(d, attempt)

    def try_restart(self, tid: str) -> RecoveryStep:
        """Resume the same level with the time that was left and deal again (rule 17.2), if it can restart."""
        d = self._d
        t = self._seen(tid)
        if t is None or t.terminated_at is None:
            return RecoveryStep(tid, "nothing")
        now = d.clock.now()
        remaining = window_left(t.terminated_at, now)
        if remaining <= timedelta(0):
            return RecoveryStep(tid, "compensate")
        left = seconds_up(remaining)
        if t.terminated_by != WATCHDOG:
            return RecoveryStep(tid, "retry", seconds_left=left)
        try:
            restarted = self._restart(tid, WATCHDOG, "the tables can deal again")
        except Conflict:
            restarted = None  # a table cannot deal yet: nothing was committed, the next try looks again
        if restarted is None:
            return RecoveryStep(tid, "retry", seconds_left=left)
        return RecoveryStep(tid, "restarted")

    def restart(self, tid: str, operator: str, reason: str) -> Restarted:
        """An operator restarts a terminated tournament inside its 20 minutes (docs/rules.md, rule 17).

        The hands in progress are cancelled first if the recovery workflow has
        not done it yet (17.1); then the same level resumes with the time that
        was left and every table deals (17.2). The workflow, at its next step,
        finds it running and ends. Refused (``Conflict``, 409) when the
        tournament is not terminated, or at or after termination + 20:00.000.
        """
        d = self._d
        t = d.store.tournaments.get(tid)
        t.life.verify_restart(d.clock.now())
        self.cancel_hands(tid)
        restarted = self._restart(tid, operator, reason)
        if restarted is None:
            status = d.store.tournaments.get(tid).status
            raise Conflict(f"{tid} could not restart: it is {status}, or its 20 minutes are over")
        coordinator = d.store.coordinators.get(tid)
        assert coordinator is not None and restarted.restarted_at is not None
        level = coordinator.state.level_number(restarted.restarted_at)
        return Restarted(tid, str(restarted.status), restarted.terminated_at, restarted.restarted_at, level)

    def _restart(self, tid: str, by: str, reason: str) -> TournamentRecord | None:
        """Restart a terminated tournament: the clock resumed (same level, same time left), every table dealt.

        One unit of work writes the coordinator's state (running, its clock
        resumed) and the tournament (running, who restarted it and why); then
        each table is cleared of ``halted`` and dealt, or its pending hand end
        sent to the coordinator, which deals it. None when it is not
        terminated (any more). A tournament terminated before its first deal
        starts its clock now (``started_at``). It commits only a restart it
        can complete: a table that cannot set its next hand's positions, or a
        start that never seated every table, raises (``Conflict``) before
        anything is written.
        """
        d = self._d

        def attempt() -> TournamentRecord | None:
            t = d.store.tournaments.get(tid)
            coordinator = d.store.coordinators.get(tid)
            now = d.clock.now()
            if coordinator is None or not t.life.can_restart(now):
                return None  # not terminated, compensated, or its window closed: compensation may be under way
            state = coordinator.state
            tables = self._tables(tid)
            if state.started_at is None and len(tables) < t.tables_at_start:
                raise Conflict(f"{tid} never seated every table of its draw: its start, not a restart, deals it")
            for record in tables:
                _verify_deals(record, state.balancing.waiting)
            if state.clock is not None and state.clock.is_paused:
                state.clock = state.clock.resume(now)
            restarted = t.lived(t.life.restart(now, by, reason, first_deal=state.first_hand_dealt(now)))
            state.status = restarted.status
            uow = d.store.unit_of_work()
            uow.save(coordinator)
            publish_orders(d.store, uow, state)
            uow.save(restarted)
            uow.commit()
            return replace(restarted, version=restarted.version + 1)

        restarted = retrying(d, attempt)
        if restarted is None:
            return None
        for record in self._tables(tid):
            self._resume(record.table_id, restarted)
        return restarted

    def _resume(self, table_id: str, restarted: TournamentRecord) -> None:
        d = self._d
        tid = restarted.tournament_id

        def attempt() -> None:
            t = d.store.tournaments.get(tid)
            if not t.life.running or t.restarted_at != restarted.restarted_at:
                return  # terminated again meanwhile: the next restart resumes it
            record = d.store.tables.get(tid, table_id)
            table = record.table
            hand = table.hand
            over = hand is not None and hand.is_over and not hand.is_cancelled
            pending = over and record.coordinated_hand < table.hand_number
            coordinator = d.store.coordinators.get(tid)
            assert coordinator is not None
            fresh = replace(record, halted=False)
            dealt = None
            if not pending and table_id not in coordinator.state.balancing.waiting:
                dealt = deal(d, fresh, coordinator.state, d.clock.now())
            if record.halted or dealt is not None:
                written = dealt or fresh
                uow = d.store.unit_of_work()
                uow.check(t)
                uow.save(written)
                uow.commit()
                if dealt is not None:
                    after_write(d, replace(dealt, version=dealt.version + 1), "hand_dealt")
            if pending:
                d.coordination.hand_ended(HandEnded(tournament_id=tid, table=table_id, hand=table.hand_number))

        retrying(d, attempt)

    def compensate(self, tid: str, *, units: int = UNITS_PER_STEP) -> RecoveryStep:
        """After 20 minutes: one step of compensating the remaining players by rule 17.3.

        Rollback, payout or refund share, paid in steps of at most ``units``
        units of work: the answer says ``more`` until the plan is paid and the
        tournament ended, then a step answers ``nothing``. Any step may run
        again, or at the same time as another, at any point: the plan is fixed
        from facts that do not change once terminated, and every entry is
        idempotent (``services/compensation.py``). Each step is a sign of life
        for the watchdog, which requests the workflow again for a terminated
        tournament not ended whose recovery has gone quiet.
        """
        d = self._d
        t = self._seen(tid)
        if t is None or t.terminated_at is None:
            return RecoveryStep(tid, "nothing")
        left = window_left(t.terminated_at, d.clock.now())
        if left > timedelta(0):
            return RecoveryStep(tid, "retry", seconds_left=seconds_up(left))
        return pay_step(d, t, units=units, cancel_hands=self.cancel_hands)

    def sweep(
        self, now: datetime | None = None, *, on_error: Callable[[str, Exception], None] | None = None
    ) -> SweepReport:
        """Refund every tournament that should have started and did not (rule 17.6); start a full Sit&Go.

        Late: still registering 15 minutes after its start time, or running an hour after it with no hand
        dealt (its start keeps failing: ``life.START_GIVEN_UP``). Each tournament is swept on its own: one that
        raises is listed as ``failed`` and given to ``on_error`` (the handler logs it), and the sweep goes on.
        """
        d = self._d
        now = now or d.clock.now()
        refunded: list[str] = []
        started: list[str] = []
        failed: list[str] = []
        players = 0

        def sweep_one(t: TournamentRecord) -> None:
            nonlocal players
            due = t.start_at is not None and now >= t.start_at + SWEEP_GRACE
            late = t.life.registering and due
            cut_short = t.life.cancel_cut_short
            try:
                if late or cut_short:
                    players += cancel_before_start(d, t.tournament_id, "sweeper", "did not start")
                    refunded.append(t.tournament_id)
                elif t.life.start_given_up(now):
                    players += give_up_start(d, t.tournament_id, "sweeper", "its start never dealt a hand")
                    refunded.append(t.tournament_id)
                elif t.config.format is TournamentFormat.SNG and start_when_full(d, t):
                    started.append(t.tournament_id)  # a full Sit&Go whose start request was lost (idempotent)
            except AlreadyStarted:
                pass  # it started as the sweeper came

        _each_on_its_own(d.store.tournaments.list(), sweep_one, failed, on_error)
        return SweepReport(tuple(refunded), players, started=tuple(started), failed=tuple(failed))

    def watch(
        self, now: datetime | None = None, *, on_error: Callable[[str, Exception], None] | None = None
    ) -> WatchReport:
        """Find stalled tables and set them going again, or terminate a tournament whose play stopped.

        A missed start (still registering a minute past its start time) started, a lost hand end sent
        again, a lost time-out re-armed, a failed start started again, a table a
        restart left halted resumed, a lost recovery workflow requested again. Each tournament is checked
        on its own: one whose check raises is listed as ``failed`` and given to ``on_error`` (the handler
        logs it as an error), and the watch goes on with the others.
        """
        now = now or self._d.clock.now()
        found = _Watched()
        _each_on_its_own(
            self._d.store.tournaments.list(), lambda t: self._watch_one(t, now, found), found.failed, on_error
        )
        return WatchReport(
            tuple(found.terminated),
            tuple(found.resent),
            tuple(found.rearmed),
            found.running,
            found.tables_open,
            recovering=tuple(found.recovering),
            resumed=tuple(found.resumed),
            starting=tuple(found.starting),
            failed=tuple(found.failed),
        )

    def _watch_one(self, t: TournamentRecord, now: datetime, found: _Watched) -> None:
        d = self._d
        if t.life.start_missed(now):
            d.workflows.start_tournament(t.tournament_id)  # one execution name: a start already running is a no-op
            found.starting.append(t.tournament_id)
            return
        if t.life.recovering:
            if self._recovery_lost(t, now):
                found.recovering.append(t.tournament_id)
            return
        if not t.life.running:
            return
        found.running += 1
        stalled = False
        tables = d.store.tables.list(t.tournament_id)
        if self._start_lost(t, tables, now):
            found.starting.append(t.tournament_id)
        for record in (r for r in tables if not r.closed):
            found.tables_open += 1
            quiet = now - (record.updated_at or now)
            table = record.table
            hand = table.hand
            if record.halted:
                # Running, yet halted a minute after the restart: it died between its commit and this table.
                if t.restarted_at is not None and now - t.restarted_at >= RESEND_AFTER:
                    self._resume(record.table_id, t)
                    found.resumed.append(record.table_id)
            elif hand is not None and hand.is_over and record.coordinated_hand < table.hand_number:
                if record.rebuy_pending:
                    # A rebuy window lasts a decision's time: one open a minute past that lost its close.
                    if resend_due(quiet - timedelta(seconds=record.decision_seconds)):
                        d.coordination.rebuy_closed(
                            RebuyClosed(tournament_id=t.tournament_id, table=record.table_id, hand=table.hand_number)
                        )
                        found.resent.append(record.table_id)
                elif resend_due(quiet):
                    d.coordination.hand_ended(
                        HandEnded(tournament_id=t.tournament_id, table=record.table_id, hand=table.hand_number)
                    )
                    found.resent.append(record.table_id)
            elif table.hand_in_progress:
                normal, when_away = record.decision_seconds, record.away_seconds
                deadline = timedelta(seconds=table.longest_wait(normal=normal, when_away=when_away))
                awaiting = table.awaiting(normal=normal, when_away=when_away)
                if quiet >= deadline + STALL_SLACK:
                    stalled = True
                elif awaiting is not None and time_out_lost(quiet, awaiting.seconds):
                    arm(d, record, now)  # for the time left: never past the table's deadline
                    found.rearmed.append(record.table_id)
        if stalled:

            def stop(tid: str = t.tournament_id) -> None:
                current = d.store.tournaments.get(tid)
                if current.life.running:
                    terminate_running(d, current, WATCHDOG, "tables made no progress", now)

            retrying(d, stop)
            found.terminated.append(t.tournament_id)

    def _start_lost(self, t: TournamentRecord, tables: Sequence[TableRecord], now: datetime) -> bool:
        """Start the start workflow again if it failed before every table dealt (each step is idempotent).

        A task whose retries are spent fails the execution; registration is closed and the money in the
        pool, so the tournament must start. Incomplete: a table of the draw not written yet, or one that
        can deal and never did. Requested at most every ``START_QUIET``, stamped as ``workflow_seen_at``.
        """
        if t.closed_at is None or t.life.start_given_up(now):
            return False  # given up: the sweeper refunds it (rule 17.6)
        missing = len(tables) < t.tables_at_start
        if not missing and not any(
            not r.closed and not r.halted and r.table.hand_number == 0 and len(r.table.active) >= 2 for r in tables
        ):
            return False
        last = t.workflow_seen_at or t.closed_at
        if now - last < START_QUIET or not self._stamp_seen(t, now, lambda c: c.life.running):
            return False
        self._d.workflows.start_again(t.tournament_id)
        return True

    def _recovery_lost(self, t: TournamentRecord, now: datetime) -> bool:
        """Request the recovery workflow again if no step of it was seen for ``RECOVERY_QUIET`` (rule 17).

        The request is stamped as a sign of life, so it is repeated at most
        every ``RECOVERY_QUIET`` while nothing answers; starting the workflow
        is idempotent, and so is each of its steps.
        """
        last = t.workflow_seen_at or t.terminated_at or now
        if now - last < RECOVERY_QUIET:
            return False
        if not self._stamp_seen(t, now, lambda c: c.life.recovering):
            return False
        self._d.workflows.recover(t.tournament_id)
        return True

    def _stamp_seen(self, t: TournamentRecord, now: datetime, still: Callable[[TournamentRecord], bool]) -> bool:
        """Stamp ``workflow_seen_at`` now if the tournament read again is ``still`` as found (a conditional write)."""
        d = self._d

        def stamp() -> bool:
            current = d.store.tournaments.get(t.tournament_id)
            if not still(current):
                return False
            uow = d.store.unit_of_work()
            uow.save(replace(current, workflow_seen_at=now))
            uow.commit()
            return True

        return retrying(d, stamp)


@dataclass
class _Watched:
    """What one watch found and did, tournament by tournament (``WatchReport``)."""

    terminated: list[str] = field(default_factory=list)
    resent: list[str] = field(default_factory=list)
    rearmed: list[str] = field(default_factory=list)
    recovering: list[str] = field(default_factory=list)
    resumed: list[str] = field(default_factory=list)
    starting: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    running: int = 0
    tables_open: int = 0


def _verify_deals(record: TableRecord, waiting: Collection[str]) -> None:
    """Raise what a restart's deal at this table would raise (``_resume``; ``tables.deal``), before any commit."""
    table = record.table
    hand = table.hand
    pending = hand is not None and hand.is_over and not hand.is_cancelled
    if pending and record.coordinated_hand < table.hand_number:
        return  # the coordinator settles its end and deals
    if record.table_id in waiting or record.rebuy_pending or table.hand_in_progress or len(table.active) < 2:
        return  # it does not deal now
    if table.button_seat is not None:  # else it draws for the button first (rule 6)
        table.positions_to_deal()
