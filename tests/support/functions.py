"""The functions over the in-memory services: fixtures and a tournament at the point a test needs.

Handlers get the services through the sanctioned entry points only:
``app.dependency_overrides`` for the HTTP resolvers and
``tourney.entrypoints.dependencies.use_services`` for everything else.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services, bootstrap_memory
from tourney.entrypoints import dependencies
from tourney.services.commands import CreateTournament

from tests.support.driver import run_start_workflow
from tests.support.events import FakeContext, answer_json, http_event


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock()


@pytest.fixture
def memory(clock: FrozenClock) -> Iterator[Services]:
    """In-memory services given to every handler (HTTP resolvers and the others) for one test."""
    from functions.admin.app import app as admin_app
    from functions.api.app import app as api_app

    services = bootstrap_memory(clock=clock, rng=random.Random(5))
    for app in (api_app, admin_app):
        app.dependency_overrides[dependencies.services] = lambda: services
    with dependencies.use_services(services):
        yield services
    for app in (api_app, admin_app):
        app.dependency_overrides.clear()


@pytest.fixture
def context() -> FakeContext:
    return FakeContext()


def announce(services: Services, clock: FrozenClock, tid: str = "t1", **options: object) -> str:
    """A freezeout announced now, starting in an hour."""
    command = CreateTournament(
        name="Test", format="freezeout", buy_in=1_000, entry_fee=100,
        start_at=clock.now() + timedelta(hours=1), tournament_id=tid, **options,  # type: ignore[arg-type]
    )  # fmt: skip
    return services.admin.create_tournament(command).id


def fund(services: Services, *players: str, amount: int = 10_000) -> None:
    for player in players:
        services.accounts.deposit(player, amount, key=f"fund-{player}")


def running(services: Services, clock: FrozenClock, players: int = 4, tid: str = "t1") -> tuple[str, str]:
    """A tournament started and dealt (the start workflow run through the services); its id and first table."""
    announce(services, clock, tid)
    names = [f"p{i}" for i in range(players)]
    fund(services, *names)
    for name in names:
        services.registration.register(tid, name)
    clock.set(services.adapters.store.tournaments.get(tid).start_at)
    services.start.start_due(tid)
    run_start_workflow(services, tid)
    return tid, services.adapters.store.tables.list(tid)[0].table_id


def create_through_the_api(context: FakeContext, clock: FrozenClock, **fields: Any) -> tuple[int, Any]:
    """An operator's ``POST /admin/tournaments``: a $10 + $1 freezeout an hour from now, ``fields`` over it (a field
    given None is left out); the status and the answer."""
    from functions.admin.app import handler as admin

    body = {
        "name": "Created",
        "format": "freezeout",
        "buy_in": 1_000,
        "entry_fee": 100,
        "start_at": (clock.now() + timedelta(hours=1)).isoformat(),
        **fields,
    }
    body = {k: v for k, v in body.items() if v is not None}
    response = admin(http_event("POST", "/admin/tournaments", body=body, player="olga", operator=True), context)
    return response["statusCode"], answer_json(response)
