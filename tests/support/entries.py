"""A tournament's field as a test's Given: created through the operators' service and entered by funded players."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.services.commands import CreateTournament


def entered(
    services: Services, clock: FrozenClock, players: Sequence[str], deposit: int, **creation: Any
) -> tuple[str, datetime]:
    """Tournament ``creation`` announced now and starting in an hour, ``players`` each given ``deposit`` cents and
    registered: its id and start time."""
    start_at = clock.now() + timedelta(hours=1)
    tid = services.admin.create_tournament(CreateTournament(start_at=start_at, **creation)).id
    for name in players:
        services.accounts.deposit(name, deposit, key=f"d-{name}")
        services.registration.register(tid, name)
    return tid, start_at
