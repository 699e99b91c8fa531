"""The lobby, a tournament's page and the account in the browser, at a phone's and a desktop's size: a screen
name chosen (and refused when taken or malformed, with the server's reason), the lobby's filters, sorting, prize
pools, "Registered" badges, loading and empty states, payouts in money with the places paid, the entrants, a
finished hand replayed street by street, and money in dollars (a refused registration, the ledger's tournaments).
Controls are found by role and accessible name (docs/interfaces.md, 'Web client').
"""

from __future__ import annotations

import re
import time
from datetime import timedelta
from typing import Any

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages, sign_in
from tests.e2e.seeding import PATIENCE, act, call, check_or_call, create, fund, later, register, seed_running

OPERATOR = "lobby-op"


def put_name(stack: LocalRuntime, player: str, name: str) -> None:
    status, answer = call(stack, "PUT", "/me/profile", stack.token(player), {"display_name": name})
    assert status == 200, answer


def test_a_player_chooses_a_screen_name_is_told_why_one_is_refused_and_sees_it_in_the_header(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    # Given another player holds a screen name
    holder, player = f"holder-{size}", f"chooser-{size}"
    put_name(stack, holder, f"Taken {size}")
    page = pages.signed_in(player, viewport=viewport)
    # Then the header asks for a screen name until one is chosen
    header = page.get_by_role("link", name="Choose a screen name")
    header.wait_for()
    # When the player asks for the taken name, in other letters' case
    header.click()
    field = page.get_by_role("textbox", name="Screen name")
    save = page.get_by_role("button", name="Save screen name")
    field.fill(f"taken {size.upper()}")
    save.click()
    # Then the server's refusal is shown, and nothing changed
    page.get_by_role("status").filter(has_text="is taken").wait_for()
    # When the name is too short
    field.fill("ab")
    save.click()
    # Then the reason is the server's
    page.get_by_role("status").filter(has_text="3 to 20 characters").wait_for()
    # When a free name is chosen
    field.fill(f"Chooser {size}")
    save.click()
    # Then it is saved, the header names the player by it, and the API gives it
    page.get_by_role("status").filter(has_text="Saved").wait_for()
    page.get_by_role("link", name=f"Chooser {size}").wait_for()
    status, profile = call(stack, "GET", "/me/profile", stack.token(player))
    assert (status, profile["display_name"]) == (200, f"Chooser {size}")


def lobby_rows(page: Any, size: str) -> list[str]:
    """The names of this test's tournaments, in the order the lobby shows them."""
    page.wait_for_timeout(300)  # the grid is drawn on the change event
    names = page.get_by_role("rowheader").get_by_role("link").all_inner_texts()
    return [name.strip() for name in names if name.strip().endswith(size)]


def test_the_lobby_filters_sorts_marks_registrations_and_shows_prize_pools(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    # Given a cheap guaranteed freezeout the player joined, a dear one another player joined, and a Sit & Go
    player, other = f"scan-{size}", f"rich-{size}"
    fund(stack, OPERATOR, player, other)
    cheap, dear, sng = f"Cheap {size}", f"Dear {size}", f"Six max {size}"
    create(stack, OPERATOR, f"cheap-{size}", later(), name=cheap, buy_in=200, entry_fee=20, guarantee=100_000)
    create(stack, OPERATOR, f"dear-{size}", later() + timedelta(hours=1), name=dear, buy_in=20_000, entry_fee=2_000)
    token = stack.token(OPERATOR, operator=True)
    body = {"name": sng, "format": "sng", "buy_in": 500, "entry_fee": 50, "max_players": 6, "seats_per_table": 6}
    assert call(stack, "POST", "/admin/tournaments", token, body)[0] == 201
    assert register(stack, f"cheap-{size}", player) and register(stack, f"dear-{size}", other)
    # When the player opens the lobby
    page = pages.signed_in(player, viewport=viewport)

    def row(name: str) -> Any:
        return page.get_by_role("row").filter(has=page.get_by_role("link", name=name, exact=True))

    # Then the tournament they joined carries a "Registered" badge, the others none
    row(cheap).get_by_text("Registered", exact=True).wait_for()
    assert row(dear).get_by_text("Registered", exact=True).count() == 0
    # And the prize pool is the guarantee, or what was collected when nothing is guaranteed
    assert "$1,000.00 guaranteed" in row(cheap).inner_text()
    assert "$200.00 collected" in row(dear).inner_text()
    assert "When full" in row(sng).inner_text() and "1 / unlimited" in row(cheap).inner_text()
    # When sorted by buy-in, then by prize pool
    page.get_by_role("combobox", name="Sort by").select_option(label="Buy-in")
    assert lobby_rows(page, size) == [cheap, sng, dear]
    page.get_by_role("combobox", name="Sort by").select_option(label="Prize pool (largest first)")
    assert lobby_rows(page, size) == [cheap, dear, sng]
    # When only Sit & Gos are shown, then only the dear buy-ins
    page.get_by_role("combobox", name="Format").select_option(label="Sit & Go")
    assert sng in lobby_rows(page, size) and cheap not in lobby_rows(page, size)
    page.get_by_role("combobox", name="Format").select_option(label="All formats")
    page.get_by_role("combobox", name="Buy-in").select_option(label="Over $100")
    assert lobby_rows(page, size) == [dear]
    # When no tournament matches, the lobby says so and offers them all again
    page.get_by_role("combobox", name="Format").select_option(label="Sit & Go")
    page.get_by_text("No tournament matches these filters.").wait_for()
    page.get_by_role("button", name="Show all tournaments").click()
    assert set(lobby_rows(page, size)) == {cheap, dear, sng}


def test_the_lobby_says_it_is_loading_and_tells_a_new_player_what_to_do_when_nothing_is_announced(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    # Given a lobby whose answer is held back, then comes empty
    page = pages.open(viewport)
    held: list[Any] = []
    page.route(re.compile(r".*/tournaments$"), lambda route: held.append(route))
    sign_in(page, f"newcomer-{size}")
    # Then, while it waits, the lobby says it is loading
    page.get_by_role("status").filter(has_text="Loading tournaments").wait_for()
    while not held:
        page.wait_for_timeout(100)
    # When the answer is an empty list
    held[0].fulfill(json=[])
    page.unroute(re.compile(r".*/tournaments$"))
    # Then the new player is told what happens next and what to do meanwhile
    page.get_by_role("heading", name="No tournament is announced yet").wait_for()
    page.get_by_role("link", name="choose your screen name and check your balance").click()
    page.get_by_role("button", name="Save screen name").wait_for()


def test_the_tournament_page_pays_in_money_says_unlimited_and_refuses_a_short_wallet_in_dollars(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    # Given an uncapped freezeout paying 50/30/20 of a $1,000.00 guarantee, at $50.00 + $5.00, and a player with $12.00
    player, tid, name = f"short-{size}", f"pays-{size}", f"Pays Cup {size}"
    fund(stack, OPERATOR, player, amount=1_200)
    create(stack, OPERATOR, tid, later(), name=name, buy_in=5_000, entry_fee=500, guarantee=100_000, min_players=3,
           payout_percent=[50, 30, 20])  # fmt: skip
    page = pages.signed_in(player, viewport=viewport)
    # When the player opens the tournament's page
    page.goto(f"{stack.urls['app']}#/t/{tid}")
    payouts = page.get_by_role("region", name="Payouts")
    # Then the payouts are in money, with the places paid, and the field is unlimited
    payouts.get_by_text("Places paid", exact=True).wait_for()
    assert "3" in payouts.locator("dd").nth(1).inner_text()
    prizes = payouts.get_by_role("listitem").all_inner_texts()
    assert [re.sub(r"\s+", " ", p) for p in prizes] == [
        "1st $500.00 (50 %)", "2nd $300.00 (30 %)", "3rd $200.00 (20 %)"
    ], prizes  # fmt: skip
    assert page.get_by_text("0 of unlimited").count() == 1
    # When the player registers without the money
    page.get_by_role("button", name="Register").click()
    # Then the refusal says in dollars what it costs and what the account holds, no cents and no account ids
    refusal = page.get_by_role("status").filter(has_text="you need")
    refusal.wait_for()
    assert "you need $55.00, you have $12.00" in refusal.inner_text()
    assert "cents" not in refusal.inner_text() and player not in refusal.inner_text()
    # When the player is credited, registers, and opens the ledger
    fund(stack, OPERATOR, player, amount=10_000)
    page.get_by_role("button", name="Register").click()
    page.get_by_role("button", name="Unregister").wait_for()
    page.get_by_role("link", name=re.compile("^Balance")).click()
    # Then the ledger names the tournament, never its id
    ledger = page.get_by_role("table", name="Ledger entries, newest first")
    ledger.get_by_role("link", name=name).first.wait_for()
    assert tid not in ledger.inner_text()


def play_hand_through(stack: LocalRuntime, tid: str, players: tuple[str, str], hand: int) -> None:
    """Check or call every decision of ``hand`` at table 1 until the next hand is dealt."""
    deadline = time.time() + PATIENCE
    while time.time() < deadline:
        status, view = call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token(players[0]))
        if status == 200 and view["hand"] > hand:
            return
        if status == 200 and view.get("to_act"):
            act(stack, tid, view, check_or_call(view))
        else:
            time.sleep(0.2)
    raise AssertionError(f"hand {hand} of {tid} did not end")


def test_a_finished_hand_of_a_table_is_replayed_street_by_street(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    # Given a running table whose second hand was checked and called down to the river
    players = (f"rep-a-{size}", f"rep-b-{size}")
    fund(stack, OPERATOR, *players, amount=50_000)
    tid, _ = seed_running(stack, OPERATOR, f"replay-{size}", players)
    play_hand_through(stack, tid, players, 2)
    put_name(stack, players[1], f"Villain {size}")
    page = pages.signed_in(players[0], viewport=viewport)
    # When the player picks the table among the tournament's finished hands, and the second hand
    page.goto(f"{stack.urls['app']}#/t/{tid}")
    hands = page.get_by_role("region", name="Finished hands")
    hands.get_by_role("combobox", name="Table").select_option(label="Table 1")
    hands.get_by_role("link", name="Hand #2").click()
    replay = page.get_by_role("region", name="Replay")
    # Then the replay opens on the preflop with the blinds posted and the player's own cards
    replay.get_by_role("heading", name="Preflop").wait_for()
    assert "posts the big blind" in replay.get_by_role("list", name="Preflop actions").inner_text()
    mine = replay.get_by_role("row").filter(has=page.get_by_role("rowheader", name=players[0]))
    theirs = replay.get_by_role("row").filter(has=page.get_by_role("rowheader", name=f"Villain {size}"))
    assert "hidden" not in mine.inner_text()
    # When the player steps street by street
    for street, board in (("Flop", 3), ("Turn", 4), ("River", 5)):
        replay.get_by_role("button", name="Next street").click()
        # Then each street shows its board and what was done in it
        replay.get_by_role("heading", name=street).wait_for()
        assert replay.locator(".mini-card").count() >= board
        assert "checks" in replay.get_by_role("list", name=f"{street} actions").inner_text()
    replay.get_by_role("button", name="Next street").click()
    replay.get_by_role("heading", name="Result").wait_for()
    assert "collects" in replay.get_by_role("list", name="Result actions").inner_text()
    assert replay.get_by_role("button", name="Next street").is_disabled()
    assert "shows" in replay.get_by_role("list", name="Result actions").inner_text()
    replay.get_by_role("button", name="Previous street").click()
    replay.get_by_role("heading", name="River").wait_for()
    # When the player goes back to the first hand, folded before the flop
    page.get_by_role("link", name="Previous hand").click()
    page.get_by_role("heading", name="Hand #1, table 1").wait_for()
    replay.get_by_role("heading", name="Preflop").wait_for()
    # Then the other player's cards, never shown, stay hidden, and the player's own are there
    assert "hidden" in theirs.inner_text() and "hidden" not in mine.inner_text()
