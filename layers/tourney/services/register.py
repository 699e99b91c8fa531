"""Registration and unregistration (docs/rules.md, rules 2, 3, 4), designed for 1,000 registrations a second.

A registration is one unit of work: the ledger entries (wallet -> pool and
house, keyed ``register:<t>:<player>:<n>``), the player's registration
record, and either an atomic add to one registration counter shard (whose
caps add up to ``max_players``) or, when every shard is full, the waiting
list (at most 10, conditional on every shard being unchanged, so a seat freed
at the same moment is never missed). No item is written by every
registration: the tournament item is only read, each shard takes a share,
house revenue is sharded by player (``ledger.house_shard``) and the pool's
balance may be spread by the ledger adapter (``ports.py``).

Registration closes at the start: the start seals every shard and the
waiting list, so a registration racing the start either commits before the
seal (and is in the field) or fails (``RegistrationClosed``). A Sit&Go starts
when full: the registration that fills it seals it (``start_when_full``), so
nobody unregisters from a full Sit&Go and its start always finds it full.
"""

from __future__ import annotations

import zlib
from dataclasses import replace
from datetime import datetime

from tourney.domain.errors import RegistrationClosed, WaitingListFull
from tourney.domain.ledger import player_account
from tourney.domain.registration import (
    RegistrationState,
    buy_in_payment,
    buy_in_refund,
    entry_price,
    field_is_full,
    is_repeated_request,
    leave,
    place_in_field_or_waiting_list,
    starts_when_full,
    waiting_position,
)
from tourney.services.deps import Deps, no_wait
from tourney.services.ports import Backoff, Clock, Store, UnitOfWork, Workflows
from tourney.services.records import CounterShard, RegistrationRecord, TournamentRecord
from tourney.services.tables import retrying
from tourney.services.views import RegistrationView, UnregistrationView


def open_shard_for(shards: list[CounterShard], player: str) -> CounterShard | None:
    """A shard with room: the player's own, else one of the open ones picked by the player, so that the players of
    the full shards spread over the open ones instead of all taking the next (two transactions on one item at once
    conflict: one shard taking them all would be hot)."""
    if not shards:
        return None
    picked = zlib.crc32(player.encode())
    own = shards[picked % len(shards)]
    if not own.full and not own.sealed:
        return own
    open_ = [shard for shard in shards if not shard.full and not shard.sealed]
    return open_[picked % len(open_)] if open_ else None


def _shards_to_try(store: Store, t: TournamentRecord, player: str) -> list[CounterShard]:
    """The player's own counter shard when it has room (one read, so that no item is read by every registration);
    else every shard (a field nearly full, the waiting list, a sealed start)."""
    own = store.registrations.shard(t.tournament_id, zlib.crc32(player.encode()) % max(1, t.registration_shards))
    if own is not None and not own.full and not own.sealed:
        return [own]
    return list(store.registrations.shards(t.tournament_id, t.registration_shards))


def seal_when_full(deps: Deps, t: TournamentRecord) -> bool:
    """Close a full Sit&Go's registration: its fill is its start (docs/rules.md, rule 2). True once sealed and full.

    The seal is one unit of work over every counter shard (and the waiting
    list), each on the version read with the full count: an unregistration
    that commits first changes a shard, so the seal fails, the count is read
    again and the Sit&Go, no longer full, stays open. Once sealed nobody gets
    in or out, so the start workflow always finds it full.
    """
    tid = t.tournament_id

    def attempt() -> bool:
        store = deps.store
        shards = list(store.registrations.shards(tid, t.registration_shards))
        if not field_is_full(t.config, sum(s.count for s in shards)):
            return False
        waiting = store.registrations.waiting_list(tid)
        if waiting.sealed and all(s.sealed for s in shards):
            return True
        uow = store.unit_of_work()
        for shard in shards:
            uow.save(replace(shard, sealed=True))
        uow.save(replace(waiting, sealed=True))
        uow.commit()
        return True

    return retrying(deps, attempt)


def start_when_full(deps: Deps, t: TournamentRecord) -> bool:
    """A Sit&Go full: seal its registration and request the start workflow (idempotent); False while not full.

    Reading: the start workflow is requested once per tournament
    (its execution name is the tournament's), so it is requested only once
    the field is sealed full; an unregistration racing the fill leaves it
    open and the registration that fills it again starts it. A lost request
    is made again by a registration replayed with its key, or by the sweeper.
    """
    if not starts_when_full(t.config) or not t.life.registering:
        return False
    if not seal_when_full(deps, t):
        return False
    deps.workflows.start_tournament(t.tournament_id)
    return True


class RegistrationService:
    def __init__(self, *, store: Store, workflows: Workflows, clock: Clock, backoff: Backoff = no_wait) -> None:
        self._d = Deps(store=store, workflows=workflows, clock=clock, backoff=backoff)

    def register(self, tid: str, player: str, key: str = "") -> RegistrationView:
        """Register and pay ``buy_in + entry_fee`` atomically (docs/rules.md, rules 2, 3); a Sit&Go filling up starts.

        Registered while the field has room, else wait-listed (at most 10). The
        same ``key`` again answers the first registration and moves nothing; once
        that registration was withdrawn (unregistered, refunded) the key is spent:
        ``IdempotencyConflict`` (409), a new registration takes a new key.
        """
        try:
            return retrying(self._d, lambda: self._register(tid, player, key))
        except (WaitingListFull, RegistrationClosed):
            if not key:
                raise
            # Its twin (the same key) may have registered between this request's reads of the player's registration
            # and of the list: read again, and answer that registration as a replay of the key does.
            return self._register(tid, player, key)

    def _register(self, tid: str, player: str, key: str) -> RegistrationView:
        store = self._d.store
        now = self._d.clock.now()
        t = store.tournaments.get(tid)
        existing = store.registrations.get(tid, player)
        if existing is not None and is_repeated_request(tid, player, key, existing.state, existing.key):
            if starts_when_full(t.config):
                start_when_full(self._d, t)  # the first answer may have been lost before the start request
            return self._view(existing, t)
        t.window.check_can_register(now)
        shards = _shards_to_try(store, t, player)
        t.window.check_can_register(now, sealed=any(s.sealed for s in shards))
        number = (existing.number if existing else 0) + 1
        uow = store.unit_of_work()
        uow.post(buy_in_payment(tid, player, number, t.config, now, t.house_shards))
        state, shard_no = self._take_place(uow, t, player, shards, now)
        version = existing.version if existing is not None else 0
        record = RegistrationRecord(tid, player, state, number, now, shard_no, key, version)
        uow.save(record)
        uow.commit()
        if starts_when_full(t.config) and state is RegistrationState.REGISTERED:
            start_when_full(self._d, t)
        return self._view(replace(record, version=record.version + 1), t)

    def _take_place(
        self, uow: UnitOfWork, t: TournamentRecord, player: str, shards: list[CounterShard], now: datetime
    ) -> tuple[RegistrationState, int | None]:
        """A place in the field (a counter shard with room) or on the waiting list, written to ``uow``."""
        shard = open_shard_for(shards, player)
        waiting = None if shard is not None else self._d.store.registrations.waiting_list(t.tournament_id)
        if waiting is not None:
            t.window.check_can_register(now, sealed=waiting.sealed)
        state = place_in_field_or_waiting_list(
            t.tournament_id, t.config, field_has_room=shard is not None, waiting=len(waiting.players) if waiting else 0
        )
        if shard is not None:
            uow.bump(shard, 1)
            return state, shard.shard
        assert waiting is not None
        for s in shards:
            uow.check(s)  # the list grows only while every shard is full: a seat freed meanwhile is never missed
        uow.save(replace(waiting, players=(*waiting.players, player)))
        return state, None

    def _view(self, record: RegistrationRecord, t: TournamentRecord) -> RegistrationView:
        position = None
        if record.state is RegistrationState.WAITLISTED:
            players = self._d.store.registrations.waiting_list(record.tournament_id).players
            position = waiting_position(players, record.player_id)
        return RegistrationView(
            record.tournament_id, record.player_id, str(record.state), position, entry_price(t.config)
        )

    def unregister(self, tid: str, player: str) -> UnregistrationView:
        """Leave before the start, refunded in full; the first wait-listed player takes the place (rules 3, 4)."""
        return retrying(self._d, lambda: self._unregister(tid, player))

    def _unregister(self, tid: str, player: str) -> UnregistrationView:
        store = self._d.store
        now = self._d.clock.now()
        t = store.tournaments.get(tid)
        record = store.registrations.get(tid, player)
        t.window.check_can_unregister(player, record.state if record else None, now)
        assert record is not None
        refund = buy_in_refund(tid, player, record.number, t.config, now, t.house_shards)
        uow = store.unit_of_work()
        if refund is not None:
            uow.post([refund])
        waiting = store.registrations.waiting_list(tid)
        t.window.check_can_unregister(player, record.state, now, sealed=waiting.sealed)
        departure = leave(player, record.state, waiting.players)
        if departure.seat_left_empty:
            shard = next(s for s in store.registrations.shards(tid, t.registration_shards) if s.shard == record.shard)
            uow.bump(shard, -1)
            uow.check(waiting)  # nobody joined the list meanwhile, who would have moved up
        else:
            uow.save(replace(waiting, players=departure.waiting_list))
        if departure.moves_up is not None:
            moving = store.registrations.get(tid, departure.moves_up)
            assert moving is not None
            uow.save(replace(moving, state=RegistrationState.REGISTERED, shard=record.shard))
        uow.save(replace(record, state=RegistrationState.UNREGISTERED, shard=None))
        uow.commit()
        refunded = refund.amount_for(player_account(player)) if refund else 0
        return UnregistrationView(tid, player, refunded, departure.moves_up)


__all__ = ["RegistrationService", "open_shard_for", "seal_when_full", "start_when_full"]
