"""The lobby, a tournament's page and the account in the browser, at a phone's and a desktop's size: a screen
name chosen (and refused when taken or malformed, with the server's reason), the lobby's filters, sorting, prize
pools, "Registered" badges, loading and empty states, payouts in money with the places paid, the entrants, a
finished hand replayed street by street, and money in dollars (a refused registration, the ledger's tournaments).
Controls are found by role and accessible name (docs/interfaces.md, 'Web client').
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import DESKTOP, PHONE, Pages, sign_in
from tests.e2e.seeding import call, create, fund, later, register

OPERATOR = "lobby-op"
SIZES = pytest.mark.parametrize("size", ["phone", "desktop"])
VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}


def put_name(stack: LocalRuntime, player: str, name: str) -> None:
    status, answer = call(stack, "PUT", "/me/profile", stack.token(player), {"display_name": name})
    assert status == 200, answer


@SIZES
def test_a_player_chooses_a_screen_name_is_told_why_one_is_refused_and_sees_it_in_the_header(
    stack: LocalRuntime, pages: Pages, size: str
) -> None:
    # Given another player holds a screen name
    holder, player = f"holder-{size}", f"chooser-{size}"
    put_name(stack, holder, f"Taken {size}")
    page = pages.signed_in(player, viewport=VIEWPORTS[size])
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


@SIZES
def test_the_lobby_filters_sorts_marks_registrations_and_shows_prize_pools(
    stack: LocalRuntime, pages: Pages, size: str
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
    page = pages.signed_in(player, viewport=VIEWPORTS[size])

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


@SIZES
def test_the_lobby_says_it_is_loading_and_tells_a_new_player_what_to_do_when_nothing_is_announced(
    stack: LocalRuntime, pages: Pages, size: str
) -> None:
    # Given a lobby whose answer is held back, then comes empty
    page = pages.open(VIEWPORTS[size])
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
