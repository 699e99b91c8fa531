"""The operators' create request (docs/interfaces.md, ``POST /admin/tournaments``), beside ``models``: it names the
domain's ``TournamentFormat`` and ``MAX_STRUCTURE_LEVELS``, which the functions that do not create tournaments need
not import at a cold start.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from tourney.domain.formats import MAX_STRUCTURE_LEVELS, TournamentFormat
from tourney.entrypoints.models import Cents, Chips, Level, Moment, Name, Players, PositiveChips, Request


class LevelRequest(Request):
    """One level of an operator's blind structure (its place in the list numbers it)."""

    small_blind: PositiveChips
    big_blind: PositiveChips = Field(description="chips, not below the small blind")
    ante: Chips = Field(default=0, description="chips: every player's ante, or the big blind's with big_blind_ante")
    big_blind_ante: Annotated[bool, Field(strict=True)] = Field(
        default=False, description="the ante is one big-blind ante, posted by the big blind alone (needs an ante)"
    )
    minutes: Annotated[int, Field(strict=True, ge=1, le=120)] | None = Field(
        default=None, description="the level's length (default: level_minutes)"
    )


class CreateTournamentRequest(Request):
    """Create and announce a tournament (no ``start_at`` for a Sit&Go, which starts when full)."""

    name: Name
    format: TournamentFormat
    buy_in: Cents
    entry_fee: Cents
    guarantee: Cents = 0
    max_players: Players | None = None
    min_players: Players | None = None
    seats_per_table: Annotated[int, Field(strict=True, ge=2, le=10)] | None = None
    start_at: Moment | None = Field(
        default=None, description="ISO-8601 with an offset (UTC: Z); required unless format is sng"
    )
    announce_at: Moment | None = Field(default=None, description="registration opens (default: now)")
    starting_stack: PositiveChips | None = None
    level_minutes: Annotated[int, Field(strict=True, ge=1, le=120)] | None = None
    levels: list[LevelRequest] | None = Field(
        default=None,
        max_length=MAX_STRUCTURE_LEVELS,
        description="the blind structure, first level first; blinds never go down (default: the standard structure "
        "at level_minutes)",
    )
    rebuy_levels: tuple[Level, Level] | None = Field(
        default=None, description="rebuy format: the first and last blind level of the rebuy period"
    )
    add_on_chips: PositiveChips | None = None
    payout_percent: tuple[Annotated[int, Field(strict=True, gt=0, le=100)], ...] = Field(
        default=(),
        max_length=100,
        description="a fixed payout, percent per place adding to 100 (default: the table by entrants)",
    )
    decision_seconds: Annotated[int, Field(strict=True, ge=1, le=300)] | None = None
    hand_for_hand: Annotated[bool, Field(strict=True)] | None = Field(
        default=None,
        description="play the bubble hand-for-hand (default: true when the field can fill more than one table)",
    )
    tournament_id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")] | None = Field(
        default=None, description="chosen by the operator (creation is then idempotent), else generated"
    )
