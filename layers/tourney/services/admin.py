"""Operators: create and announce a tournament, terminate, restart or cancel one (docs/rules.md, rules 2, 17, 19).

Creating writes the tournament and its registration counter shards in one
unit of work and schedules the start (a Sit&Go has none: it starts when
full). Shards: one per 100 seats, at most ``MAX_SHARDS``, with caps adding
up to ``max_players`` (no item is written by every registration).

Terminating a running tournament records who, when and why, and starts the
recovery workflow (rule 17); before the start it cancels the tournament and
refunds everyone in full, as ``cancel`` does (which refuses once a hand was
dealt). A tournament whose start closed registration and dealt no hand has
not started: a terminate or a cancel gives its start up at once (rule 17.6,
``start.give_up_start``). A restart is allowed inside the 20 minutes after a
termination.

Every act is audited (rule 19; ``services/audit.py``): once it committed, its
record is appended with an id taken from the act's stored facts (the
tournament, the termination's or restart's time), so a retried request
writes the record it lost and never a second one.
"""

from __future__ import annotations

import random
from typing import Any

from tourney.domain.errors import AlreadyStarted, IdempotencyConflict, InvalidConfiguration, StaleVersion
from tourney.domain.life import TournamentLife
from tourney.domain.registration import TournamentStatus, check_schedule
from tourney.domain.structure import (
    AddOn,
    LevelSpec,
    RebuyPeriod,
    TournamentConfig,
    blind_structure,
    format_level_minutes,
)
from tourney.services.audit import append, audit_record
from tourney.services.commands import CreateTournament
from tourney.services.deps import Deps, no_wait
from tourney.services.ports import Backoff, Clock, Pushes, StartScheduler, Store, Workflows
from tourney.services.records import AuditAct, CounterShard, TournamentRecord
from tourney.services.recover import RecoveryService
from tourney.services.start import cancel_before_start, give_up_start
from tourney.services.tables import retrying
from tourney.services.views import Cancelled, Created, Restarted, Terminated

MAX_SHARDS = 90
"""Every registration's transaction bumps one shard, and two transactions on one item at once conflict (DynamoDB
cancels one): at 1,000 registrations a second the shards must be many (90: 11 a second each). The wait-listing
transaction checks every shard beside its 9 other items, and the start seals them all in one: 100 items at most."""
SEATS_PER_SHARD = 100


def shard_caps(max_players: int) -> tuple[int, ...]:
    """Caps of the registration counter shards, adding up to ``max_players``.

    >>> shard_caps(9), sum(shard_caps(250_000)), len(shard_caps(250_000)), len(shard_caps(10_000))
    ((9,), 250000, 90, 90)
    """
    n = max(1, min(MAX_SHARDS, max_players // SEATS_PER_SHARD))
    return tuple(max_players // n + (1 if i < max_players % n else 0) for i in range(n))


def config_from(command: CreateTournament) -> TournamentConfig:
    overrides: dict[str, Any] = {"guarantee": command.guarantee}
    for name in (
        "max_players",
        "min_players",
        "seats_per_table",
        "starting_stack",
        "level_minutes",
        "decision_seconds",
        "hand_for_hand",
    ):
        value = getattr(command, name)
        if value is not None:
            overrides[name] = value
    if command.rebuy_levels is not None:
        overrides["rebuy_periods"] = (RebuyPeriod(*command.rebuy_levels),)
    if command.add_on_chips is not None:
        overrides["add_on"] = AddOn(command.add_on_chips)
    if command.payout_percent:
        overrides["payout_percent"] = tuple(command.payout_percent)
    try:
        if command.levels is not None:
            minutes = command.level_minutes or format_level_minutes(command.format)
            overrides["levels"] = blind_structure([LevelSpec(**level) for level in command.levels], minutes)
        return TournamentConfig.for_format(
            command.format, buy_in=command.buy_in, entry_fee=command.entry_fee, **overrides
        )
    except (ValueError, TypeError) as bad:
        raise InvalidConfiguration(str(bad)) from None


class AdminService:
    def __init__(
        self,
        *,
        store: Store,
        pushes: Pushes,
        start_scheduler: StartScheduler,
        workflows: Workflows,
        clock: Clock,
        rng: random.Random,
        recovery: RecoveryService,
        backoff: Backoff = no_wait,
    ) -> None:
        self._d = Deps(
            store=store,
            pushes=pushes,
            start_scheduler=start_scheduler,
            workflows=workflows,
            clock=clock,
            rng=rng,
            backoff=backoff,
        )
        self._recovery = recovery

    def create_tournament(self, command: CreateTournament) -> Created:
        """Create and announce (docs/rules.md, rule 2); the same ``tournament_id`` again answers the first creation."""
        now = self._d.clock.now()
        config = config_from(command)
        announce_at = command.announce_at or now
        check_schedule(config, announce_at, command.start_at)
        if not command.name.strip():
            raise InvalidConfiguration("a tournament needs a name")
        tid = command.tournament_id or f"t-{self._d.rng.getrandbits(48):012x}"
        caps = shard_caps(config.max_players)
        record = TournamentRecord(
            tournament_id=tid,
            name=command.name.strip(),
            config=config,
            status=TournamentLife.scheduled(tid, command.start_at).announce().status,
            announce_at=announce_at,
            start_at=command.start_at,
            created_at=now,
            created_by=command.operator,
            registration_shards=len(caps),
            house_shards=len(caps),
        )
        uow = self._d.store.unit_of_work()
        uow.save(record)
        for i, cap in enumerate(caps):
            uow.save(CounterShard(tid, i, cap))
        try:
            uow.commit()
        except StaleVersion:
            existing = self._d.store.tournaments.get(tid)
            if (existing.name, existing.config, existing.start_at) != (record.name, record.config, record.start_at):
                raise IdempotencyConflict(f"tournament {tid} exists with another configuration") from None
            record = existing
        if record.start_at is not None:
            self._d.start_scheduler.schedule(tid, record.start_at)
        if command.operator:
            after = {
                "name": record.name,
                "format": str(config.format),
                "buy_in": config.buy_in,
                "entry_fee": config.entry_fee,
                "guarantee": config.guarantee,
                "max_players": config.max_players,
                "start_at": record.start_at.isoformat() if record.start_at else None,
                "status": str(record.status_at(now)),
            }
            audit = audit_record(
                self._d,
                audit_id=f"create:{tid}",
                operator=command.operator,
                act=AuditAct.CREATE,
                reason="created and announced",
                tournament_id=tid,
                before=None,
                after=after,
                at=record.created_at,
            )
            append(self._d, audit)
        return Created(tid, str(record.status_at(now)), record.start_at)

    def terminate(self, tid: str, operator: str, reason: str) -> Terminated:
        """Terminate (rule 17; recovery takes over) or, before the start, cancel with full refunds (rule 17.6).

        A terminate that finds the tournament registering cancels it, and one
        that finds it running with no hand dealt gives its start up (both
        answer ``cancelled``, everyone refunded in full at once: rule 17.6);
        if a first deal won that race, it terminates the running tournament
        instead. A terminate of a terminated tournament, not yet compensated,
        requests its recovery workflow again (its first start may have been
        lost). A finished one is refused by its life (409: nothing to terminate).
        """
        from tourney.services.recover import terminate_running

        before = self._d.store.tournaments.get(tid)

        def attempt() -> Terminated:
            now = self._d.clock.now()
            record = self._d.store.tournaments.get(tid)
            life = record.life
            if life.terminated:
                if life.recovering:
                    self._d.workflows.recover(tid)  # again: a lost start is requested anew (idempotent)
                return Terminated(tid, str(record.status), record.terminated_at)
            if life.has_not_started:
                self._cancel_once(record, operator, reason)
                return Terminated(tid, str(TournamentStatus.CANCELLED), None)
            ended = terminate_running(self._d, record, operator, reason, now)
            return Terminated(tid, str(ended.status), now)

        answer = retrying(self._d, attempt)
        at = answer.terminated_at
        self._audit(
            f"terminate:{tid}:{at.isoformat() if at else answer.status}",
            AuditAct.TERMINATE,
            operator,
            reason,
            tid,
            {"status": str(before.status)},
            {"status": answer.status, "terminated_at": at.isoformat() if at else None},
        )
        return answer

    def _audit(
        self,
        audit_id: str,
        act: AuditAct,
        operator: str,
        reason: str,
        tid: str,
        before: dict[str, Any],
        after: dict[str, Any],
    ) -> None:
        record = audit_record(
            self._d,
            audit_id=audit_id,
            operator=operator or "system",
            act=act,
            reason=reason,
            tournament_id=tid,
            before=before,
            after=after,
        )
        append(self._d, record)

    def _cancel_once(self, t: TournamentRecord, operator: str, reason: str) -> int:
        """Cancel ``t`` as read, before the start or with no hand dealt (rule 17.6); players refunded.

        ``StaleVersion`` (read again) when the start or its first deal won
        the race meanwhile; ``AlreadyStarted`` when it had started when read.
        """
        tid = t.tournament_id
        try:
            if t.life.never_dealt:
                return give_up_start(self._d, tid, operator, reason)
            return cancel_before_start(self._d, tid, operator, reason)
        except AlreadyStarted:
            if not t.life.registering and not t.life.never_dealt:
                raise  # it had started when read
            raise StaleVersion(f"{tid} changed as it was cancelled: the start or its first deal won") from None

    def cancel(self, tid: str, operator: str, reason: str) -> Cancelled:
        """Cancel before the first hand, refunding everyone in full (rules 17.6, 19); ``AlreadyStarted`` (409) after.

        Racing the start workflow, exactly one wins (``start.cancel_before_start``).
        A tournament whose start closed registration and dealt no hand has its
        start given up (``start.give_up_start``): cancelled, refunded in full
        at once; a first deal landing meanwhile wins, and the cancel is 409.
        A second cancel answers ``cancelled`` again and refunds nobody twice.
        """
        before = self._d.store.tournaments.get(tid)
        refunded = retrying(self._d, lambda: self._cancel_once(self._d.store.tournaments.get(tid), operator, reason))
        t = self._d.store.tournaments.get(tid)
        self._audit(
            f"cancel:{tid}",
            AuditAct.CANCEL,
            operator,
            reason,
            tid,
            {"status": str(before.status)},
            {"status": str(t.status), "refunded": refunded},
        )
        return Cancelled(tid, str(t.status), refunded, t.ended_at or t.closed_at)

    def restart(self, tid: str, operator: str, reason: str) -> Restarted:
        """Restart a terminated tournament inside its 20 minutes (rule 17; ``RecoveryService.restart``)."""
        before = self._d.store.tournaments.get(tid)
        answer = self._recovery.restart(tid, operator, reason)
        at = answer.restarted_at
        self._audit(
            f"restart:{tid}:{at.isoformat() if at else answer.status}",
            AuditAct.RESTART,
            operator,
            reason,
            tid,
            {
                "status": str(before.status),
                "terminated_at": before.terminated_at.isoformat() if before.terminated_at else None,
            },
            {"status": answer.status, "restarted_at": at.isoformat() if at else None, "level": answer.level},
        )
        return answer
