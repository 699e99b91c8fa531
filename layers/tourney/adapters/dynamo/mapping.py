"""Records to items and back (cosmicpython's ``orm.py``, by hand): one pair of functions per record.

The PynamoDB models (``models/``) are the stored shapes; the service records
(``tourney.services.records``) are what the services see. Each :class:`Mapper`
turns a record into the item to write (with the version it will have once
written, ``record.version + 1``) and an item back into the record; and gives
the record's key, for condition checks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, Final

from pynamodb.models import Model

from tourney.adapters.dynamo.models import audit as au
from tourney.adapters.dynamo.models import tables as tm
from tourney.adapters.dynamo.models import tournaments as tn
from tourney.domain.dealing import DealingOrders
from tourney.domain.prizes import Placing
from tourney.domain.recovery import Movement
from tourney.domain.registration import TournamentStatus
from tourney.domain.seating import TableSeating
from tourney.domain.structure import TournamentConfig
from tourney.domain.table import Table
from tourney.domain.tournament import Contribution, TournamentState
from tourney.services.records import (
    AccountRecord,
    AuditAct,
    AuditRecord,
    CompensationBatch,
    CoordinatorRecord,
    CounterShard,
    DealingRecord,
    EntrantRecord,
    HandRecord,
    MuteRecord,
    NameRecord,
    Record,
    RegistrationRecord,
    RegistrationState,
    SeatingPlan,
    TableRecord,
    TournamentRecord,
    WaitingList,
)


def iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


def parse(at: str | None) -> datetime | None:
    return datetime.fromisoformat(at) if at else None


def parse_required(at: str) -> datetime:
    return datetime.fromisoformat(at)


@dataclass(frozen=True)
class Key:
    model: type[Model]
    pk: str
    sk: str


@dataclass(frozen=True)
class Mapper:
    record_type: type
    key: Callable[[Any], Key]
    to_item: Callable[[Any, int], Model]
    """The item for a record, stamped with the given version."""
    from_item: Callable[[Any], Any]


# -- tournament -------------------------------------------------------------------------------------------------------

_TOURNAMENT_COLUMNS = {"tournament_id", "name", "config", "status", "announce_at", "start_at", "created_at", "version"}


def _tournament_item(record: TournamentRecord, version: int) -> tn.TournamentItem:
    facts: dict[str, Any] = {}
    for f in fields(record):
        if f.name in _TOURNAMENT_COLUMNS:
            continue
        value = getattr(record, f.name)
        facts[f.name] = iso(value) if isinstance(value, datetime) else value
    start = iso(record.start_at)
    return tn.TournamentItem(
        tn.tournament_pk(record.tournament_id),
        tn.TOURNAMENT_SK,
        tournament_id=record.tournament_id,
        name=record.name,
        status=record.status.value,
        config=record.config.to_dict(),
        announce_at=iso(record.announce_at),
        start_at=start,
        created_at=iso(record.created_at),
        facts=facts,
        lobby_pk=tn.lobby_pk(record.status.value),
        lobby_sk=tn.lobby_sk(start, record.tournament_id),
        version=version,
    )


def _tournament_record(item: tn.TournamentItem) -> TournamentRecord:
    facts: dict[str, Any] = {}
    kinds = {f.name: str(f.type) for f in fields(TournamentRecord)}
    for name, value in (item.facts or {}).items():
        if name not in kinds:
            continue
        facts[name] = parse(value) if "datetime" in kinds[name] and isinstance(value, str) else value
    return TournamentRecord(
        tournament_id=item.tournament_id,
        name=item.name,
        config=TournamentConfig.from_dict(item.config),
        status=TournamentStatus(item.status),
        announce_at=parse_required(item.announce_at),
        start_at=parse(item.start_at),
        created_at=parse_required(item.created_at),
        version=int(item.version),
        **facts,
    )


# -- registrations, counter shards, waiting list, seating plans --------------------------------------------------------


def _registration_item(record: RegistrationRecord, version: int) -> tn.RegistrationItem:
    return tn.RegistrationItem(
        tn.registration_pk(record.tournament_id, tn.bucket(record.player_id)),
        tn.player_sk(record.player_id),
        tournament_id=record.tournament_id,
        player_id=record.player_id,
        state=record.state.value,
        number=record.number,
        registered_at=iso(record.registered_at),
        shard=record.shard,
        key=record.key,
        version=version,
    )


def _registration_record(item: tn.RegistrationItem) -> RegistrationRecord:
    return RegistrationRecord(
        tournament_id=item.tournament_id,
        player_id=item.player_id,
        state=RegistrationState(item.state),
        number=int(item.number),
        registered_at=parse_required(item.registered_at),
        shard=int(item.shard) if item.shard is not None else None,
        key=item.key or "",
        version=int(item.version),
    )


def _shard_item(record: CounterShard, version: int) -> tn.CounterShardItem:
    return tn.CounterShardItem(
        tn.counter_pk(record.tournament_id, record.shard),
        tn.COUNTER_SK,
        tournament_id=record.tournament_id,
        shard=record.shard,
        cap=record.cap,
        filled=record.count,
        sealed=record.sealed,
        version=version,
    )


def _shard_record(item: tn.CounterShardItem) -> CounterShard:
    return CounterShard(
        tournament_id=item.tournament_id,
        shard=int(item.shard),
        cap=int(item.cap),
        count=int(item.filled),
        sealed=bool(item.sealed),
        version=int(item.version),
    )


def _waiting_item(record: WaitingList, version: int) -> tn.WaitingListItem:
    return tn.WaitingListItem(
        tn.tournament_pk(record.tournament_id),
        tn.WAITING_LIST_SK,
        tournament_id=record.tournament_id,
        players=list(record.players),
        sealed=record.sealed,
        version=version,
    )


def _waiting_record(item: tn.WaitingListItem) -> WaitingList:
    return WaitingList(
        tournament_id=item.tournament_id,
        players=tuple(str(player) for player in item.players or ()),
        sealed=bool(item.sealed),
        version=int(item.version),
    )


def _plan_item(record: SeatingPlan, version: int) -> tn.SeatingPlanItem:
    return tn.SeatingPlanItem(
        tn.tournament_pk(record.tournament_id),
        tn.seating_sk(record.batch),
        tournament_id=record.tournament_id,
        batch=record.batch,
        body=[[t.table, [[seat, player] for seat, player in t.seats]] for t in record.tables],
        version=version,
    )


def _batch_item(record: CompensationBatch, version: int) -> tn.CompensationBatchItem:
    return tn.CompensationBatchItem(
        tn.compensation_pk(record.tournament_id, record.index),
        tn.compensation_sk(record.index),
        tournament_id=record.tournament_id,
        batch=record.index,
        body=[m.to_list() for m in record.movements],
        version=version,
    )


def _batch_record(item: tn.CompensationBatchItem) -> CompensationBatch:
    return CompensationBatch(
        tournament_id=item.tournament_id,
        index=int(item.batch),
        movements=tuple(Movement.from_list(m) for m in item.body),
        version=int(item.version),
    )


def _plan_record(item: tn.SeatingPlanItem) -> SeatingPlan:
    return SeatingPlan(
        tournament_id=item.tournament_id,
        batch=int(item.batch),
        tables=tuple(
            TableSeating(int(table), tuple((int(seat), str(player)) for seat, player in seats))
            for table, seats in item.body
        ),
        version=int(item.version),
    )


def _dealing_item(record: DealingRecord, version: int) -> tn.DealingItem:
    return tn.DealingItem(
        tn.dealing_pk(record.tournament_id),
        tn.DEALING_SK,
        tournament_id=record.tournament_id,
        body=record.orders.to_dict(),
        version=version,
    )


def _dealing_record(item: tn.DealingItem) -> DealingRecord:
    return DealingRecord(item.tournament_id, DealingOrders.from_dict(item.body), int(item.version))


# -- coordinator and entrants -----------------------------------------------------------------------------------------


def _coordinator_item(record: CoordinatorRecord, version: int) -> tn.CoordinatorItem:
    return tn.CoordinatorItem(
        tn.tournament_pk(record.tournament_id),
        tn.COORDINATOR_SK,
        tournament_id=record.tournament_id,
        body=record.state.to_dict(),
        version=version,
    )


def _coordinator_record(item: tn.CoordinatorItem) -> CoordinatorRecord:
    return CoordinatorRecord(item.tournament_id, TournamentState.from_dict(item.body), int(item.version))


def _contribution_dict(contribution: Contribution) -> dict[str, Any]:
    return {f.name: getattr(contribution, f.name) for f in fields(contribution)}


def _entrant_item(record: EntrantRecord, version: int) -> tn.EntrantItem:
    placing = record.placing
    return tn.EntrantItem(
        tn.entrant_pk(record.tournament_id, tn.entrant_bucket(record.player_id)),
        tn.player_sk(record.player_id),
        tournament_id=record.tournament_id,
        player_id=record.player_id,
        contribution=_contribution_dict(record.contribution),
        table_id=record.table_id,
        placing=None if placing is None else {f.name: getattr(placing, f.name) for f in fields(placing)},
        placed_at=iso(record.placed_at),
        management=_management(record),
        version=version,
    )


def _management(record: EntrantRecord) -> dict[str, Any] | None:
    if not (record.chips_adjusted or record.disqualified_at or record.chips_removed):
        return None
    return {
        "chips_adjusted": record.chips_adjusted,
        "disqualified_at": iso(record.disqualified_at),
        "chips_removed": record.chips_removed,
    }


def _entrant_record(item: tn.EntrantItem) -> EntrantRecord:
    placing: Mapping[str, Any] | None = item.placing
    management: Mapping[str, Any] = item.management or {}
    return EntrantRecord(
        tournament_id=item.tournament_id,
        player_id=item.player_id,
        contribution=Contribution(**item.contribution),
        table_id=item.table_id,
        placing=Placing(**placing) if placing is not None else None,
        placed_at=parse(item.placed_at),
        chips_adjusted=int(management.get("chips_adjusted", 0)),
        disqualified_at=parse(management.get("disqualified_at")),
        chips_removed=int(management.get("chips_removed", 0)),
        version=int(item.version),
    )


# -- tables and hands -------------------------------------------------------------------------------------------------


_TABLE_DEFAULTS: Final = {f.name: f.default for f in fields(TableRecord)}


def _unless_default(record: TableRecord, extras: dict[str, Any]) -> dict[str, Any]:
    """``extras`` but those at ``TableRecord``'s defaults, which ``_table_record`` reads back when absent."""
    return {name: value for name, value in extras.items() if getattr(record, name) != _TABLE_DEFAULTS[name]}


def _table_item(record: TableRecord, version: int) -> tm.TableItem:
    return tm.TableItem(
        tm.table_pk(record.tournament_id, record.table_id),
        tm.table_sk(record.table_id),
        tournament_id=record.tournament_id,
        table_id=record.table_id,
        version=version,
        body={"table": record.table.to_dict()}
        | _unless_default(
            record,
            {
                "coordinated_hand": record.coordinated_hand,
                "rebuy_pending": list(record.rebuy_pending),
                "pending_chips": [[player, chips] for player, chips in record.pending_chips],
                "decision_seconds": record.decision_seconds,
                "away_seconds": record.away_seconds,
                "halted": record.halted,
                "disqualified": list(record.disqualified),
                "hand_for_hand": record.hand_for_hand,
            },
        ),
        hand_number=record.table.hand_number,
        level=record.level,
        closed=record.closed,
        dealt_at=iso(record.dealt_at),
        updated_at=iso(record.updated_at),
    )


def _table_record(item: tm.TableItem) -> TableRecord:
    body = item.body
    return TableRecord(
        tournament_id=item.tournament_id,
        table_id=item.table_id,
        table=Table.from_dict(body["table"]),
        level=int(item.level),
        dealt_at=parse(item.dealt_at),
        updated_at=parse(item.updated_at),
        coordinated_hand=int(body.get("coordinated_hand", 0)),
        rebuy_pending=tuple(body.get("rebuy_pending", ())),
        pending_chips=tuple((str(player), int(chips)) for player, chips in body.get("pending_chips", ())),
        closed=bool(item.closed),
        halted=bool(body.get("halted", False)),
        decision_seconds=int(body.get("decision_seconds", 15)),
        away_seconds=int(body.get("away_seconds", 5)),
        disqualified=tuple(str(p) for p in body.get("disqualified", ())),
        hand_for_hand=bool(body.get("hand_for_hand", False)),
        version=int(item.version),
    )


def _hand_item(record: HandRecord, version: int) -> tm.HandItem:
    return tm.HandItem(
        tm.hand_pk(record.tournament_id, record.table_id),
        tm.hand_sk(record.hand_number),
        tournament_id=record.tournament_id,
        table_id=record.table_id,
        hand_number=record.hand_number,
        version=version,
        body={
            "hand": record.hand,
            "players": {str(seat): player for seat, player in record.players.items()},
            "seat_count": record.seat_count,
            "level": record.level,
            "dealt_at": iso(record.dealt_at),
            **({"button_draw": [list(drawn) for drawn in record.button_draw]} if record.button_draw else {}),
        },
        ended_at=iso(record.ended_at),
    )


def _hand_record(item: tm.HandItem) -> HandRecord:
    body = item.body
    return HandRecord(
        tournament_id=item.tournament_id,
        table_id=item.table_id,
        hand_number=int(item.hand_number),
        hand=body["hand"],
        players={int(seat): str(player) for seat, player in body["players"].items()},
        seat_count=int(body["seat_count"]),
        level=int(body["level"]),
        dealt_at=parse_required(body["dealt_at"]),
        ended_at=parse_required(item.ended_at),
        version=int(item.version),
        button_draw=tuple((int(seat), str(player), str(card)) for seat, player, card in body.get("button_draw", ())),
    )


# -- the operators' audit and chat mutes -----------------------------------------------------------------------------


def _audit_key(record: AuditRecord) -> Key:
    return Key(au.AuditItem, au.audit_pk(record.tournament_id, record.player_id), au.act_sk(record.audit_id))


def _audit_item(record: AuditRecord, version: int) -> au.AuditItem:
    key = _audit_key(record)
    return au.AuditItem(
        key.pk,
        key.sk,
        audit_id=record.audit_id,
        at=iso(record.at),
        operator=record.operator,
        act=str(record.act),
        reason=record.reason,
        tournament_id=record.tournament_id,
        player_id=record.player_id,
        player_key=au.player_key(record.player_id) if record.player_id is not None else None,
        feed_key=au.FEED_KEY,
        feed_sk=au.feed_sk(record.at, record.audit_id),
        before=record.before,
        after=record.after,
        version=version,
    )


def _audit_record(item: au.AuditItem) -> AuditRecord:
    return AuditRecord(
        audit_id=item.audit_id,
        at=parse_required(item.at),
        operator=item.operator,
        act=AuditAct(item.act),
        reason=item.reason or "",
        tournament_id=item.tournament_id,
        player_id=item.player_id,
        before=item.before,
        after=item.after,
        version=int(item.version),
    )


def _mute_item(record: MuteRecord, version: int) -> au.MuteItem:
    return au.MuteItem(
        au.mute_pk(record.player_id),
        au.MUTE_SK,
        muted_player=record.player_id,
        muted=record.muted,
        at=iso(record.at),
        by=record.by,
        reason=record.reason,
        until=iso(record.until),
        version=version,
    )


def _mute_record(item: au.MuteItem) -> MuteRecord:
    return MuteRecord(
        player_id=item.muted_player,
        muted=bool(item.muted),
        at=parse_required(item.at),
        by=item.by,
        reason=item.reason or "",
        until=parse(item.until),
        version=int(item.version),
    )


def _account_item(record: AccountRecord, version: int) -> au.AccountItem:
    return au.AccountItem(
        au.account_pk(record.player_id),
        au.ACCOUNT_SK,
        account_player=record.player_id,
        opened_at=iso(record.opened_at),
        display_name=record.display_name,
        version=version,
    )


def _account_record(item: au.AccountItem) -> AccountRecord:
    return AccountRecord(
        player_id=item.account_player,
        opened_at=parse_required(item.opened_at),
        display_name=item.display_name,
        version=int(item.version),
    )


def _name_item(record: NameRecord, version: int) -> au.NameItem:
    return au.NameItem(au.name_pk(record.key), au.NAME_SK, holder=record.holder, version=version)


def _name_record(item: au.NameItem) -> NameRecord:
    return NameRecord(key=item.pk.removeprefix("name#"), holder=item.holder, version=int(item.version))


# -- the table of mappers ---------------------------------------------------------------------------------------------

MAPPERS: dict[type, Mapper] = {
    m.record_type: m
    for m in (
        Mapper(
            TournamentRecord,
            lambda r: Key(tn.TournamentItem, tn.tournament_pk(r.tournament_id), tn.TOURNAMENT_SK),
            _tournament_item,
            _tournament_record,
        ),
        Mapper(
            RegistrationRecord,
            lambda r: Key(
                tn.RegistrationItem,
                tn.registration_pk(r.tournament_id, tn.bucket(r.player_id)),
                tn.player_sk(r.player_id),
            ),
            _registration_item,
            _registration_record,
        ),
        Mapper(
            CounterShard,
            lambda r: Key(tn.CounterShardItem, tn.counter_pk(r.tournament_id, r.shard), tn.COUNTER_SK),
            _shard_item,
            _shard_record,
        ),
        Mapper(
            WaitingList,
            lambda r: Key(tn.WaitingListItem, tn.tournament_pk(r.tournament_id), tn.WAITING_LIST_SK),
            _waiting_item,
            _waiting_record,
        ),
        Mapper(
            SeatingPlan,
            lambda r: Key(tn.SeatingPlanItem, tn.tournament_pk(r.tournament_id), tn.seating_sk(r.batch)),
            _plan_item,
            _plan_record,
        ),
        Mapper(
            CompensationBatch,
            lambda r: Key(
                tn.CompensationBatchItem, tn.compensation_pk(r.tournament_id, r.index), tn.compensation_sk(r.index)
            ),
            _batch_item,
            _batch_record,
        ),
        Mapper(
            CoordinatorRecord,
            lambda r: Key(tn.CoordinatorItem, tn.tournament_pk(r.tournament_id), tn.COORDINATOR_SK),
            _coordinator_item,
            _coordinator_record,
        ),
        Mapper(
            DealingRecord,
            lambda r: Key(tn.DealingItem, tn.dealing_pk(r.tournament_id), tn.DEALING_SK),
            _dealing_item,
            _dealing_record,
        ),
        Mapper(
            EntrantRecord,
            lambda r: Key(
                tn.EntrantItem,
                tn.entrant_pk(r.tournament_id, tn.entrant_bucket(r.player_id)),
                tn.player_sk(r.player_id),
            ),
            _entrant_item,
            _entrant_record,
        ),
        Mapper(
            TableRecord,
            lambda r: Key(tm.TableItem, tm.table_pk(r.tournament_id, r.table_id), tm.table_sk(r.table_id)),
            _table_item,
            _table_record,
        ),
        Mapper(
            HandRecord,
            lambda r: Key(tm.HandItem, tm.hand_pk(r.tournament_id, r.table_id), tm.hand_sk(r.hand_number)),
            _hand_item,
            _hand_record,
        ),
        Mapper(AuditRecord, _audit_key, _audit_item, _audit_record),
        Mapper(MuteRecord, lambda r: Key(au.MuteItem, au.mute_pk(r.player_id), au.MUTE_SK), _mute_item, _mute_record),
        Mapper(
            AccountRecord,
            lambda r: Key(au.AccountItem, au.account_pk(r.player_id), au.ACCOUNT_SK),
            _account_item,
            _account_record,
        ),
        Mapper(NameRecord, lambda r: Key(au.NameItem, au.name_pk(r.key), au.NAME_SK), _name_item, _name_record),
    )
}


def mapper_of(record: Record) -> Mapper:
    try:
        return MAPPERS[type(record)]
    except KeyError:
        raise TypeError(f"not a stored record: {record!r}") from None
