"""A player's hand history reveals what they saw of the committed deck, and verifies.

See docs/interfaces.md, 'Provably fair deals'.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.cli import main
from tourney.domain import fairness
from tourney.verify_hand import verify_player_history

from tests.support.driver import Driver
from tests.unit.services.conftest import started


def test_a_players_history_reveals_what_they_saw_and_verifies(
    services: Services, create: Callable[..., str], clock: FrozenClock, tmp_path: Path
) -> None:
    tid = started(services, create, clock)
    driver = Driver(services)
    table = services.lobby.table_view(tid, "1", "p0")
    assert table.commitment is not None and re.fullmatch(r"[0-9a-f]{64}", table.commitment)
    published = table.commitment
    while services.adapters.store.tables.get(tid, "1").table.hand_number < 2:
        driver.step(tid)
    record = services.adapters.store.hands.get(tid, "1", 1)
    seat = next(s for s, p in record.players.items() if p == "p0")
    history = services.lobby.hand_history(tid, "1", 1, "p0").to_dict()
    observer = services.lobby.hand_history(tid, "1", 1, None).to_dict()
    assert history["fairness"]["commitment"] == observer["fairness"]["commitment"] == published
    assert verify_player_history(history) == [] and verify_player_history(observer) == []
    order = record.hand["seats"]
    own = set(fairness.hole_positions(len(order), order.index(seat)))
    assert own <= {c["i"] for c in history["fairness"]["cards"]}
    shown_to_observer = {c["i"] for c in observer["fairness"]["cards"]}
    if not own <= shown_to_observer:  # p0's cards were not shown at showdown: the observer has only their leaves
        assert own & {v["i"] for v in observer["fairness"]["leaves"]}
    path = tmp_path / "history.json"
    path.write_text(json.dumps(history))
    assert main(["verify-hand", str(path)]) == 0
    first = history["fairness"]["cards"][0]
    first["salt"] = "f" * 32 if first["salt"] != "f" * 32 else "e" * 32
    path.write_text(json.dumps(history))
    assert main(["verify-hand", str(path)]) == 1
