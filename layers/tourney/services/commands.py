"""Commands the edges send to services: small frozen dataclasses of primitives."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class CreateTournament:
    """``POST /admin/tournaments`` (docs/interfaces.md): money in cents; no ``start_at`` for a Sit&Go.

    ``announce_at`` defaults to now (announced at creation). Unset optional
    fields take the format's defaults (docs/rules.md, 'Defaults').
    """

    name: str
    format: str
    buy_in: int
    entry_fee: int
    guarantee: int = 0
    max_players: int | None = None
    min_players: int | None = None
    seats_per_table: int | None = None
    start_at: datetime | None = None
    announce_at: datetime | None = None
    starting_stack: int | None = None
    level_minutes: int | None = None
    levels: Sequence[Mapping[str, Any]] | None = None
    """An operator's blind structure, one mapping a level (``structure.LevelSpec``'s fields); None: the standard one."""
    rebuy_levels: tuple[int, int] | None = None
    add_on_chips: int | None = None
    payout_percent: tuple[int, ...] = ()
    decision_seconds: int | None = None
    hand_for_hand: bool | None = None
    tournament_id: str | None = None
    """Chosen by the operator (idempotent creation), else generated."""
    operator: str = ""
