"""Management decisions (docs/rules.md, rule 19): stack and balance adjustments, disqualifications, mutes, deposits.

Every act is final and audited: its :class:`~tourney.services.records.AuditRecord`
(who, when, why, the state before and after) is saved in the unit of work that
makes the act, so neither is ever stored without the other. Each act carries a
key (the client's ``Idempotency-Key``, else the request's id); the record's id
is derived from it, so an act redelivered finds its record and changes
nothing. Bad input raises ``IllegalAction`` (422) and a state that does not
allow the act ``Conflict`` (409); nothing is written then.

Readings:

* **Stack adjustment** (``delta`` chips, positive or negative) applies between
  hands at the player's table. A player dealt in the hand in progress gets
  added chips when it ends (as chips bought during a hand:
  ``TableRecord.pending_chips``); chips are removed only while the player is
  not in a hand (409 ``hand_in_progress`` otherwise: the operator asks again
  between hands), and never the last one (disqualify instead). Chip
  conservation counts it: ``EntrantRecord.chips_adjusted``.
* **Disqualification**: the player's hand in progress is folded at once
  (``Table.fold_at_once``, in turn or not); the player stays seated, dealt in
  no further hand, until the coordinator settles that hand's end, which takes
  them and their chips out of play (``BetweenHands.leave_play``; ``chips_removed``) and
  places the others as if they had busted then (``TournamentState.hand_ended``,
  ``disqualified``): no place, no further prize; prizes paid are kept; buy-ins
  and fees are not refunded. A player at a table that waits between hands with
  its last hand settled (alone, or for the final table) cannot be
  disqualified until that table deals (409). The last player still in play at
  a table (seated, not disqualified, with chips or still in the hand) cannot
  be disqualified (409 ``last_player_in_play``, ``Table.verify_may_disqualify``):
  that hand's end must leave a player with chips there, so the tournament
  always has a winner who was not disqualified. Two disqualifications racing
  at one table write its record over the version read: the second is read
  again and refused.
* **Balance adjustment**: one double-entry ledger entry between the player's
  account and the house's adjustments account (``ledger.balance_adjustment``),
  at most ``MAX_ADJUSTMENT_CENTS`` either way; a player's balance never goes
  below zero (``InsufficientFunds``, 422).
* **Mute** for ``minutes`` (or until unmuted): a ``MuteRecord`` the chat reads
  (``store.mutes.get(player).muted_at(now)``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from tourney.domain.errors import Conflict, HandInProgress, IdempotencyConflict, IllegalAction, NotFound
from tourney.domain.ledger import (
    MAX_ADJUSTMENT_CENTS,
    Entry,
    balance_adjustment,
    deposit,
    player_account,
    pool_account,
)
from tourney.services.audit import MAX_REASON, audit_record
from tourney.services.dealer import publish_orders
from tourney.services.deps import Deps, no_wait
from tourney.services.ports import Backoff, Clock, CoordinatorQueue, Pushes, Store, TimeoutScheduler, UnitOfWork
from tourney.services.records import AuditAct, AuditRecord, EntrantRecord, MuteRecord, TableRecord, evolve
from tourney.services.tables import after_write, push_table, retrying
from tourney.services.views import DepositView, View

V = TypeVar("V")

MAX_STACK_ADJUSTMENT = 1_000_000_000
"""The largest stack adjustment, either way, in chips."""
MAX_MUTE_MINUTES = 525_600
"""The longest timed mute: a year (no ``minutes``: until unmuted)."""
MAX_KEY = 128


@dataclass(frozen=True)
class StackAdjusted(View):
    tournament_id: str
    player: str
    delta: int
    stack: int
    """The stack now (before the pending chips, while the player's hand is played)."""
    pending: bool
    audit_id: str


@dataclass(frozen=True)
class Disqualified(View):
    tournament_id: str
    player: str
    table: str
    folded: bool
    """The hand in progress was folded at once."""
    chips: int
    """Chips that leave play when the hand ends (or now, between hands)."""
    audit_id: str


@dataclass(frozen=True)
class MuteView(View):
    player: str
    muted: bool
    until: datetime | None
    audit_id: str


@dataclass(frozen=True)
class BalanceAdjusted(View):
    player: str
    amount: int
    balance: int
    key: str
    audit_id: str


def _key(key: str) -> str:
    if not key or len(key) > MAX_KEY:
        raise IllegalAction(f"an operator act needs a key of 1 to {MAX_KEY} characters")
    return key


def _same_request(done: AuditRecord, operator: str, reason: str, facts: Mapping[str, object]) -> AuditRecord:
    """``done``, the act stored under this request's key, if it is this request; else 409 and nothing changes.

    A key names one request: a replay (same operator, reason and ``facts``, the act's own fields as its record
    keeps them in ``after``) answers the first answer; the same key with anything else is refused.
    """
    after = done.after or {}
    if (
        done.operator != operator
        or done.reason != reason.strip()[:MAX_REASON]
        or any(after.get(name) != value for name, value in facts.items())
    ):
        raise IdempotencyConflict(f"the key of {done.audit_id} was used with another request")
    return done


def disqualified_leave(deps: Deps, record: TableRecord, uow: UnitOfWork) -> TableRecord:
    """The disqualified players at a table whose hand was cancelled (rule 17.1) leave play now, in ``uow``.

    No hand's end will take them out (a cancelled hand has none), so this does
    what the coordinator does at one: off the table with their chips (the
    stacks the cancellation restored), the tournament's counts and places
    (``TournamentState.disqualified_between_hands``), their entrants. A table
    left empty is closed. The caller saves the table returned and commits.
    """
    tid = record.tournament_id
    _, gone = record.between_hands.leave_play(record.table, ())
    coordinator = deps.store.coordinators.get(tid)
    if coordinator is None:
        raise NotFound(f"{tid} is not running")
    entries, emptied = coordinator.state.disqualified_between_hands(
        record.table_id, len(gone), deps.clock.now(), lambda: deps.store.ledger.balance(pool_account(tid))
    )
    uow.save(coordinator)
    publish_orders(deps.store, uow, coordinator.state)
    uow.post(entries)
    for player, chips in gone.items():
        entrant = deps.store.entrants.get(tid, player)
        if entrant is not None:
            uow.save(evolve(entrant, chips_removed=chips, table_id=None))
    return record.holding(record.between_hands.settled(), closed=record.closed or emptied)


class ManagementService:
    def __init__(
        self,
        *,
        store: Store,
        pushes: Pushes,
        timers: TimeoutScheduler,
        coordination: CoordinatorQueue,
        clock: Clock,
        backoff: Backoff = no_wait,
    ) -> None:
        self._d = Deps(
            store=store, pushes=pushes, timers=timers, coordination=coordination, clock=clock, backoff=backoff
        )

    # -- helpers -------------------------------------------------------------------

    def _once(self, asked: _Asked, view: Callable[[AuditRecord], V], act: Callable[[datetime], V]) -> V:
        """``act`` at the present moment, retried on a conflict, unless ``asked`` is stored: its replay answers it."""

        def attempt() -> V:
            done = self._d.store.audit.get(asked.audit_id, asked.tournament_id, asked.player)
            if done is None:
                return act(self._d.clock.now())
            if asked.facts is None:
                return view(done)
            return view(_same_request(done, asked.operator, asked.reason, asked.facts))

        return retrying(self._d, attempt)

    def _seated(self, tid: str, player: str) -> tuple[EntrantRecord, TableRecord]:
        t = self._d.store.tournaments.get(tid)
        if not t.life.running:
            raise Conflict(f"{tid} is {t.status}: management of players applies while it runs")
        entrant = self._d.store.entrants.get(tid, player)
        if entrant is None:
            raise NotFound(f"{player} is not an entrant of {tid}")
        if entrant.eliminated or entrant.placing is not None or entrant.table_id is None:
            raise Conflict(f"{player} is out of {tid}")
        record = self._d.store.tables.get(tid, entrant.table_id)
        if record.halted or record.closed:
            raise Conflict(f"table {entrant.table_id} of {tid} is not in play")
        if player not in record.table.players.values():
            raise Conflict(f"{player} is moving between tables: ask again")
        return entrant, record

    # -- stack adjustments ---------------------------------------------------------

    def adjust_stack(self, tid: str, player: str, delta: int, operator: str, reason: str, key: str) -> StackAdjusted:
        """Add (or remove) ``delta`` chips at ``player``'s table, between hands (module docstring)."""
        if type(delta) is not int or delta == 0 or abs(delta) > MAX_STACK_ADJUSTMENT:
            raise IllegalAction(f"a stack adjustment is a non-zero int of chips up to {MAX_STACK_ADJUSTMENT}")
        audit_id = f"stack:{tid}:{player}:{_key(key)}"
        asked = _Asked(AuditAct.STACK_ADJUSTMENT, audit_id, operator, reason, player, tid, facts={"delta": delta})

        def adjust(now: datetime) -> StackAdjusted:
            d = self._d
            t = d.store.tournaments.get(tid)
            entrant, record = self._seated(tid, player)
            table = record.table
            seat = table.seat_of(player)
            stack = table.stack(seat)
            pending_before = record.between_hands.pending_for(player)
            in_hand = table.in_hand(player)
            if delta > 0:
                fresh = record.holding(record.between_hands.add(table, player, delta), updated_at=now)
            elif in_hand:
                raise HandInProgress(f"{player} is in the hand in progress: chips are removed between hands")
            elif stack + delta < 1:
                raise Conflict(f"{player} has {stack} chips: a stack adjustment leaves at least one (or disqualify)")
            else:
                table.remove_chips(player, -delta)
                fresh = evolve(record, updated_at=now)
            after_stack = fresh.table.stack(seat)
            pending_after = fresh.between_hands.pending_for(player)
            audit = asked.audited(
                d,
                before={"stack": stack, "pending_chips": pending_before, "table": record.table_id},
                after={"stack": after_stack, "pending_chips": pending_after, "delta": delta, "pending": in_hand},
                at=now,
            )
            uow = d.store.unit_of_work()
            uow.check(t)  # a termination committed meanwhile refuses it
            uow.save(evolve(entrant, chips_adjusted=entrant.chips_adjusted + delta))
            uow.save(fresh)
            uow.save(audit)
            uow.commit()
            push_table(d, evolve(fresh, version=fresh.version + 1), "stack_adjusted")
            return _stack_view(audit)

        return self._once(asked, _stack_view, adjust)

    # -- disqualification ----------------------------------------------------------

    def disqualify(self, tid: str, player: str, operator: str, reason: str) -> Disqualified:
        """Disqualify ``player`` (module docstring); a second disqualification answers the first."""
        asked = _Asked(AuditAct.DISQUALIFY, f"disqualify:{tid}:{player}", operator, reason, player, tid)

        def disqualify(now: datetime) -> Disqualified:
            d = self._d
            t = d.store.tournaments.get(tid)
            entrant, record = self._seated(tid, player)
            table = record.table
            if not table.hand_in_progress and record.coordinated_hand >= table.hand_number and not record.rebuy_pending:
                # Waiting (alone, or for the final table): only a hand's end takes a player out of play.
                raise Conflict(f"table {record.table_id} waits between hands: disqualify {player} once it deals")
            table.verify_may_disqualify(player, record.disqualified)  # LastPlayerInPlay (409)
            seat = table.seat_of(player)
            stack_before = table.stack(seat)
            in_hand = table.in_hand(player)
            folded = table.fold_at_once(player, now) is not None
            leaving = table.stack(seat) if player in table.players.values() else 0
            fresh = record.holding(record.between_hands.disqualify(player), updated_at=now)
            audit = asked.audited(
                d,
                before={"stack": stack_before, "in_hand": in_hand, "table": record.table_id, "place": None},
                after={"folded": folded, "chips_leaving_play": leaving, "place": None, "prize": 0},
                at=now,
            )
            uow = d.store.unit_of_work()
            uow.check(t)
            uow.save(evolve(entrant, disqualified_at=now))
            uow.save(fresh)
            uow.save(audit)
            uow.commit()
            stored = evolve(fresh, version=fresh.version + 1)
            if folded:
                after_write(d, stored, "disqualified")  # the hand may have ended: its end goes to the coordinator
            else:
                push_table(d, stored, "disqualified")
            d.pushes.to_player(player, {"event": "disqualified", "tournament_id": tid, "reason": audit.reason})
            return _disqualified_view(audit)

        return self._once(asked, _disqualified_view, disqualify)

    # -- chat mutes ----------------------------------------------------------------

    def mute(self, player: str, operator: str, reason: str, minutes: int | None, key: str) -> MuteView:
        """Mute ``player`` in every chat for ``minutes`` (None: until unmuted); muting again replaces the mute."""
        if minutes is not None and (type(minutes) is not int or not 1 <= minutes <= MAX_MUTE_MINUTES):
            raise IllegalAction(f"a mute lasts 1 to {MAX_MUTE_MINUTES} minutes (or until unmuted)")
        return self._set_mute(player, operator, reason, minutes, _key(key), muted=True)

    def unmute(self, player: str, operator: str, reason: str, key: str) -> MuteView:
        """Lift ``player``'s mute (409 when not muted)."""
        return self._set_mute(player, operator, reason, None, _key(key), muted=False)

    def mute_of(self, player: str) -> MuteView:
        """The player's mute as it stands now."""
        found = self._d.store.mutes.get(player)
        now = self._d.clock.now()
        if found is None or not found.muted_at(now):
            return MuteView(player, False, None, "")
        return MuteView(player, True, found.until, "")

    def _set_mute(
        self, player: str, operator: str, reason: str, minutes: int | None, key: str, *, muted: bool
    ) -> MuteView:
        act = AuditAct.MUTE if muted else AuditAct.UNMUTE
        asked = _Asked(act, f"{act}:{player}:{key}", operator, reason, player, facts={"minutes": minutes})

        def set_mute(now: datetime) -> MuteView:
            d = self._d
            existing = d.store.mutes.get(player)
            was_muted = existing is not None and existing.muted_at(now)
            if not muted and not was_muted:
                raise Conflict(f"{player} is not muted")
            until = now + timedelta(minutes=minutes) if muted and minutes is not None else None
            mute = MuteRecord(
                player_id=player,
                muted=muted,
                at=now,
                by=operator,
                reason=reason.strip(),
                until=until,
                version=existing.version if existing is not None else 0,
            )
            audit = asked.audited(
                d,
                before=_mute_state(existing if was_muted else None),
                after={**_mute_state(mute if muted else None), "minutes": minutes},
                at=now,
            )
            uow = d.store.unit_of_work()
            uow.save(mute)
            uow.save(audit)
            uow.commit()
            d.pushes.to_player(player, {"event": "muted" if muted else "unmuted", "until": _iso(until)})
            return _mute_view(audit)

        return self._once(asked, _mute_view, set_mute)

    # -- money ---------------------------------------------------------------------

    def adjust_balance(self, player: str, amount: int, operator: str, reason: str, key: str) -> BalanceAdjusted:
        """A double-entry adjustment of ``amount`` cents (negative: taken) with the house's adjustments account."""
        if type(amount) is not int or amount == 0 or abs(amount) > MAX_ADJUSTMENT_CENTS:
            raise IllegalAction(f"an adjustment is a non-zero int of cents up to {MAX_ADJUSTMENT_CENTS} either way")
        key = _key(key)
        move = _Move(
            player, amount, operator, reason, AuditAct.BALANCE_ADJUSTMENT, f"balance:{player}:{key}",
            lambda now: balance_adjustment(f"adjustment:{player}:{key}", player, amount, now),
        )  # fmt: skip
        return self._money(move, lambda a: _balance_view(a, key))

    def deposit(self, player: str, amount: int, operator: str, key: str, reason: str = "") -> DepositView:
        """An operator's deposit (docs/interfaces.md), audited; the same ``key`` again credits nothing."""
        if type(amount) is not int or amount <= 0 or amount > MAX_ADJUSTMENT_CENTS:
            raise IllegalAction(f"a deposit is a positive int of cents up to {MAX_ADJUSTMENT_CENTS}")
        key = _key(key)
        move = _Move(
            player, amount, operator, reason or "deposit", AuditAct.DEPOSIT, f"deposit:{player}:{key}",
            lambda now: deposit(f"deposit:{player}:{key}", player, amount, now),
        )  # fmt: skip

        def view(audit: AuditRecord) -> DepositView:
            balance = self._d.store.ledger.balance(player_account(player))
            return DepositView(player, int((audit.after or {})["amount"]), balance, key)

        return self._money(move, view)

    def _money(self, move: _Move, view: Callable[[AuditRecord], V]) -> V:
        """The money act ``move``, posted and audited once per key (its audit id)."""

        asked = _Asked(move.act, move.audit_id, move.operator, move.reason, move.player, facts={"amount": move.amount})

        def post(now: datetime) -> V:
            d = self._d
            before = d.store.ledger.balance(player_account(move.player))
            entry = move.entry(now)
            audit = asked.audited(
                d,
                before={"balance": before},
                after={"balance": before + move.amount, "amount": move.amount, "entry": entry.key},
                at=now,
            )
            uow = d.store.unit_of_work()
            uow.post([entry])
            uow.save(audit)
            uow.commit()
            return view(audit)

        return self._once(asked, view, post)


@dataclass(frozen=True)
class _Asked:
    """An operator's act as asked: its audit id (one per key) and the facts a replay of it must repeat."""

    act: AuditAct
    audit_id: str
    operator: str
    reason: str
    player: str
    tournament_id: str | None = None
    facts: Mapping[str, object] | None = None
    """None: any replay is the first request again (a disqualification, one per player and tournament)."""

    def audited(self, deps: Deps, before: Mapping[str, Any], after: Mapping[str, Any], at: datetime) -> AuditRecord:
        """The act's audit record, done ``at``: what it found (``before``) and what it left (``after``)."""
        return audit_record(
            deps, audit_id=self.audit_id, operator=self.operator, act=self.act, reason=self.reason,
            tournament_id=self.tournament_id, player_id=self.player, before=before, after=after, at=at,
        )  # fmt: skip


@dataclass(frozen=True)
class _Move:
    """An operator's money act on a player's balance, as audited; ``entry`` builds its ledger entry at a time."""

    player: str
    amount: int
    operator: str
    reason: str
    act: AuditAct
    audit_id: str
    entry: Callable[[datetime], Entry]


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


def _mute_state(mute: MuteRecord | None) -> dict[str, object]:
    if mute is None:
        return {"muted": False}
    return {"muted": True, "until": _iso(mute.until), "by": mute.by}


def _stack_view(audit: AuditRecord) -> StackAdjusted:
    after = audit.after or {}
    return StackAdjusted(
        tournament_id=audit.tournament_id or "",
        player=audit.player_id or "",
        delta=int(after.get("delta", 0)),
        stack=int(after.get("stack", 0)),
        pending=bool(after.get("pending", False)),
        audit_id=audit.audit_id,
    )


def _disqualified_view(audit: AuditRecord) -> Disqualified:
    before, after = audit.before or {}, audit.after or {}
    return Disqualified(
        tournament_id=audit.tournament_id or "",
        player=audit.player_id or "",
        table=str(before.get("table", "")),
        folded=bool(after.get("folded", False)),
        chips=int(after.get("chips_leaving_play", 0)),
        audit_id=audit.audit_id,
    )


def _mute_view(audit: AuditRecord) -> MuteView:
    after = audit.after or {}
    until = after.get("until")
    return MuteView(
        player=audit.player_id or "",
        muted=bool(after.get("muted", False)),
        until=datetime.fromisoformat(until) if isinstance(until, str) else None,
        audit_id=audit.audit_id,
    )


def _balance_view(audit: AuditRecord, key: str) -> BalanceAdjusted:
    after = audit.after or {}
    return BalanceAdjusted(
        player=audit.player_id or "",
        amount=int(after.get("amount", 0)),
        balance=int(after.get("balance", 0)),
        key=key,
        audit_id=audit.audit_id,
    )


__all__ = [
    "MAX_MUTE_MINUTES",
    "MAX_STACK_ADJUSTMENT",
    "BalanceAdjusted",
    "Disqualified",
    "ManagementService",
    "MuteView",
    "StackAdjusted",
]
