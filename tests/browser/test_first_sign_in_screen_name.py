"""The first sign-in asks for a screen name, at a phone's and a desktop's size (docs/interfaces.md, the web client;
``PUT /me/profile``): a player without one is asked at the top of the lobby, told why a name is refused, and greeted
by it once saved; "Not now" leaves it for the session; a player who has one is not asked."""

from __future__ import annotations

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages
from tests.e2e.seeding import call


def profile_name(stack: LocalRuntime, player: str) -> str | None:
    status, profile = call(stack, "GET", "/me/profile", stack.token(player))
    assert status == 200, profile
    name: str | None = profile["display_name"]
    return name


def test_a_new_player_is_asked_for_a_screen_name_at_the_first_sign_in(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    newcomer, holder = f"newbie-{size}", f"owner-{size}"
    status, answer = call(stack, "PUT", "/me/profile", stack.token(holder), {"display_name": f"Nutcracker {size}"})
    assert status == 200, answer
    # Given a player signing in for the first time
    page = pages.signed_in(newcomer, viewport=viewport)
    # Then the lobby asks for a screen name first
    prompt = page.get_by_role("region", name="Choose your screen name")
    prompt.wait_for()
    field = prompt.get_by_role("textbox", name="Screen name")
    save = prompt.get_by_role("button", name="Save screen name")
    assert field.is_visible() and save.is_visible()
    # When the player asks for a name another player holds (in other letters' case)
    field.fill(f"NUTCRACKER {size}")
    save.click()
    # Then the server's reason is shown, and nothing changed
    prompt.get_by_role("status").filter(has_text="is taken").wait_for()
    prompt.get_by_text("Choose another.").wait_for()
    assert profile_name(stack, newcomer) is None
    # When the player chooses a free name
    field.fill(f"Fresh Fish {size}")
    save.click()
    # Then the lobby greets the player by it, the header names them by it, and the API gives it
    page.get_by_role("region", name=f"Welcome, Fresh Fish {size}").wait_for()
    page.get_by_role("link", name=f"Fresh Fish {size}").wait_for()
    assert profile_name(stack, newcomer) == f"Fresh Fish {size}"
    # And the next visit to the lobby asks nothing
    page.reload()
    page.get_by_role("link", name=f"Fresh Fish {size}").wait_for()
    page.get_by_role("heading", name="Lobby").wait_for()
    assert page.get_by_role("region", name="Choose your screen name").count() == 0


def test_not_now_leaves_the_question_for_the_session_and_a_named_player_is_not_asked(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    shy, named = f"shy-{size}", f"named-{size}"
    # Given a player without a screen name who answers "Not now"
    page = pages.signed_in(shy, viewport=viewport)
    prompt = page.get_by_role("region", name="Choose your screen name")
    prompt.get_by_role("button", name="Not now").click()
    # Then the question goes, and does not come back in this session; the header still offers a name
    prompt.wait_for(state="hidden")
    page.reload()
    page.get_by_role("link", name="Choose a screen name").wait_for()
    page.get_by_role("heading", name="Lobby").wait_for()
    assert not prompt.is_visible()
    assert profile_name(stack, shy) is None
    # And a player who chose a name before is never asked
    status, answer = call(stack, "PUT", "/me/profile", stack.token(named), {"display_name": f"Old Hand {size}"})
    assert status == 200, answer
    other = pages.signed_in(named, viewport=viewport)
    other.get_by_role("link", name=f"Old Hand {size}").wait_for()
    assert not other.get_by_role("region", name="Choose your screen name").is_visible()
