"""Rule 2: a tournament starts at its start time even when its schedule fires early, under the functions' wiring.

EventBridge Scheduler fires to the minute. The ``start`` function may start the start workflow and read the
tournament, nothing more (``infra/wiring.py``): it cannot arm its schedule again. A start that fires early
answers "not yet", and the watchdog starts a tournament still registering a minute past its start time.
"""

from __future__ import annotations

import functools
from datetime import timedelta

from tourney.services.commands import CreateTournament
from tourney.simulation import chaos
from tourney.simulation.cloud import Cloud

START = chaos.EPOCH


def test_rule_2_a_start_fired_early_is_started_within_a_minute_with_the_start_functions_own_permissions() -> None:
    # Given a tournament of three registered players, created and filled through the simulated cloud
    cloud = Cloud(START - timedelta(hours=1))
    services = cloud.services
    command = CreateTournament(
        name="early", format="freezeout", buy_in=1_000, entry_fee=0, start_at=START, tournament_id="t-early"
    )
    cloud.run_as("admin", lambda: services.admin.create_tournament(command))
    for name in ("ann", "bob", "cat"):
        cloud.run_as("admin", functools.partial(services.accounts.deposit, name, 5_000, f"fund-{name}"))
        cloud.invoke_api(functools.partial(services.registration.register, "t-early", name, f"reg-{name}"))
    cloud.every("watchdog", START - timedelta(minutes=5), services.recovery.watch)
    # When its one-time schedule fires 20 seconds early, as the start function
    cloud.run(lambda: False, START - timedelta(seconds=20))
    ok, due = cloud.invoke("start", lambda: services.start.start_due("t-early"))
    # Then no call was refused, nothing started yet
    assert cloud.refused() == []
    assert ok and due is not None and not due.started
    # And the tournament runs within two minutes of its start time, started by the watchdog
    cloud.run(lambda: cloud.store.tournaments.get("t-early").status == "running", START + timedelta(minutes=2))
    assert cloud.store.tournaments.get("t-early").status == "running"
    assert cloud.refused() == []
