"""Screenshots of the web client for the README: the lobby, the first sign-in's question for a screen name, a table
and the operator console, phone and desktop.

``make screenshots`` (``python -m tests.browser.screenshots docs/screenshots``): a local stack, a few seeded
tournaments, a running heads-up table where one player raised and the other's decision is awaited (each player's
view: the decision bar, and the pre-actions while waiting), and Chromium at 390x844 and 1280x800.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, sign_in
from tests.e2e.seeding import call, create, fund, later, register, seed_running

if TYPE_CHECKING:
    from playwright.sync_api import Page

OPERATOR = "olga"


def seed(stack: LocalRuntime) -> str:
    """Tournaments for the lobby, and a running table whose first player ``ann`` is to act: its id."""
    fund(stack, OPERATOR, "ann", "bob", "cyd", "dee")
    create(stack, OPERATOR, "sunday-major", later(), guarantee=500_000, max_players=500)
    register(stack, "sunday-major", "cyd", "dee")
    create(stack, OPERATOR, "nightly-turbo", datetime.now(UTC) + timedelta(hours=2), level_minutes=5)
    token = stack.token(OPERATOR, operator=True)
    call(stack, "POST", "/admin/tournaments", token, {"name": "Sit & Go 6-max", "format": "sng", "buy_in": 500,
         "entry_fee": 50, "max_players": 6, "seats_per_table": 6})  # fmt: skip
    for player, name in (("ann", "Ann Allin"), ("bob", "Bobby Bluff")):  # "cyd" chose none: asked at sign-in
        status, answer = call(stack, "PUT", "/me/profile", stack.token(player), {"display_name": name})
        assert status == 200, answer
    tid, view = seed_running(stack, OPERATOR, "evening", ("ann", "bob"))
    # the first to act raises: the other faces the raise (its last action on the seat), the raiser waits
    to_act = view["to_act"]
    body = {"hand": view["hand"], "seq": to_act["seq"], "action": "raise", "amount": to_act["min_raise_to"]}
    status, answer = call(stack, "POST", f"/tournaments/{tid}/tables/1/actions", stack.token(to_act["player"]), body)
    assert status == 200, answer
    return tid


@dataclass(frozen=True)
class Shot:
    """One screenshot to take: the page (at the app's address), the stack, the seeded tournament, its name and size."""

    page: Page
    stack: LocalRuntime
    tid: str
    name: str
    size: str


def shoot_pages(
    out: Path, seed: Callable[[LocalRuntime], str], names: Sequence[str], ready: Callable[[Shot], bool]
) -> None:
    """A local stack seeded by ``seed``, and at each size a screenshot of each named page, made ready by ``ready``.

    ``ready`` opens the page it is given (signed in as it wants) and waits for what it must show; it answers whether
    the screenshot takes the whole page.
    """
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with LocalRuntime.from_cdk_out(keys_dir=Path(tempfile.mkdtemp())) as stack, sync_playwright() as playwright:
        tid = seed(stack)
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            for name in names:
                context = browser.new_context(viewport=viewport, device_scale_factor=1)
                page = context.new_page()
                page.goto(stack.urls["app"])
                full_page = ready(Shot(page, stack, tid, name, size))
                time.sleep(1.5)  # the countdowns and the balance drawn
                page.screenshot(path=str(out / f"{name}-{size}.png"), full_page=full_page)
                context.close()
        browser.close()


def _ready(shot: Shot) -> bool:
    page, stack, tid, name = shot.page, shot.stack, shot.tid, shot.name
    if name.startswith("table"):
        _, view = call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token("ann"))
        acting = view["to_act"]["player"]
        sign_in(page, acting if name == "table" else next(iter({"ann", "bob"} - {acting})))
        page.goto(f"{stack.urls['app']}#/t/{tid}/table/1")
        page.locator(".your-turn" if name == "table" else ".pre-actions").wait_for()
        return False
    who, operator, route = {
        "lobby": ("ann", False, "#/"),
        "first-sign-in": ("cyd", False, "#/"),
        "operator": (OPERATOR, True, "#/operator"),
    }[name]
    sign_in(page, who, operator)
    page.goto(stack.urls["app"] + route)
    page.locator("main h2:visible, main table").first.wait_for()
    if name == "first-sign-in":
        page.get_by_role("region", name="Choose your screen name").wait_for()
    return True


def shoot(out: Path) -> None:
    shoot_pages(out, seed, ("lobby", "first-sign-in", "table", "table-waiting", "operator"), _ready)


if __name__ == "__main__":
    shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
