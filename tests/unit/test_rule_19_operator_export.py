"""The operator's PHH export (docs/rules.md, section 13): every dealt hole card.

An operator reviewing a hand sees who held what: the ``d dh`` lines of
``tourney simulate --phh`` name each player's two cards (never ``????``), the
cards the committed deck holds at the recipe's positions. A player's own
history (``GET .../hands/{hand}``) still hides the cards of others that were
not shown.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from tourney.cli import main
from tourney.domain.cards import cards_str
from tourney.domain.hand import Hand, HoleCardsDealt, HoleCardsShown
from tourney.simulation.memory import Simulation, SimulationOptions, SimulationResult


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Simulation, SimulationResult]:
    sim = Simulation(SimulationOptions(players=12, seed=7, phh_dir=str(tmp_path_factory.mktemp("phh"))))
    return sim, sim.run()


def deal_lines(document: dict[str, object]) -> list[list[str]]:
    return [str(line).split() for line in document["actions"] if str(line).startswith("d dh ")]  # type: ignore[attr-defined]


def test_rule_19_operator_export_shows_every_hole_card(simulated: tuple[Simulation, SimulationResult]) -> None:
    # Given a tournament played to its end with the operator's export
    _, result = simulated
    hands = 0
    for content in result.phh_files.values():
        for document in tomllib.loads(content).values():
            hands += 1
            players = len(document["seats"])
            deck = document["_deck"]
            # Then every player of every hand has a deal line with two real cards
            lines = deal_lines(document)
            assert [words[2] for words in lines] == [f"p{k + 1}" for k in range(players)]
            assert all(words[3] != "????" for words in lines), document["actions"]
            # And they are the cards the committed deck holds at the recipe's positions (k and n + k)
            for k, words in enumerate(lines):
                assert words[3] == deck[2 * k : 2 * k + 2] + deck[2 * (players + k) : 2 * (players + k) + 2]
    assert hands == result.report["hands"] > 10


def test_rule_19_the_exported_file_with_every_hole_card_verifies(
    simulated: tuple[Simulation, SimulationResult], tmp_path: Path
) -> None:
    # When the operator checks a table's export
    _, result = simulated
    table, content = next(iter(result.phh_files.items()))
    path = tmp_path / f"{table}.phh"
    path.write_text(content)
    # Then every hole card written sits at its position in the committed deck
    assert main(["verify-hand", str(path)]) == 0
    # And a hole card changed in a deal line is caught
    document = tomllib.loads(content)["1"]
    first = deal_lines(document)[0][3]
    assert first != "????"
    other = "2c3c" if first != "2c3c" else "4c5c"
    path.write_text(content.replace(f'"d dh p1 {first}"', f'"d dh p1 {other}"', 1))
    assert main(["verify-hand", str(path)]) == 1


def test_rule_19_a_players_own_history_still_hides_the_cards_of_others(
    simulated: tuple[Simulation, SimulationResult],
) -> None:
    sim, _ = simulated
    for hand_number in (1, 2, 3):
        # Given a hand of the tournament and the first player dealt in
        record = sim.store.hands.get(sim.tournament_id, "1", hand_number)
        played = Hand.from_dict(record.hand)
        dealt = {r.seat: cards_str(r.cards) for r in played.log if isinstance(r, HoleCardsDealt)}
        shown = {r.seat for r in played.log if isinstance(r, HoleCardsShown)}
        hero = played.seats[0]
        # When that player reads the hand's history
        view = sim.services.lobby.hand_history(sim.tournament_id, "1", hand_number, record.players[hero])
        # Then its deal lines hide every hand, and no card of another player appears unless that player showed it
        assert all(words[3] == "????" for words in deal_lines(tomllib.loads(view.phh)))
        for seat, cards in dealt.items():
            if seat != hero and seat not in shown:
                assert cards not in view.phh, (hand_number, seat)
