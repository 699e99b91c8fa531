"""The local stack end to end: bots as real clients of the local stack (the real template and handlers),
over HTTP and WebSocket, from registration through the start (by its schedule) to the winner and payouts.

Every message every bot receives is checked for another player's hole cards while a hand is in play.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from tourney.simulation.local_client import simulate_local
from tourney.simulation.memory import SimulationOptions

from infra.local.runtime import LocalRuntime
from infra.local.template import load_stack

REPO_ROOT = Path(__file__).resolve().parents[2]

from tests.infra import conftest as infra_conftest  # noqa: E402

shared_synth = infra_conftest.synthesized

TIME_FACTOR = 20.0


def test_bots_play_a_tournament_over_http_and_websocket_to_its_winner(
    shared_synth: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # Given the local stack from the synthesized template, its clock 20 times as fast
    runtime = LocalRuntime(
        load_stack(shared_synth.outdir), REPO_ROOT, port=0, time_factor=TIME_FACTOR,
        keys_dir=tmp_path_factory.mktemp("keys"),
    )  # fmt: skip
    options = SimulationOptions(players=4, seed=5, seats=4, buy_in=1_000, entry_fee=100, level_minutes=1)
    # When an operator announces a freezeout, four bots register, and the start schedule fires
    with runtime:
        report = asyncio.run(
            simulate_local(
                options,
                runtime.urls,
                runtime.token,
                now=lambda: datetime.fromtimestamp(runtime.clock.now(), UTC),
                time_factor=TIME_FACTOR,
                registration_seconds=15.0,  # real seconds for four registrations: plenty on a busy machine
                timeout_seconds=600.0,
            )
        )
    # Then it was played to one winner, every place given once
    assert report["tournament"]["status"] == "finished", report
    assert report["tournament"]["started_at"] is not None
    assert sorted(p["place"] for p in report["places"]) == [1, 2, 3, 4]
    assert report["hands"] > 0 and report["actions"] > 0
    # And the prizes paid the pool exactly (2-4 entrants: the winner takes it all), and no money was lost or made
    ledger = report["ledger"]
    assert ledger["prize_pool_collected"] == 4 * 1_000 == ledger["prizes_paid"]
    assert [p["prize"] for p in report["places"] if p["place"] == 1] == [4_000]
    assert ledger["player_balances"] + ledger["house_revenue"] == ledger["deposits"]
    assert ledger["house_revenue"] == 4 * 100
    # And the standings always added up to every chip bought
    assert report["chip_totals_seen"] == [4 * 10_000]
    # And no bot ever received another player's hole cards while a hand was in play
    assert report["messages"] > report["hands"]
    assert report["hole_card_leaks"] == 0, report["leak_examples"]
