"""In-memory repositories of the operators' audit and the chat mutes (``services/ports.py``).

The records are stored by ``MemoryStore`` like every other record (a unit of
work saves them; an audit record is saved once, with version 0, so a second
save of the same act fails as ``StaleVersion``); these repositories only read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tourney.services.records import AuditRecord, MuteRecord

if TYPE_CHECKING:
    from tourney.adapters.memory import MemoryStore


def _partition(tournament_id: str | None, player_id: str | None) -> str:
    """As on DynamoDB: the tournament's id, or ``player#<player>`` for an act about no tournament."""
    return tournament_id if tournament_id is not None else f"player#{player_id or ''}"


def audit_key(record: AuditRecord) -> tuple[str, str, str]:
    """The stored identity of an audit record: its partition (the tournament, else the player) and its id."""
    return ("audit", _partition(record.tournament_id, record.player_id), record.audit_id)


def mute_key(record: MuteRecord) -> tuple[str, str]:
    return ("mute", record.player_id)


def _ordered(records: list[AuditRecord]) -> list[AuditRecord]:
    return sorted(records, key=lambda r: (r.at, r.audit_id))


class MemoryAudit:
    def __init__(self, store: MemoryStore) -> None:
        self._s = store

    def get(self, audit_id: str, tournament_id: str | None, player_id: str | None) -> AuditRecord | None:
        found: AuditRecord | None = self._s._get(("audit", _partition(tournament_id, player_id), audit_id))
        return found

    def for_tournament(self, tournament_id: str) -> Sequence[AuditRecord]:
        found: list[AuditRecord] = self._s._scan(("audit", tournament_id))
        return _ordered(found)

    def for_player(self, player_id: str) -> Sequence[AuditRecord]:
        with self._s._lock:
            found = [r for r in self._s._values(self._s._kinds.get("audit", ())) if r.player_id == player_id]
        return _ordered(found)

    def latest(self, limit: int) -> Sequence[AuditRecord]:
        with self._s._lock:
            found = list(self._s._values(self._s._kinds.get("audit", ())))
        return _ordered(found)[::-1][:limit]


class MemoryMutes:
    def __init__(self, store: MemoryStore) -> None:
        self._s = store

    def get(self, player_id: str) -> MuteRecord | None:
        found: MuteRecord | None = self._s._get(("mute", player_id))
        return found
