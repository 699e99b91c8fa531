"""Rule 10: a tournament's fixed payout table is the payout rule's, checked when the structure is made.

``Payout`` owns the rule (places paid best first, a worse place never paid
more, shares adding up to the pool); a configuration that breaks it is refused
where it is built, whatever builds it (the API's creation, ``for_format``, a
stored record read back), never found later by the lobby or the coordinator.
"""

from __future__ import annotations

import pytest
from tourney.domain.errors import InvalidConfiguration
from tourney.domain.formats import TournamentFormat
from tourney.domain.prizes import PERCENT, fixed_payout
from tourney.domain.structure import TournamentConfig


def freezeout(**changes: object) -> TournamentConfig:
    return TournamentConfig.for_format("freezeout", buy_in=1_000, entry_fee=100, **changes)


@pytest.mark.parametrize(
    ("percent", "fragment"),
    [
        ((10, 90), "never pay a worse place more"),
        ((50, 20, 30), "never pay a worse place more"),
        ((60, 30), "adding to 100"),
        ((101, -1), "positive"),
        ((100, 0), "positive"),
    ],
)
def test_rule_10_a_payout_table_that_breaks_the_payout_rule_is_refused_at_creation(
    percent: tuple[int, ...], fragment: str
) -> None:
    # Given a freezeout, When an operator fixes a payout table that breaks the payout rule
    # Then the configuration is refused with the payout rule's reason, and so is every other way in
    with pytest.raises(InvalidConfiguration, match=fragment):
        freezeout(payout_percent=percent)
    raw = {**freezeout().to_dict(), "payout_percent": list(percent)}
    with pytest.raises(InvalidConfiguration, match=fragment):
        TournamentConfig.from_dict(raw)
    with pytest.raises(InvalidConfiguration, match=fragment):
        TournamentConfig(format=TournamentFormat.FREEZEOUT, buy_in=1, entry_fee=0, payout_percent=percent)


def test_rule_10_a_payout_table_paying_more_places_than_the_field_can_hold_is_refused() -> None:
    # Given a tournament of at most 2 players, When it fixes three paid places
    # Then it is refused: no field of this tournament could ever be paid by that table
    with pytest.raises(InvalidConfiguration, match="places"):
        freezeout(max_players=2, payout_percent=(50, 30, 20))
    # And a field that can hold them may fix them
    assert freezeout(max_players=3, payout_percent=(50, 30, 20)).payout_percent == (50, 30, 20)


def test_rule_10_a_heads_up_sit_and_go_pays_its_winner_the_whole_pool() -> None:
    # When a Sit&Go of two seats is configured with the format's defaults
    config = TournamentConfig.for_format(TournamentFormat.SNG, buy_in=500, entry_fee=50, seats_per_table=2)
    # Then it is accepted and pays one place (the table by entrants: 2-4 entrants, winner takes all)
    assert (config.max_players, config.payout_percent) == (2, ())


def test_rule_10_the_payout_rule_is_the_one_the_prizes_are_paid_by() -> None:
    # Given a valid table, Then the structure keeps it and the payout built from it pays those shares
    assert [g.parts // PERCENT for g in fixed_payout((50, 30, 20)).groups] == [50, 30, 20]
    assert freezeout(payout_percent=(50, 50)).payout_percent == (50, 50)
    # And the rule itself refuses a worse place paid more
    with pytest.raises(ValueError, match="never pay a worse place more"):
        fixed_payout((10, 90))


def test_rule_10_a_stored_structure_paying_more_places_than_its_field_still_loads() -> None:
    # Given a Sit&Go of two stored when its default 50/30/20 was kept (a field smaller than the places)
    raw = {**TournamentConfig.for_format("sng", buy_in=500, entry_fee=50, seats_per_table=2).to_dict()}
    raw["payout_percent"] = [50, 30, 20]
    # When it is read back, Then it loads: its two players are paid by the table by entrants
    assert TournamentConfig.from_dict(raw).payout_percent == (50, 30, 20)
    # But a stored table that breaks the payout rule is refused on reading too
    with pytest.raises(InvalidConfiguration, match="never pay a worse place more"):
        TournamentConfig.from_dict({**raw, "payout_percent": [20, 30, 50]})
