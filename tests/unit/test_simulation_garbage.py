"""The play path makes no reference cycles, so the simulator may stop the cyclic garbage collector.

``Simulation.run`` freezes the seated field and disables the collector for the
rest of the run (``simulation/memory.py``): the collector's passes over the
pending time-outs and events cost a tenth of a 10,000-player run. That is only
safe while reference counting frees everything the services allocate: a cycle
made per hand or per action would grow the heap without bound. These runs keep
the collector off from the first registration to the last prize and count what
only the collector could have freed.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from tourney.domain.structure import TournamentFormat
from tourney.simulation.memory import Simulation, SimulationOptions

CYCLES_ALLOWED = 50
"""A few cycles made once per run (closures that refer to themselves, say), never per hand."""


@pytest.fixture
def collector_off() -> Iterator[None]:
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@pytest.mark.parametrize(
    "options",
    [
        SimulationOptions(players=60, seed=5),
        SimulationOptions(players=30, seed=6, format=TournamentFormat.REBUY, rebuy_minutes=30, add_on_chips=5_000),
        SimulationOptions(players=9, seed=7, format=TournamentFormat.SNG),
    ],
    ids=["freezeout", "rebuy", "sit-and-go"],
)
def test_a_whole_tournament_leaves_no_cyclic_garbage(collector_off: None, options: SimulationOptions) -> None:
    simulation = Simulation(options)  # alive while counting: the run's own object graph has cycles, once
    report = simulation.run().report

    assert report["hands"] > 50
    assert not gc.isenabled(), "the run left the collector as it found it"
    assert gc.collect() <= CYCLES_ALLOWED
    del simulation
