"""The play path makes no reference cycles, so the simulator may stop the cyclic garbage collector.

``Simulation.run`` freezes the seated field and disables the collector for the
rest of the run (``simulation/memory.py``): the collector's passes over the
pending time-outs and events cost a tenth of a 10,000-player run. That is only
safe while reference counting frees everything the services allocate: a cycle
made per hand or per action would grow the heap without bound. These runs keep
the collector off from the first registration to the last prize and count what
only the collector could have freed, each in a fresh interpreter: in the test
process, threads another test left behind (a local stack's pollers, a pool's
workers) would add garbage of their own to the count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CYCLES_ALLOWED = 50
"""A few cycles made once per run (closures that refer to themselves, say), never per hand."""

RUN = """
import gc, json, sys
from tourney.domain.formats import TournamentFormat
from tourney.simulation.memory import Simulation, SimulationOptions
given = json.loads(sys.argv[1])
options = SimulationOptions(**{**given, "format": TournamentFormat(given.get("format", "freezeout"))})
gc.collect()
gc.disable()
simulation = Simulation(options)  # alive while counting: the run's own object graph has cycles, once
report = simulation.run().report
print(json.dumps({"hands": report["hands"], "collector_off": not gc.isenabled(), "cycles": gc.collect()}))
"""


def _count(**options: object) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, json.dumps(options)],
        env={"PYTHONPATH": f"{ROOT / 'layers'}:{ROOT}", "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "options",
    [
        {"players": 60, "seed": 5},
        {"players": 30, "seed": 6, "format": "rebuy", "rebuy_minutes": 30, "add_on_chips": 5_000},
        {"players": 9, "seed": 7, "format": "sng"},
    ],
    ids=["freezeout", "rebuy", "sit-and-go"],
)
def test_a_whole_tournament_leaves_no_cyclic_garbage(options: dict[str, object]) -> None:
    counted = _count(**options)
    assert counted["hands"] > 50  # type: ignore[operator]
    assert counted["collector_off"], "the run left the collector as it found it"
    assert counted["cycles"] <= CYCLES_ALLOWED  # type: ignore[operator]
