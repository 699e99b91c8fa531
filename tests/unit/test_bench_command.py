"""``tourney bench engine`` (docs/interfaces.md): ours against pokerkit and treys, side by side, same seeded inputs."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pokerkit import HoleDealing
from tourney.cli import build_parser, main
from tourney.domain.cards import card_str
from tourney.domain.hand import Bet, BoardDealt, Called, Checked, Folded, HoleCardsDealt, Raised

from bench.command import format_table, meets_targets
from bench.engine import play_ours, play_pokerkit, seeded_hands

CONTRACT_FIELDS = {
    "ours_hands_per_s",
    "pokerkit_hands_per_s",
    "hands_ratio",
    "ours_evals_per_s",
    "treys_evals_per_s",
    "evals_ratio",
}

TINY_RUN = ["bench", "engine", "--hands", "4", "--repetitions", "1", "--evals", "500"]


def _ours_decisions(seed: tuple[int, int]) -> list[tuple[str, int]]:
    hand = play_ours(*seed)
    decisions = []
    for record in hand.log:
        if isinstance(record, Folded):
            decisions.append(("fold", 0))
        elif isinstance(record, Checked | Called):
            decisions.append(("check_or_call", 0))
        elif isinstance(record, Bet | Raised):
            decisions.append(("bet_or_raise_to", record.to))
    return decisions


def _pokerkit_decisions(seed: tuple[int, int]) -> list[tuple[str, int]]:
    from pokerkit import CheckingOrCalling, CompletionBettingOrRaisingTo, Folding

    decisions = []
    for operation in play_pokerkit(*seed).operations:
        if isinstance(operation, Folding):
            decisions.append(("fold", 0))
        elif isinstance(operation, CheckingOrCalling):
            decisions.append(("check_or_call", 0))
        elif isinstance(operation, CompletionBettingOrRaisingTo):
            decisions.append(("bet_or_raise_to", operation.amount))
    return decisions


def test_engine_json_is_one_object_with_the_contract_fields(capsys: pytest.CaptureFixture[str]) -> None:
    # When the engine bench runs a tiny pass with --json
    assert main([*TINY_RUN, "--json"]) == 0
    output = capsys.readouterr().out
    # Then stdout is exactly one JSON object holding every field docs/interfaces.md names
    figures = json.loads(output)
    assert isinstance(figures, dict)
    assert figures.keys() >= CONTRACT_FIELDS
    # And the rates are positive and the ratios are ours over theirs
    assert all(figures[name] > 0 for name in CONTRACT_FIELDS)
    assert figures["hands_ratio"] == pytest.approx(figures["ours_hands_per_s"] / figures["pokerkit_hands_per_s"], 0.01)
    assert figures["evals_ratio"] == pytest.approx(figures["ours_evals_per_s"] / figures["treys_evals_per_s"], 0.01)
    # And the run says how it was measured: 9-handed, the median of its repetitions, the production shuffle too
    assert figures["players"] == 9
    assert figures["statistic"] == "median"
    assert figures["ours_secrets_hands_per_s"] > 0


def test_engine_without_json_prints_a_readable_table(capsys: pytest.CaptureFixture[str]) -> None:
    # When the engine bench runs without --json
    assert main(TINY_RUN) == 0
    output = capsys.readouterr().out
    # Then it prints a table with a row per measure, each against its reference and target
    assert "hands/s (seeded deck)" in output and "pokerkit" in output and ">= 20x" in output
    assert "hands/s (secrets shuffle)" in output
    assert "7-card evaluations/s" in output and "treys" in output and ">= 10x" in output
    with pytest.raises(json.JSONDecodeError):
        json.loads(output)


def test_both_engines_get_the_same_deck_and_make_the_same_decisions() -> None:
    for seed in seeded_hands(3, 30):
        # Given one seeded hand played by each engine
        ours = play_ours(*seed)
        theirs = play_pokerkit(*seed)
        # Then the hole cards are the same cards, player by player
        ours_holes = [
            "".join(card_str(c) for c in record.cards) for record in ours.log if isinstance(record, HoleCardsDealt)
        ]
        theirs_holes = [""] * 9
        for operation in theirs.operations:
            if isinstance(operation, HoleDealing):
                theirs_holes[operation.player_index] += "".join(repr(c) for c in operation.cards)
        assert ours_holes == theirs_holes
        # And the same draws made the same decisions, amounts included
        assert _ours_decisions(seed) == _pokerkit_decisions(seed)


def test_both_engines_deal_the_same_board_and_finish_with_the_same_stacks() -> None:
    for seed in seeded_hands(4, 40):
        # Given one seeded hand played by each engine
        ours = play_ours(*seed)
        theirs = play_pokerkit(*seed)
        # Then the board cards dealt are the same
        ours_board = "".join(card_str(c) for r in ours.log if isinstance(r, BoardDealt) for c in r.cards)
        assert ours_board == "".join(repr(cards[0]) for cards in theirs.board_cards)
        # And every seat finishes with the same stack
        assert ours.result is not None
        assert [ours.result.finishing_stacks[seat] for seat in range(1, 10)] == list(theirs.stacks)


def _figures(**overrides: Any) -> dict[str, Any]:
    figures: dict[str, Any] = {
        "hands_ratio": 25.0,
        "evals_ratio": 12.0,
        "outcome_mismatches": 0,
        "targets": {"hands_ratio": 20.0, "evals_ratio": 10.0},
    }
    return figures | overrides


def test_targets_are_met_only_with_both_ratios_high_enough_and_the_same_outcomes() -> None:
    assert meets_targets(_figures())
    assert not meets_targets(_figures(hands_ratio=19.99))
    assert not meets_targets(_figures(evals_ratio=9.5))
    assert not meets_targets(_figures(outcome_mismatches=1))


def test_the_table_flags_a_missed_target() -> None:
    # Given figures where the hands ratio is under 20x
    figures = _figures(hands_ratio=12.5) | {
        "ours_hands_per_s": 1250.0,
        "pokerkit_hands_per_s": 100.0,
        "ours_secrets_hands_per_s": 1000.0,
        "ours_evals_per_s": 1_200_000.0,
        "treys_evals_per_s": 100_000.0,
        "players": 9,
        "hands": 300,
        "evals": 200_000,
        "repetitions": 5,
        "seed": 1,
        "cpus": 2,
        "seconds": 20.0,
    }
    # When it is printed as a table
    lines = format_table(figures).splitlines()
    # Then the hands row says NOT MET and the evaluations row says met
    hands_row = next(line for line in lines if line.startswith("hands/s (seeded deck)"))
    evals_row = next(line for line in lines if line.startswith("7-card evaluations/s"))
    assert hands_row.endswith("12.50x  >= 20x  NOT MET")
    assert evals_row.endswith("12.00x  >= 10x  met")


def test_the_other_benchmarks_are_subcommands_of_tourney_bench() -> None:
    # When the command line names the balancing and simulation benchmarks
    balancing = build_parser(["bench", "balancing"]).parse_args(["bench", "balancing"])
    simulation = build_parser(["bench"]).parse_args(["bench", "simulation", "--players", "50", "--seed", "3"])
    # Then each parses to its own benchmark with its options
    assert balancing.benchmark == "balancing"
    assert (simulation.benchmark, simulation.players, simulation.seed) == ("simulation", 50, 3)
