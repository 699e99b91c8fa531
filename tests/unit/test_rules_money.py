"""docs/rules.md, 'Money' and 'Rebuys and add-ons': scenario tests with exact cents.

Registration money is proven in ``test_registration.py`` and ``test_fees.py``;
this file adds what goes through the tournament in play (``TournamentState`` in
``tournament.py``, with each entrant's ``Contribution`` held by the test as the
entrant's record: ``tests/support/in_play.py``): rebuys and the add-on, who may
buy them and when, and where every cent goes.

The add-on is read as ``TournamentState`` reads it: offered during the level
that follows the last rebuy period (the add-on level), each remaining player
may buy it once in that level.
"""

import random
from datetime import UTC, datetime, timedelta

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import bootstrap_memory
from tourney.domain.errors import Conflict, NotSeated, RegistrationClosed
from tourney.domain.formats import TournamentFormat
from tourney.domain.ledger import Entry, EntryKind, Ledger, Leg, deposit, house_account, player_account, pool_account
from tourney.domain.prizes import BustOut
from tourney.domain.registration import buy_in_payment
from tourney.domain.structure import AddOn, RebuyPeriod, TournamentConfig
from tourney.services.commands import CreateTournament

from tests.support.driver import Driver
from tests.support.in_play import InPlay

ANNOUNCE = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
START = datetime(2025, 6, 1, 20, 0, tzinfo=UTC)
FIRST_HAND = START + timedelta(minutes=1)


def at_minute(minutes: float) -> datetime:
    """An instant ``minutes`` of play after the first hand (10-minute levels: minute 30 is level 4)."""
    return FIRST_HAND + timedelta(minutes=minutes)


def rebuy_config(*, buy_in: int, entry_fee: int) -> TournamentConfig:
    """Rebuys in levels 1-3 (the first 30 minutes), an add-on of 15,000 chips in level 4 (minutes 30-40)."""
    return TournamentConfig.for_format(
        TournamentFormat.REBUY,
        buy_in=buy_in,
        entry_fee=entry_fee,
        rebuy_periods=(RebuyPeriod(1, 3),),
        add_on=AddOn(15_000),
    )


def started(config: TournamentConfig, players: list[str], wallet: int) -> tuple[InPlay, Ledger]:
    """Players deposit ``wallet`` and pay a registration's buy-in and fee; the tournament starts on one table."""
    ledger = Ledger()
    for player in players:
        ledger.post(deposit(f"dep:{player}", player, wallet, ANNOUNCE))
        ledger.post_all(buy_in_payment("t1", player, 1, config, ANNOUNCE))
    tournament = InPlay.start("t1", config, {"1": list(players)})
    tournament.state.first_hand_dealt(FIRST_HAND)
    return tournament, ledger


def wallet(ledger: Ledger, player: str) -> int:
    return ledger.balance(player_account(player))


def test_money_amounts_are_integer_cents_never_floats() -> None:
    # Given a movement of 10.5 "cents" or of True cents
    # When it is written as a ledger entry
    # Then it is refused: a leg is a non-zero int
    with pytest.raises(ValueError, match="integer cents"):
        Entry("k", EntryKind.DEPOSIT, None, (Leg(player_account("ann"), 10.5), Leg(pool_account("t1"), -10.5)), START)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="integer cents"):
        Entry("k", EntryKind.DEPOSIT, None, (Leg(player_account("ann"), True), Leg(pool_account("t1"), -1)), START)
    # And every amount the tournament computes is an int
    tournament, _ = started(rebuy_config(buy_in=1_050, entry_fee=0), ["ann", "bob"], 10_000)
    entries = tournament.rebuy("ann", 0, at_minute(1))
    assert all(type(leg.amount) is int for entry in entries for leg in entry.legs)


def test_rebuys_a_rebuy_costs_buy_in_plus_fee_buy_in_to_the_pool_fee_to_the_house() -> None:
    # Given a rebuy tournament at 10.00 + 1.00; ann registered with 50.00 (39.00 left)
    tournament, ledger = started(rebuy_config(buy_in=1_000, entry_fee=100), ["ann", "bob"], 5_000)
    assert (wallet(ledger, "ann"), ledger.balance(pool_account("t1")), ledger.balance(house_account("t1"))) == (
        3_900,
        2_000,
        200,
    )
    # When ann busts in level 1 and rebuys
    ledger.post_all(tournament.rebuy("ann", 0, at_minute(4)))
    # Then 11.00 more leaves her wallet: 10.00 to the pool and 1.00 to the house
    assert wallet(ledger, "ann") == 2_800
    assert ledger.balance(pool_account("t1")) == 3_000
    assert ledger.balance(house_account("t1")) == 300
    # And her contribution is recorded for the report and for rule 17
    ann = tournament.contributions["ann"]
    assert (ann.rebuys, ann.pool_paid, ann.house_paid, ann.total_paid) == (1, 2_000, 200, 2_200)
    assert tournament.pool_collected == 3_000
    ledger.verify_invariants()


def test_rebuys_with_no_fee_rebuy_and_add_on_pay_4_percent_commission() -> None:
    # Given a 10.50 rebuy tournament with no entry fee: the buy-in paid 0.95 commission (9 % of 10.50 = 0.945)
    tournament, ledger = started(rebuy_config(buy_in=1_050, entry_fee=0), ["ann", "bob"], 5_000)
    assert (ledger.balance(pool_account("t1")), ledger.balance(house_account("t1"))) == (2 * 955, 2 * 95)
    # When ann rebuys in level 2 and takes the add-on in the add-on level (level 4, once level 3 is over)
    ledger.post_all(tournament.rebuy("ann", 4_000, at_minute(15)))
    ledger.post_all(tournament.add_on("ann", at_minute(31)))
    # Then each of those paid 10.50: 4 % (0.42) to the house and 10.08 to the pool
    assert wallet(ledger, "ann") == 5_000 - 3 * 1_050
    assert ledger.balance(pool_account("t1")) == 2 * 955 + 2 * 1_008
    assert ledger.balance(house_account("t1")) == 2 * 95 + 2 * 42
    ann = tournament.contributions["ann"]
    assert (ann.rebuys, ann.addons, ann.pool_paid, ann.house_paid) == (1, 1, 2_971, 179)
    assert [e.kind for e in ledger.entries(account=player_account("ann"))][-2:] == [EntryKind.REBUY, EntryKind.ADD_ON]
    ledger.verify_invariants()


def test_rebuys_only_at_or_below_the_starting_stack_and_only_during_a_rebuy_period() -> None:
    # Given a rebuy tournament with a 10,000-chip starting stack and rebuys in levels 1-3
    tournament, _ = started(rebuy_config(buy_in=1_000, entry_fee=100), ["ann", "bob"], 5_000)
    # Then in level 1 ann may rebuy with 10,000 chips (at the starting stack) but not with 10,001
    tournament.verify_rebuy("ann", 10_000, at_minute(2))
    with pytest.raises(Conflict):
        tournament.verify_rebuy("ann", 10_001, at_minute(2))
    # And at 29:59 of play (level 3) she still may; at 30:00 (level 4) the period is over
    tournament.verify_rebuy("ann", 0, at_minute(29.99))
    with pytest.raises(RegistrationClosed):
        tournament.verify_rebuy("ann", 0, at_minute(30))
    # And a rebuy refused is not posted: only the one bought is in her record
    assert tournament.contributions["ann"].rebuys == 0
    entries = tournament.rebuy("ann", 0, at_minute(2))
    with pytest.raises(Conflict):
        tournament.rebuy("ann", 10_001, at_minute(3))
    assert (len(entries), tournament.contributions["ann"].rebuys) == (2, 1)


def test_rebuys_someone_who_never_entered_may_not_rebuy() -> None:
    """Who entered is an entrant's record, so this part of the rule is proven through the services (play.rebuy)."""
    # Given a running rebuy tournament (10-minute levels, rebuys in levels 1-3) of ann and bob; zed has 50.00 and
    # never registered
    clock = FrozenClock()
    services = bootstrap_memory(clock=clock, rng=random.Random(5))
    start_at = clock.now() + timedelta(hours=1)
    services.admin.create_tournament(
        CreateTournament(
            name="Rebuy", format="rebuy", buy_in=1_000, entry_fee=100, start_at=start_at, level_minutes=10,
            rebuy_levels=(1, 3), tournament_id="t1",
        )
    )  # fmt: skip
    for player in ("ann", "bob", "zed"):
        services.accounts.deposit(player, 5_000, key=f"dep:{player}")
    for player in ("ann", "bob"):
        services.registration.register("t1", player)
    clock.set(start_at)
    services.start.start_due("t1")
    Driver(services).run_workflows()
    store = services.adapters.store
    pool = store.ledger.balance(pool_account("t1"))
    assert pool == 2_000
    # When zed asks to rebuy in level 1
    # Then he is refused, and no money moves
    with pytest.raises(NotSeated):
        services.play.rebuy("t1", "zed")
    assert store.ledger.balance(player_account("zed")) == 5_000
    assert store.ledger.balance(pool_account("t1")) == pool
    assert store.entrants.get("t1", "zed") is None
    # And ann, who entered, may rebuy at that same moment (at the starting stack): 11.00 from her wallet
    services.play.rebuy("t1", "ann")
    assert store.ledger.balance(player_account("ann")) == 5_000 - 2 * 1_100


def test_rebuys_a_freezeout_has_neither_rebuys_nor_an_add_on() -> None:
    # Given a freezeout in its first level
    config = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100)
    tournament, ledger = started(config, ["ann", "bob"], 5_000)
    # Then a busted player cannot rebuy, and no add-on is ever offered
    with pytest.raises(RegistrationClosed):
        tournament.rebuy("ann", 0, at_minute(1))
    assert not tournament.can_add_on("ann", at_minute(1))
    assert not tournament.can_add_on("ann", at_minute(300))
    assert wallet(ledger, "ann") == 3_900


def test_rebuys_the_add_on_is_offered_once_at_the_end_of_the_last_rebuy_period() -> None:
    """``TournamentState``'s reading: the add-on is offered in the level after the last rebuy period, once each.

    A remaining player may buy it once at any time during the add-on level (level 4 here), and not
    after; declining once is not final within the level.
    """
    # Given a rebuy tournament whose last rebuy level is 3 (minutes 20-30), the add-on level 4 (minutes 30-40)
    tournament, ledger = started(rebuy_config(buy_in=1_000, entry_fee=100), ["ann", "bob", "cy"], 5_000)
    # Then during level 3 nobody is offered the add-on
    assert not tournament.can_add_on("ann", at_minute(29.99))
    with pytest.raises(RegistrationClosed):
        tournament.add_on("ann", at_minute(29.99))
    # When level 3 is over: ann buys the add-on, bob does not
    assert tournament.can_add_on("ann", at_minute(30))
    ledger.post_all(tournament.add_on("ann", at_minute(30.5)))
    # Then ann paid 11.00 (10.00 pool, 1.00 house), bob paid nothing
    assert (wallet(ledger, "ann"), wallet(ledger, "bob")) == (2_800, 3_900)
    assert ledger.balance(pool_account("t1")) == 4_000
    assert ledger.balance(house_account("t1")) == 400
    assert tournament.contributions["ann"].addons == 1
    # And ann may not buy it a second time
    assert not tournament.can_add_on("ann", at_minute(31))
    with pytest.raises(Conflict):
        tournament.add_on("ann", at_minute(31))
    # And bob and cy, who have not bought it, still may until the add-on level ends (39:59)
    assert tournament.can_add_on("bob", at_minute(31))
    assert tournament.can_add_on("cy", at_minute(39.99))
    # And from level 5 on, nobody is offered it any more
    assert tournament.state.level_number(at_minute(40)) == 5
    assert not tournament.can_add_on("cy", at_minute(40))
    with pytest.raises(RegistrationClosed):
        tournament.add_on("cy", at_minute(40))
    assert (wallet(ledger, "cy"), tournament.contributions["cy"].addons) == (3_900, 0)


def test_rebuys_an_eliminated_player_cannot_rebuy() -> None:
    # Given ann busted in level 1, did not rebuy and was placed 3rd of 3
    tournament, _ = started(rebuy_config(buy_in=1_000, entry_fee=100), ["ann", "bob", "cy"], 5_000)
    ended = tournament.hand_ended("1", [BustOut("ann", 10_000)], ["bob", "cy"], at_minute(5))
    assert [(p.player_id, p.place) for p in ended.placings] == [("ann", 3)]
    # When she asks to rebuy later in the rebuy period
    # Then she is refused (docs/rules.md: a player who busts may rebuy within the decision time *or is eliminated*)
    with pytest.raises(Conflict):
        tournament.rebuy("ann", 0, at_minute(6))
    assert tournament.contributions["ann"].rebuys == 0


def test_rebuys_an_eliminated_player_is_not_offered_the_add_on() -> None:
    # Given ann was eliminated in level 1 (placed 3rd of 3)
    tournament, _ = started(rebuy_config(buy_in=1_000, entry_fee=100), ["ann", "bob", "cy"], 5_000)
    tournament.hand_ended("1", [BustOut("ann", 10_000)], ["bob", "cy"], at_minute(5))
    # When the last rebuy period is over (the add-on level, level 4)
    # Then the add-on is offered to bob and cy, who are still playing, and not to ann
    assert tournament.can_add_on("bob", at_minute(31))
    assert tournament.can_add_on("cy", at_minute(31))
    assert not tournament.can_add_on("ann", at_minute(31))
    with pytest.raises(Conflict):
        tournament.add_on("ann", at_minute(31))
    assert tournament.contributions["ann"].addons == 0
