"""``tourney verify-hand`` and the commitment on every hand of a simulated tournament.

See docs/interfaces.md, 'Provably fair deals'.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import tomllib
from pathlib import Path

import pytest
from tourney.cli import main
from tourney.domain import fairness
from tourney.domain.cards import cards_str
from tourney.services.records import HandRecord
from tourney.simulation.checks import SimulationError
from tourney.simulation.memory import Simulation, SimulationOptions, SimulationResult
from tourney.verify_hand import verify_file


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Simulation, SimulationResult]:
    sim = Simulation(SimulationOptions(players=12, seed=5, phh_dir=str(tmp_path_factory.mktemp("phh"))))
    return sim, sim.run()


def test_the_commitment_is_checked_on_every_hand_of_a_simulated_tournament(
    simulated: tuple[Simulation, SimulationResult],
) -> None:
    sim, result = simulated
    assert result.report["hands"] > 10
    assert sim.checks.commitments_checked == result.report["hands"]


def test_the_exported_salts_are_those_the_stored_secret_gives_by_the_recipe(
    simulated: tuple[Simulation, SimulationResult],
) -> None:
    # Given every hand of a simulated tournament's operator export, and the secret stored with each hand
    sim, result = simulated
    exported = [hand for content in result.phh_files.values() for hand in tomllib.loads(content).values()]
    assert len(exported) == result.report["hands"]
    for hand in exported:
        secret = bytes.fromhex(sim.store.hands.get(sim.tournament_id, str(hand["table"]), hand["hand"]).hand["secret"])
        # Then its `_salts` are HMAC-SHA256(key=secret, msg=str(i)).hexdigest()[:32], i from 0 to 51
        recipe = [hmac.new(secret, str(i).encode(), hashlib.sha256).hexdigest()[:32] for i in range(52)]
        assert hand["_salts"].split(",") == recipe


def test_every_exported_hand_verifies_and_a_tampered_one_does_not(
    simulated: tuple[Simulation, SimulationResult], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, result = simulated
    text = "\n".join(result.phh_files.values())
    outcomes = verify_file(text.split("\n[2]\n")[0])
    assert outcomes and all(problems == [] for problems in outcomes.values())
    for table, content in result.phh_files.items():
        assert all(p == [] for p in verify_file(content).values()), table
    table, content = next(iter(result.phh_files.items()))
    good = tmp_path / "good.phh"
    good.write_text(content)
    assert main(["verify-hand", str(good)]) == 0
    assert "verified" in capsys.readouterr().out
    # One board card changed in the history: the committed deck has another card there.
    board = re.search(r'"d db ([2-9TJQKA][cdhs])', content)
    assert board is not None
    other = "2c" if board.group(1) != "2c" else "3c"
    bad = tmp_path / "bad.phh"
    bad.write_text(content.replace(f'"d db {board.group(1)}', f'"d db {other}', 1))
    assert main(["verify-hand", str(bad)]) == 1
    assert "committed deck" in capsys.readouterr().out
    # One salt changed: the deck no longer hashes to the commitment.
    salted = tmp_path / "salted.phh"
    salted.write_text(
        re.sub(r'_salts = "([0-9a-f])', lambda m: '_salts = "' + ("0" if m.group(1) != "0" else "1"), content, count=1)
    )
    assert main(["verify-hand", str(salted)]) == 1


def test_a_deck_changed_after_the_deal_is_caught_by_the_simulation(
    simulated: tuple[Simulation, SimulationResult],
) -> None:
    sim, _ = simulated
    checks = sim.checks
    rng = random.Random(3)
    secret = fairness.draw_hand_secret(rng)
    hand = {"deck": cards_str(range(52)), "secret": secret.hex(), "seats": [1, 2], "big_blind_seat": 2}
    checks._commitments[("9", 1)] = (tuple(range(52)), secret)
    swapped = {**hand, "deck": cards_str([1, 0, *range(2, 52)])}
    record = HandRecord("t", "9", 1, swapped, {1: "a", 2: "b"}, 9, 1, sim.cloud.now(), sim.cloud.now())
    with pytest.raises(SimulationError, match="not the deck committed to"):
        checks._deck_committed(record, swapped)


def test_a_file_that_is_not_a_history_fails(tmp_path: Path) -> None:
    path = tmp_path / "x.phh"
    path.write_text("not = [toml")
    assert main(["verify-hand", str(path)]) == 1


def test_a_history_without_a_commitment_is_said_plainly_to_carry_none(
    simulated: tuple[Simulation, SimulationResult], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a PHH hand without the commitment, the deck and the salts (as `tourney hands` writes them)
    _, result = simulated
    content = next(iter(result.phh_files.values())).split("\n[2]\n")[0]
    bare = "\n".join(line for line in content.splitlines() if not line.startswith(("_commitment", "_deck", "_salts")))
    plain = tmp_path / "plain.phh"
    plain.write_text(bare)
    # And a player's JSON history without its fairness reveal
    answer = tmp_path / "answer.json"
    answer.write_text('{"tournament_id": "t1", "table": "2", "hand": 3, "phh": "variant = \\"NT\\""}')
    for path in (plain, answer):
        # When it is verified
        code = main(["verify-hand", str(path)])
        # Then it fails, saying plainly that the file carries no commitment, not quoting a missing key
        out = capsys.readouterr().out
        assert code == 1
        assert "carries no commitment" in out, out
        assert "KeyError" not in out and "'_commitment'" not in out and "'fairness'" not in out, out
