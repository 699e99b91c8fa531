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
from datetime import UTC, datetime, timedelta
from pathlib import Path

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, sign_in
from tests.e2e.seeding import call, create, fund, later, register, seed_running

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


def shoot(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with LocalRuntime.from_cdk_out(keys_dir=Path(tempfile.mkdtemp())) as stack, sync_playwright() as playwright:
        tid = seed(stack)
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            for name, who, operator, route in (
                ("lobby", "ann", False, "#/"),
                ("first-sign-in", "cyd", False, "#/"),
                ("table", None, False, None),
                ("table-waiting", None, False, None),
                ("operator", OPERATOR, True, "#/operator"),
            ):
                context = browser.new_context(viewport=viewport, device_scale_factor=1)
                page = context.new_page()
                page.goto(stack.urls["app"])
                if name.startswith("table"):
                    _, view = call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token("ann"))
                    acting = view["to_act"]["player"]
                    sign_in(page, acting if name == "table" else next(iter({"ann", "bob"} - {acting})))
                    page.goto(f"{stack.urls['app']}#/t/{tid}/table/1")
                    page.locator(".your-turn" if name == "table" else ".pre-actions").wait_for()
                else:
                    sign_in(page, str(who), operator)
                    page.goto(stack.urls["app"] + str(route))
                    page.locator("main h2:visible, main table").first.wait_for()
                    if name == "first-sign-in":
                        page.get_by_role("region", name="Choose your screen name").wait_for()
                time.sleep(1.5)  # the countdowns and the balance drawn
                page.screenshot(path=str(out / f"{name}-{size}.png"), full_page=not name.startswith("table"))
                context.close()
        browser.close()


if __name__ == "__main__":
    shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
