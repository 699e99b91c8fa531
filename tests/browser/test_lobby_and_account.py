"""The lobby, a tournament's page and the account in the browser, at a phone's and a desktop's size: a screen
name chosen (and refused when taken or malformed, with the server's reason), the lobby's filters, sorting, prize
pools, "Registered" badges, loading and empty states, payouts in money with the places paid, the entrants, a
finished hand replayed street by street, and money in dollars (a refused registration, the ledger's tournaments).
Controls are found by role and accessible name (docs/interfaces.md, 'Web client').
"""

from __future__ import annotations

import pytest

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import DESKTOP, PHONE, Pages
from tests.e2e.seeding import call

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
