"""A tournament's life (docs/rules.md, rules 2, 17, 19): its status, and every move from one status to another.

:class:`TournamentLife` is the one place that decides whether a tournament may
move on: each move checks it is allowed from the current status (and, for a
restart or compensation, the time) and answers the life after it, with the
instants and names the move stamps, or raises the refusal the API answers
(``Conflict`` and ``AlreadyStarted`` are 409, ``NotStartedYet`` a start asked
for too early). The services read the stored tournament, ask its life, and
write what it answers (``services/records.py``, ``TournamentRecord.life``).

The moves::

    scheduled --announce--> registering --close_registration--> running
    scheduled, registering --cancel--> cancelled --complete_cancellation--> cancelled, ended
    running, no hand dealt --give_up_start--> cancelled (rule 17.6)
    running --deal_first_hand--> running, started (rule 17's 30 minutes count from it)
    running --terminate--> terminated --restart (before termination + 20:00.000)--> running
    terminated --compensate (from termination + 20:00.000)--> terminated, ended: compensated
    running, terminated --finish--> finished (one player holds every chip)

A finished, cancelled or compensated tournament never changes status again;
moves that only stamp what is stamped already (a second cancel, a compensation
ended) answer the same life, so a retried step is harmless. ``scheduled`` is
what a tournament is before its announcement (``RegistrationWindow.status_at``);
the stored status is ``registering`` from its creation on.

>>> from datetime import UTC
>>> t0 = datetime(2026, 1, 1, 18, tzinfo=UTC)
>>> life = TournamentLife.scheduled("t1", t0).announce().close_registration(t0).deal_first_hand(t0)
>>> terminated = life.terminate(t0 + timedelta(hours=1), "watchdog", "tables made no progress")
>>> terminated.can_restart(t0 + timedelta(hours=1, minutes=19, seconds=59, milliseconds=999))
True
>>> terminated.can_restart(t0 + timedelta(hours=1, minutes=20))
False
>>> str(terminated.compensate(t0 + timedelta(hours=1, minutes=20)).status)
'terminated'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Final

from tourney.domain.errors import AlreadyStarted, Conflict, NotStartedYet
from tourney.domain.registration import TournamentStatus

RESTART_WINDOW: Final = timedelta(minutes=20)
"""A terminated tournament may restart until 20:00.000 after its termination; compensation starts then (17.2, 17.7)."""
START_MISSED: Final = timedelta(minutes=1)
"""EventBridge Scheduler fires to the minute: a start still registering this long after its start time was missed
(its schedule fired early, or was lost), and the watchdog, which runs every minute, starts it."""
START_GIVEN_UP: Final = timedelta(hours=1)
"""A start that closed registration and dealt no hand this long after its start time (a Sit&Go: after it closed)
is given up: the sweeper cancels it and refunds everyone in full (rule 17.6's 24 hours are the outer bound)."""

_S = TournamentStatus


def window_left(terminated_at: datetime, now: datetime) -> timedelta:
    """What is left of the 20 minutes after ``terminated_at``, exact to the microsecond (zero or less: closed).

    Compensation never starts before termination + 20:00.000 (docs/rules.md, rule 17).

    >>> from datetime import UTC
    >>> t0 = datetime(2026, 1, 1, 18, 0, 0, 250_000, tzinfo=UTC)
    >>> window_left(t0, t0 + timedelta(minutes=19, seconds=59, microseconds=750_000))
    datetime.timedelta(microseconds=250000)
    """
    return terminated_at + RESTART_WINDOW - now


@dataclass(frozen=True)
class TournamentLife:
    """A tournament's status with the instants and names its moves stamped (module docstring)."""

    tournament_id: str
    status: TournamentStatus
    start_at: datetime | None = None
    """The start time (None: a Sit&Go, which starts when full); read, never moved."""
    closed_at: datetime | None = None
    """Registration closed (the start, or a cancellation)."""
    started_at: datetime | None = None
    """The first hand dealt (rule 17's 30 minutes count from it)."""
    ended_at: datetime | None = None
    """Finished, compensated, or a cancellation complete (everyone refunded)."""
    terminated_at: datetime | None = None
    terminated_by: str = ""
    termination_reason: str = ""
    restarted_at: datetime | None = None
    """The last restart after a termination (the watchdog's, or an operator's within the 20 minutes)."""
    restarted_by: str = ""
    restart_reason: str = ""
    cancelled_by: str = ""
    cancel_reason: str = ""

    @classmethod
    def scheduled(cls, tournament_id: str, start_at: datetime | None) -> TournamentLife:
        """A tournament created, not yet announced."""
        return cls(tournament_id, _S.SCHEDULED, start_at)

    # -- where it stands ---------------------------------------------------------------

    @property
    def registering(self) -> bool:
        return self.status is _S.REGISTERING

    @property
    def running(self) -> bool:
        return self.status is _S.RUNNING

    @property
    def finished(self) -> bool:
        return self.status is _S.FINISHED

    @property
    def seated_its_field(self) -> bool:
        """Running or finished: its field is the players its start seated, no longer its registrations."""
        return self.running or self.finished

    @property
    def cancelled(self) -> bool:
        return self.status is _S.CANCELLED

    @property
    def in_play(self) -> bool:
        """Running, or terminated and not yet compensated: its pending hand ends are still settled (17.8)."""
        return self.status is _S.RUNNING or self.recovering

    @property
    def never_dealt(self) -> bool:
        """Registration closed and running with no hand dealt: it has not started (rules 5, 17.6)."""
        return self.running and self.started_at is None and self.closed_at is not None

    @property
    def has_not_started(self) -> bool:
        """Before its first hand: an operator's terminate cancels it, everyone refunded (17.6)."""
        return self.status in (_S.SCHEDULED, _S.REGISTERING, _S.CANCELLED) or self.never_dealt

    @property
    def terminated(self) -> bool:
        """Terminated: recovering, or compensated."""
        return self.status is _S.TERMINATED

    def still_terminated(self, since: datetime) -> bool:
        """Terminated by the termination at ``since``: neither restarted nor terminated again after it."""
        return self.terminated and self.terminated_at == since

    @property
    def recovering(self) -> bool:
        """Terminated, not yet compensated: restarted inside its 20 minutes, or compensated after them."""
        return self.status is _S.TERMINATED and self.ended_at is None

    @property
    def compensated(self) -> bool:
        return self.status is _S.TERMINATED and self.ended_at is not None

    @property
    def cancel_cut_short(self) -> bool:
        """Cancelled, its refunds not all made: the sweeper finishes it."""
        return self.cancelled and self.ended_at is None

    def start_missed(self, now: datetime) -> bool:
        """Still taking registrations ``START_MISSED`` past its start time (rule 2: it starts then)."""
        return self.registering and self.start_at is not None and now >= self.start_at + START_MISSED

    def start_given_up(self, now: datetime) -> bool:
        """Registration closed, no hand dealt, and its start ``START_GIVEN_UP`` late (17.6)."""
        if not self.never_dealt or self.closed_at is None:
            return False
        return now >= (self.start_at or self.closed_at) + START_GIVEN_UP

    def window_left(self, now: datetime) -> timedelta:
        """What is left of its 20 minutes (zero when it was never terminated)."""
        return window_left(self.terminated_at, now) if self.terminated_at is not None else timedelta(0)

    def can_restart(self, now: datetime) -> bool:
        return self.recovering and self.terminated_at is not None and self.window_left(now) > timedelta(0)

    def verify_restart(self, now: datetime) -> None:
        """Raise why it cannot restart at ``now`` (409): not terminated, compensated, or its 20 minutes over."""
        if not self.recovering or self.terminated_at is None:
            raise Conflict(
                f"{self.tournament_id} is {self.status}: only a terminated tournament, not yet compensated, restarts"
            )
        if self.window_left(now) <= timedelta(0):
            raise Conflict(
                f"{self.tournament_id} was terminated at {self.terminated_at.isoformat()}: its 20 minutes are over"
            )

    # -- the moves ----------------------------------------------------------------------

    def announce(self) -> TournamentLife:
        """Visible, registration open (rule 2)."""
        if self.status is not _S.SCHEDULED:
            raise Conflict(f"{self.tournament_id} is {self.status}: only a scheduled tournament is announced")
        return replace(self, status=_S.REGISTERING)

    def verify_close_registration(self) -> None:
        """Raise ``NotStartedYet`` unless registering: only registration that is open closes."""
        if not self.registering:
            raise NotStartedYet(f"{self.tournament_id} is {self.status}")

    def close_registration(self, now: datetime) -> TournamentLife:
        """The start closes registration and the tournament runs (rule 2; its first hand starts it)."""
        self.verify_close_registration()
        return replace(self, status=_S.RUNNING, closed_at=now)

    def deal_first_hand(self, now: datetime) -> TournamentLife:
        """The first hand dealt at any table starts the tournament (``started_at``); later deals move nothing."""
        if not self.running:
            raise Conflict(f"{self.tournament_id} is {self.status}: a first hand is dealt only while it runs")
        return self if self.started_at is not None else replace(self, started_at=now)

    def terminate(self, now: datetime, by: str, reason: str) -> TournamentLife:
        """It cannot go on (rule 17): terminated by ``by`` for ``reason``, its 20 minutes counted from ``now``."""
        if not self.running:
            raise Conflict(f"{self.tournament_id} is {self.status}: there is nothing to terminate")
        return replace(self, status=_S.TERMINATED, terminated_at=now, terminated_by=by, termination_reason=reason)

    def restart(self, now: datetime, by: str, reason: str, *, first_deal: bool) -> TournamentLife:
        """Running again inside its 20 minutes (17.2, 17.9); ``first_deal``: the restart deals its first hand."""
        self.verify_restart(now)
        started_at = now if first_deal else self.started_at
        return replace(
            self, status=_S.RUNNING, restarted_at=now, restarted_by=by, restart_reason=reason, started_at=started_at
        )

    def compensate(self, now: datetime) -> TournamentLife:
        """Compensated (17.3), not before termination + 20:00.000: it ends, terminated still."""
        if self.compensated:
            return self
        if not self.recovering or self.terminated_at is None:
            raise Conflict(f"{self.tournament_id} is {self.status}: only a terminated tournament is compensated")
        if self.window_left(now) > timedelta(0):
            raise Conflict(f"{self.tournament_id} may restart until {self.terminated_at + RESTART_WINDOW}")
        return replace(self, ended_at=now)

    def cancel(self, now: datetime, by: str, reason: str) -> TournamentLife:
        """Cancelled before the start (rules 17.6, 19), registration closed ``now``; a second cancel answers it."""
        if self.cancelled:
            return self
        if self.status not in (_S.SCHEDULED, _S.REGISTERING):
            raise AlreadyStarted(
                f"{self.tournament_id} is {self.status}: only a tournament that has not started can be cancelled"
            )
        return replace(self, status=_S.CANCELLED, closed_at=now, cancelled_by=by, cancel_reason=reason)

    def give_up_start(self, by: str, reason: str, *, first_hand_dealt: bool = False) -> TournamentLife:
        """A start that closed registration and dealt no hand is cancelled (17.6).

        ``first_hand_dealt``: the tournament in play has dealt one though this life does not show it yet.
        """
        if self.cancelled:
            return self
        if not self.running or self.started_at is not None or first_hand_dealt:
            raise AlreadyStarted(f"{self.tournament_id} is {self.status} and dealt a hand: its start is not given up")
        return replace(self, status=_S.CANCELLED, cancelled_by=by, cancel_reason=reason)

    def complete_cancellation(self, now: datetime) -> TournamentLife:
        """Everyone refunded: the cancelled tournament ends."""
        if not self.cancelled:
            raise Conflict(f"{self.tournament_id} is {self.status}: only a cancelled tournament completes a cancel")
        return self if self.ended_at is not None else replace(self, ended_at=now)

    def finish(self, now: datetime) -> TournamentLife:
        """One player holds every chip (rule 9): a pending hand end settled after a termination may finish it."""
        if not self.in_play:
            raise Conflict(f"{self.tournament_id} is {self.status}: only a tournament in play finishes")
        return replace(self, status=_S.FINISHED, ended_at=now)
