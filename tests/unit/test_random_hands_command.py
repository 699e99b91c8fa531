"""``tourney hands`` (docs/interfaces.md): random-action hands written as PHH, replayed strictly by pokerkit."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest
from tourney.cli import main
from tourney.simulation.random_hands import hand_seeds, play_random_hand

from tests.support.pokerkit_oracle import finishing_stacks


def _run(out: Path, *, players: int, count: int, seed: int) -> list[Path]:
    code = main(["hands", "--players", str(players), "--count", str(count), "--seed", str(seed), "--out", str(out)])
    assert code == 0
    return sorted(out.glob("*.phh"), key=lambda p: int(p.stem))


@pytest.mark.parametrize("players", [9, 2, 6])
def test_every_written_hand_replays_strictly_in_pokerkit_to_the_same_finishing_stacks(
    tmp_path: Path, players: int
) -> None:
    # Given the command run for a few hands
    paths = _run(tmp_path, players=players, count=12, seed=2024)
    # Then it wrote one file per hand, named 1..K
    assert [p.name for p in paths] == [f"{k}.phh" for k in range(1, 13)]
    for path in paths:
        text = path.read_text()
        fields = tomllib.loads(text)
        # And each hand is NLHE with N fresh 10,000 stacks and blinds 50/100
        assert fields["starting_stacks"] == [10_000] * players
        assert sorted(fields["blinds_or_straddles"]) == [0] * (players - 2) + [50, 100]
        assert fields["min_bet"] == 100
        # And pokerkit, applying every line exactly once (showdowns checked too), ends with our stacks
        assert finishing_stacks(text, check_showdown=True) == fields["finishing_stacks"], path.name
        # And no chip was made or lost
        assert sum(fields["finishing_stacks"]) == 10_000 * players


def test_the_same_seed_writes_identical_files_and_another_seed_does_not(tmp_path: Path) -> None:
    # Given two runs with seed 5 and one with seed 6
    first = _run(tmp_path / "a", players=9, count=5, seed=5)
    second = _run(tmp_path / "b", players=9, count=5, seed=5)
    other = _run(tmp_path / "c", players=9, count=5, seed=6)
    # Then the runs with the same seed are byte-identical
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]
    # And another seed deals other hands
    assert [p.read_bytes() for p in first] != [p.read_bytes() for p in other]


def test_hand_k_does_not_depend_on_how_many_hands_are_asked_for(tmp_path: Path) -> None:
    # Given runs of 2 and of 4 hands with the same seed
    short = _run(tmp_path / "short", players=4, count=2, seed=11)
    long = _run(tmp_path / "long", players=4, count=4, seed=11)
    # Then the first two hands are the same files
    assert [p.read_bytes() for p in short] == [p.read_bytes() for p in long[:2]]
    # And the per-hand seeds are a prefix of each other
    assert hand_seeds(11, 2) == hand_seeds(11, 4)[:2]


def test_random_play_uses_every_kind_of_decision_over_many_hands() -> None:
    # Given 40 random 9-handed hands
    kinds = set()
    showdowns = 0
    for seed in range(40):
        hand = play_random_hand(9, random.Random(seed))
        kinds |= {type(record).__name__ for record in hand.log}
        showdowns += hand.result is not None and hand.result.showdown
    # Then folds, checks, calls, bets, raises and all-ins all happened, and some hands went to showdown
    assert {"Folded", "Checked", "Called", "Bet", "Raised"} <= kinds
    assert showdowns > 0


def test_players_outside_2_to_10_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # When the command is asked for one player
    with pytest.raises(SystemExit) as exit_info:
        main(["hands", "--players", "1", "--count", "1", "--out", str(tmp_path)])
    # Then it stops with a usage error and writes nothing
    assert exit_info.value.code == 2
    assert "players must be 2 to 10" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.phh"))
