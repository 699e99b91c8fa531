"""Display names as seats, standings, places, chat lines and pushes show them (docs/interfaces.md, ``name``).

A player's chosen name (``PUT /me/profile``), else their player id. Read by key from their account, and kept a
minute in the running container: a table's every push names its nine players, and names change rarely (a
change is seen at once where it was made, within a minute elsewhere).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from tourney.services.deps import Deps

KEPT = timedelta(minutes=1)

_kept: weakref.WeakKeyDictionary[Any, dict[str, tuple[str, datetime]]] = weakref.WeakKeyDictionary()


def names_of(d: Deps, players: Iterable[str | None]) -> dict[str, str]:
    """Each player's display name (their id when they chose none)."""
    now = d.clock.now()
    kept = _kept.setdefault(d.store, {})
    found: dict[str, str] = {}
    for player in players:
        if player is None or player in found:
            continue
        cached = kept.get(player)
        if cached is None or cached[1] <= now:
            account = d.store.accounts.get(player)
            name = account.display_name if account is not None and account.display_name else player
            cached = kept[player] = (name, now + KEPT)
        found[player] = cached[0]
    return found


def forget(d: Deps, player: str) -> None:
    """``player`` changed their name: read it again here."""
    _kept.setdefault(d.store, {}).pop(player, None)
