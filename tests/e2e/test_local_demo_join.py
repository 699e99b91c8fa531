"""The demo's Sit&Go for a person (``tourney demo --join``), on the local stack (the real template
and handlers): the bots take the other seats only once a person has registered, and the Sit&Go is played with
that person to its end. The person here is a client like the web client: a token, a registration over HTTP, the
table over WebSocket, actions over HTTP."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from typing import Any

import aiohttp
import pytest
from tourney.domain.formats import TournamentFormat
from tourney.simulation.bots import Bot, pick_style
from tourney.simulation.local_client import Api, LocalBot, Tally, credit, simulate_local
from tourney.simulation.memory import SimulationOptions

from infra.local.runtime import LocalRuntime
from infra.local.template import load_stack
from tests.e2e.test_local_tournament import REPO_ROOT, TIME_FACTOR, shared_synth

__all__ = ["shared_synth"]  # the synthesized template, one per test run (the infra tests' fixture)


def test_the_bots_fill_a_sit_and_go_only_once_a_person_registers_and_play_it_with_them_to_the_end(
    shared_synth: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    keys = tmp_path_factory.mktemp("keys")
    runtime = LocalRuntime(load_stack(shared_synth.outdir), REPO_ROOT, time_factor=TIME_FACTOR, keys_dir=keys)
    options = SimulationOptions(players=3, seed=8, format=TournamentFormat.SNG, seats=3, level_minutes=1)
    announced: asyncio.Queue[str] = asyncio.Queue()
    seen: dict[str, Any] = {}

    async def person(urls: dict[str, str]) -> None:
        tournament_id = await asyncio.wait_for(announced.get(), 120)
        await credit(urls, runtime.token, "ann", 10_000)
        async with aiohttp.ClientSession() as session:
            api = Api(session, urls["http"], runtime.token("ann"))
            await asyncio.sleep(2.0)  # a person takes a while to find it: the bots must not take the seats meanwhile
            seen["registered_before"] = (await api.ok("GET", f"/tournaments/{tournament_id}"))["registered"]
            await api.ok("POST", f"/tournaments/{tournament_id}/registrations", key="ann-1")
            me = LocalBot("ann", Bot(pick_style(random.Random(1)), random.Random(2)), api, urls["ws"], tournament_id,
                          Tally())  # fmt: skip
            done = asyncio.Event()
            playing = asyncio.create_task(me.play(done))
            while (await api.ok("GET", f"/tournaments/{tournament_id}"))["status"] != "running":
                await asyncio.sleep(0.5)
            me.started.set()
            while (await api.ok("GET", f"/tournaments/{tournament_id}"))["status"] == "running":
                await asyncio.sleep(0.5)
            done.set()
            await playing

    async def both(urls: dict[str, str]) -> dict[str, Any]:
        sit_and_go = simulate_local(
            options,
            urls,
            runtime.token,
            now=lambda: datetime.fromtimestamp(runtime.clock.now(), UTC),
            time_factor=TIME_FACTOR,
            seats_for_people=1,
            announce=lambda tid, _body: announced.put_nowait(tid),
            fill_gap_seconds=0.2,
            timeout_seconds=600.0,
        )
        report, _ = await asyncio.gather(sit_and_go, person(urls))
        return report

    # When the demo announces a Sit&Go for a person, and the person registers a while later and plays
    with runtime:
        report = asyncio.run(both(runtime.urls))
    # Then no bot had taken a seat before the person registered
    assert seen["registered_before"] == 0
    # And the Sit&Go was played with the person to its winner, every place given once
    assert report["tournament"]["status"] == "finished", report
    assert sorted(p["place"] for p in report["places"]) == [1, 2, 3]
    assert "ann" in {p["player"] for p in report["places"]}
    assert report["hole_card_leaks"] == 0, report["leak_examples"]
