"""An operator's own blind structure (docs/interfaces.md, ``POST /admin/tournaments``, ``levels``): each level's
blinds, ante and minutes, checked in the domain; a broken structure names its level and the rule it breaks."""

import pytest
from tourney.domain.errors import InvalidConfiguration
from tourney.domain.formats import MAX_STRUCTURE_LEVELS
from tourney.domain.structure import (
    BlindLevel,
    LevelSpec,
    TournamentConfig,
    blind_structure,
    format_level_minutes,
)


def test_an_operators_levels_are_numbered_in_order_and_take_the_level_length_unless_they_give_their_own() -> None:
    # Given three levels, the last one 20 minutes long and with a big-blind ante
    specs = [LevelSpec(10, 20), LevelSpec(20, 40, ante=5), LevelSpec(30, 60, ante=60, big_blind_ante=True, minutes=20)]
    # When the structure is made with 12-minute levels
    levels = blind_structure(specs, minutes=12)
    # Then the levels are numbered 1, 2, 3, each with its blinds, its ante and its minutes
    assert levels == (
        BlindLevel(1, 10, 20, 0, False, 12),
        BlindLevel(2, 20, 40, 5, False, 12),
        BlindLevel(3, 30, 60, 60, True, 20),
    )
    # And a tournament takes it as its structure (past the last level, the last continues)
    config = TournamentConfig.for_format("freezeout", buy_in=1_000, entry_fee=100, levels=levels)
    assert config.levels == levels
    assert config.level(7) == levels[-1]


@pytest.mark.parametrize(
    ("specs", "reason"),
    [
        ([], "at least one level"),
        ([LevelSpec(10, 20)] * (MAX_STRUCTURE_LEVELS + 1), f"at most {MAX_STRUCTURE_LEVELS} levels"),
        ([LevelSpec(10, 20), LevelSpec(50, 40)], "level 2: the big blind (40) is below the small blind (50)"),
        ([LevelSpec(0, 20)], "level 1: the small blind must be at least 1"),
        ([LevelSpec(10, 20, ante=-1)], "level 1: the ante must be at least 0"),
        ([LevelSpec(10, 20), LevelSpec(10, 20, big_blind_ante=True)], "level 2: a big-blind ante needs an ante"),
        ([LevelSpec(10, 20, minutes=0)], "level 1: the level's minutes must be at least 1"),
        ([LevelSpec(50, 100), LevelSpec(25, 50)], "level 2: the blinds go down (25/50 after 50/100)"),
        ([LevelSpec(50, 100), LevelSpec(50, 80)], "level 2: the blinds go down (50/80 after 50/100)"),
        ([LevelSpec(10, 20.5)], "level 1: the big blind must be a whole number of chips"),  # type: ignore[arg-type]
    ],
)
def test_a_broken_structure_is_refused_with_its_level_and_its_reason(specs: list[LevelSpec], reason: str) -> None:
    with pytest.raises(InvalidConfiguration) as refused:
        blind_structure(specs, minutes=10)
    assert reason in str(refused.value)


def test_a_structure_may_hold_a_level_or_rise_and_the_format_gives_the_default_level_length() -> None:
    # A level repeated is allowed (a longer stretch at the same blinds); the default length is the format's
    assert len(blind_structure([LevelSpec(10, 20), LevelSpec(10, 20)], minutes=5)) == 2
    assert [format_level_minutes(f) for f in ("freezeout", "rebuy", "sng")] == [10, 10, 5]
