"""Rule 17: two operators restarting one terminated tournament at once: one restarts it, the other is a 409 conflict.

The late restart cancels the hands of the termination it read first (rule
17.1) and pauses its clock; when the other restart committed meanwhile, the
tournament runs again: the late one must leave the running clock alone and
answer ``conflict`` (it runs), not ``invalid_clock`` from pausing a clock
that was resumed after the termination.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.errors import Conflict
from tourney.domain.registration import TournamentStatus

from tests.unit.services.conftest import started


def test_rule_17_a_restart_racing_another_is_a_409_conflict_and_the_clock_keeps_running(
    services: Services, create: Callable[..., str], clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a tournament terminated by an operator 4 minutes into play
    tid = started(services, create, clock, level_minutes=10)
    clock.advance(4 * 60)
    services.admin.terminate(tid, "op", "broken")
    clock.advance(60)
    # And a second operator's restart that commits while the first restart is cancelling the hands
    coordinators = services.adapters.store.coordinators
    read = coordinators.get
    raced: list[Any] = []

    def get_with_a_race(tournament_id: str) -> Any:
        if not raced:
            raced.append(None)
            raced[0] = services.admin.restart(tid, "ops-2", "back up")
        return read(tournament_id)

    monkeypatch.setattr(coordinators, "get", get_with_a_race)
    # When the first operator's restart goes on
    with pytest.raises(Conflict) as refused:
        services.admin.restart(tid, "ops-1", "back up")
    # Then it is refused as a conflict (the tournament runs), not as an invalid clock
    assert refused.value.code == "conflict", refused.value
    assert raced and raced[0].status == "running"
    # And the tournament runs with its clock running, at the level and time the other restart resumed
    monkeypatch.undo()
    coordinator = coordinators.get(tid)
    assert coordinator is not None and coordinator.state.clock is not None
    assert not coordinator.state.clock.is_paused
    assert services.adapters.store.tournaments.get(tid).status is TournamentStatus.RUNNING
    assert services.lobby.standings(tid).seconds_to_next_level == 6 * 60
