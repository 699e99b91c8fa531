"""Formats, blind levels and a tournament's configuration (docs/rules.md, 'Defaults', 'Rebuys and add-ons')."""

import itertools

import pytest
from tourney.domain.errors import InvalidConfiguration
from tourney.domain.formats import TournamentFormat
from tourney.domain.structure import (
    AddOn,
    BlindLevel,
    RebuyPeriod,
    TournamentConfig,
    default_levels,
    levels_with_minutes,
    rebuy_period_for_minutes,
)


def test_defaults_blinds_follow_the_rules_md_list_for_the_first_twelve_levels() -> None:
    # Given the default structure
    levels = default_levels()
    # When reading the first twelve levels
    blinds = [(lv.small_blind, lv.big_blind) for lv in levels[:12]]
    # Then they are exactly docs/rules.md's list
    assert blinds == [
        (25, 50), (50, 100), (75, 150), (100, 200), (150, 300), (200, 400),
        (300, 600), (400, 800), (500, 1000), (600, 1200), (800, 1600), (1000, 2000),
    ]  # fmt: skip


def test_defaults_blinds_continue_rising_20_to_50_percent_with_round_numbers() -> None:
    # Given the default structure beyond docs/rules.md's explicit list
    levels = default_levels()
    # Then level 13 onwards continues 1,500/3,000, 2,000/4,000, 3,000/6,000 ...
    assert [lv.small_blind for lv in levels[12:20]] == [1500, 2000, 3000, 4000, 5000, 6000, 8000, 10000]
    # And every step from level 3 on rises between 20 % and 50 %
    for before, after in itertools.pairwise(levels[2:]):
        assert 120 * before.big_blind <= 100 * after.big_blind <= 150 * before.big_blind
    assert len(levels) == 60
    assert levels[-1].big_blind == 2_000_000_000


def test_defaults_big_blind_ante_from_the_fourth_level() -> None:
    # Given the default structure
    levels = default_levels()
    # Then levels 1-3 have no ante and level 4 on has a big-blind ante of one big blind
    assert [(lv.ante, lv.big_blind_ante) for lv in levels[:3]] == [(0, False)] * 3
    assert (levels[3].ante, levels[3].big_blind_ante) == (200, True)
    assert all(lv.big_blind_ante and lv.ante == lv.big_blind for lv in levels[3:])


def test_defaults_freezeout_ten_minute_levels_nine_seats_ten_thousand_chips() -> None:
    # When an operator sets only the format and the price
    config = TournamentConfig.for_format("freezeout", buy_in=10_00, entry_fee=1_00)
    # Then the docs/rules.md defaults apply
    assert config.format is TournamentFormat.FREEZEOUT
    assert (config.starting_stack, config.seats_per_table, config.level_minutes) == (10_000, 9, 10)
    assert {lv.minutes for lv in config.levels} == {10}
    assert (config.decision_seconds, config.away_decision_seconds) == (15, 5)
    assert (config.min_players, config.waiting_list_size, config.entry_cost) == (2, 10, 11_00)
    assert config.rebuy_periods == () and config.add_on is None
    assert not config.rebuys_open(1)
    assert config.last_rebuy_level is None


def test_defaults_sit_and_go_five_minute_levels_nine_seats_paying_three() -> None:
    # When a Sit&Go is configured with defaults
    config = TournamentConfig.for_format(TournamentFormat.SNG, buy_in=5_00, entry_fee=50)
    # Then it has 5-minute levels, 9 seats and 9 players, pays 50/30/20 and has no waiting list
    assert (config.level_minutes, config.levels[0].minutes, config.levels[7].minutes) == (5, 5, 5)
    assert (config.seats_per_table, config.max_players) == (9, 9)
    assert config.payout_percent == (50, 30, 20)
    assert config.waiting_list_size == 0


def test_rebuys_default_period_is_the_first_six_levels_and_add_on_at_its_end() -> None:
    # Given a rebuy tournament with an add-on of 15,000 chips
    config = TournamentConfig.for_format("rebuy", buy_in=2_00, entry_fee=20, add_on=AddOn(15_000))
    # Then rebuys are open in levels 1-6 only, each giving the starting stack
    assert [config.rebuys_open(n) for n in (1, 6, 7)] == [True, True, False]
    assert config.last_rebuy_level == 6
    assert config.chips_per_rebuy == 10_000
    assert config.add_on == AddOn(15_000)


def test_rebuys_period_from_minutes_covers_whole_levels() -> None:
    # When the rebuy period is given in minutes (``--rebuy-minutes``)
    # Then it covers the whole levels that contain those minutes
    assert rebuy_period_for_minutes(60, 10) == RebuyPeriod(1, 6)
    assert rebuy_period_for_minutes(61, 10) == RebuyPeriod(1, 7)
    assert rebuy_period_for_minutes(3, 5) == RebuyPeriod(1, 1)


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"seats_per_table": 1}, "seats per table"),
        ({"seats_per_table": 11}, "at most 10"),
        ({"buy_in": 10.5}, "integer"),
        ({"entry_fee": -1}, "entry_fee"),
        ({"guarantee": True}, "integer"),
        ({"min_players": 1}, "min players"),
        ({"min_players": 10, "max_players": 9}, "max players"),
        ({"starting_stack": 0}, "starting stack"),
        ({"decision_seconds": 0}, "decision seconds"),
        ({"rebuy_periods": (RebuyPeriod(1, 3),)}, "neither rebuys"),
        ({"add_on": AddOn(5000)}, "neither rebuys"),
        ({"format": "bounty"}, "unknown format"),
        ({"payout_percent": (60, 30)}, "adding to 100"),
        ({"levels": (BlindLevel(2, 25, 50),)}, "numbered"),
    ],
)
def test_invalid_configuration_is_refused_with_a_clear_error(changes: dict[str, object], fragment: str) -> None:
    # Given a valid freezeout
    config = TournamentConfig.for_format("freezeout", buy_in=1_000, entry_fee=100)
    # When one field breaks a rule
    # Then the configuration is refused with an InvalidConfiguration naming it
    with pytest.raises(InvalidConfiguration, match=fragment) as raised:
        config.with_changes(**changes)
    assert raised.value.code == "invalid_configuration"


def test_invalid_rebuy_tournament_without_period_or_with_overlapping_periods() -> None:
    # A rebuy tournament needs at least one period, and periods may not overlap
    with pytest.raises(InvalidConfiguration, match="at least one rebuy period"):
        TournamentConfig(format=TournamentFormat.REBUY, buy_in=100, entry_fee=0)
    with pytest.raises(InvalidConfiguration, match="overlap"):
        TournamentConfig(
            format=TournamentFormat.REBUY, buy_in=100, entry_fee=0, rebuy_periods=(RebuyPeriod(1, 4), RebuyPeriod(4, 6))
        )


def test_invalid_blind_level_big_blind_below_small_blind() -> None:
    with pytest.raises(InvalidConfiguration, match="big blind"):
        BlindLevel(1, 100, 50)
    with pytest.raises(InvalidConfiguration, match="big-blind ante"):
        BlindLevel(1, 50, 100, ante=0, big_blind_ante=True)


def test_level_past_the_structure_end_is_the_last_level() -> None:
    # Given a three-level custom structure
    levels = (BlindLevel(1, 10, 20), BlindLevel(2, 20, 40), BlindLevel(3, 30, 60, ante=5))
    config = TournamentConfig(format=TournamentFormat.FREEZEOUT, buy_in=0, entry_fee=0, levels=levels)
    # Then level 2 is level 2 and level 9 is still level 3
    assert config.level(2).big_blind == 40
    assert config.level(9) == levels[2]


def test_level_minutes_option_sets_every_level_duration() -> None:
    # Given --level-minutes 3
    config = TournamentConfig.for_format("freezeout", buy_in=100, entry_fee=10, level_minutes=3)
    # Then every default level lasts 3 minutes, and a structure can be re-timed
    assert {lv.minutes for lv in config.levels} == {3}
    assert {lv.minutes for lv in levels_with_minutes(config.levels[:5], 7)} == {7}


def test_configuration_round_trips_through_plain_data() -> None:
    # Given a rebuy tournament with a guarantee and an add-on
    config = TournamentConfig.for_format(
        "rebuy", buy_in=5_00, entry_fee=0, guarantee=1_000_00, add_on=AddOn(20_000), seats_per_table=6
    )
    # When stored as plain data and read back
    raw = config.to_dict()
    # Then it is the same configuration
    assert TournamentConfig.from_dict(raw) == config
    assert raw["format"] == "rebuy" and raw["rebuy_periods"] == [[1, 6]] and raw["add_on"] == {"chips": 20_000}
