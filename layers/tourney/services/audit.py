"""The operators' audit (docs/rules.md, rule 19): every management act recorded with who, when, why, before and after.

An :class:`~tourney.services.records.AuditRecord` is written once and never
again: a unit of work saves it with version 0, so the store writes it only if
no record of that id exists (``attribute_not_exists`` on DynamoDB), and no
function's role may update or delete an item of the audit table
(``infra/wiring.py``, ``tests/infra/test_audit_permissions.py``). Its id is
derived from the act (``terminate:<t>:<at>``, ``deposit:<player>:<key>``,
``disqualify:<t>:<player>`` ...), so an act redelivered writes nothing twice.

Acts that the management service makes (stack and balance adjustments,
disqualifications, mutes) write their record in the unit of work that makes
them: an act is never stored without its record. Acts of the older services
(create, cancel, terminate, restart, deposit) commit first; their record is
then written by :func:`append` with the id of the act's stored facts, so the
retry of a request whose record was lost writes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tourney.domain.errors import IllegalAction, StaleVersion
from tourney.services.deps import Deps
from tourney.services.ports import Store
from tourney.services.records import AuditAct, AuditRecord
from tourney.services.views import View

MAX_REASON = 500
"""Characters of a reason (the edge refuses longer ones)."""
LATEST_ACTS = 100
"""How many acts the audit lists without a filter (the newest)."""


def audit_record(
    deps: Deps,
    *,
    audit_id: str,
    operator: str,
    act: AuditAct,
    reason: str,
    tournament_id: str | None = None,
    player_id: str | None = None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    at: datetime | None = None,
) -> AuditRecord:
    """A new audit record (version 0), stamped now unless ``at`` is given."""
    if not operator:
        raise IllegalAction("an operator act names its operator")
    if tournament_id is None and player_id is None:
        raise ValueError("an audit record is about a tournament, a player or both")
    return AuditRecord(
        audit_id=audit_id,
        at=at or deps.clock.now(),
        operator=operator,
        act=act,
        reason=reason.strip()[:MAX_REASON],
        tournament_id=tournament_id,
        player_id=player_id,
        before=dict(before) if before is not None else None,
        after=dict(after) if after is not None else None,
    )


def append(deps: Deps, record: AuditRecord) -> bool:
    """Store ``record`` on its own; False when a record of that id is already stored (a redelivered act)."""
    uow = deps.store.unit_of_work()
    uow.save(record)
    try:
        uow.commit()
    except StaleVersion:
        return False
    return True


@dataclass(frozen=True)
class AuditLine(View):
    """One record as ``GET /admin/audit`` answers it (docs/interfaces.md)."""

    id: str
    at: datetime
    operator: str
    act: str
    reason: str
    tournament: str | None
    player: str | None
    before: dict[str, Any] | None
    after: dict[str, Any] | None

    @classmethod
    def of(cls, record: AuditRecord) -> AuditLine:
        return cls(
            id=record.audit_id,
            at=record.at,
            operator=record.operator,
            act=str(record.act),
            reason=record.reason,
            tournament=record.tournament_id,
            player=record.player_id,
            before=record.before,
            after=record.after,
        )


@dataclass(frozen=True)
class AuditView(View):
    records: tuple[AuditLine, ...]


class AuditService:
    def __init__(self, *, store: Store) -> None:
        self._d = Deps(store=store)

    def listing(self, *, tournament: str | None = None, player: str | None = None) -> AuditView:
        """The acts about a tournament, or a player, oldest first; neither: the ``LATEST_ACTS`` newest, newest first.

        Both at once is refused (``IllegalAction``): ask for one, or for the latest acts.
        """
        found: Sequence[AuditRecord]
        if tournament is not None and player is not None:
            raise IllegalAction("ask for the audit of one tournament, one player, or the latest acts (no filter)")
        if tournament is not None:
            found = self._d.store.audit.for_tournament(tournament)
        elif player is not None:
            found = self._d.store.audit.for_player(player)
        else:
            found = self._d.store.audit.latest(LATEST_ACTS)
        return AuditView(tuple(AuditLine.of(r) for r in found))


__all__ = ["AuditLine", "AuditService", "AuditView", "append", "audit_record"]
