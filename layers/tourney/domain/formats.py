"""The tournament formats the room runs, and the longest blind structure an operator may give one.

Apart from ``structure`` so that the operators' create request can name them without importing the
structures, prize tables and ledger that only creating a tournament needs (a cold start of the admin function).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class TournamentFormat(StrEnum):
    """The tournament formats the room runs (docs/rules.md, 'Rebuys and add-ons'; 'Registration')."""

    FREEZEOUT = "freezeout"
    REBUY = "rebuy"
    SNG = "sng"


MAX_STRUCTURE_LEVELS: Final = 100
"""The most levels an operator's blind structure may have (past the last, the last continues)."""
