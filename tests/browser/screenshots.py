"""Screenshots of the web client for the README: the lobby, a table and the operator console, phone and desktop.

``make screenshots`` (``python -m tests.browser.screenshots docs/screenshots``): a local stack, a few seeded
tournaments, a running heads-up table with a decision awaited, and Chromium at 390x844 and 1280x800.
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
    tid, _ = seed_running(stack, OPERATOR, "evening", ("ann", "bob"))
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
                ("table", None, False, None),
                ("operator", OPERATOR, True, "#/operator"),
            ):
                context = browser.new_context(viewport=viewport, device_scale_factor=1)
                page = context.new_page()
                page.goto(stack.urls["app"])
                if name == "table":
                    _, view = call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token("ann"))
                    sign_in(page, view["to_act"]["player"])
                    page.goto(f"{stack.urls['app']}#/t/{tid}/table/1")
                    page.locator(".your-turn").wait_for()
                else:
                    sign_in(page, str(who), operator)
                    page.goto(stack.urls["app"] + str(route))
                    page.locator("main h2").first.wait_for()
                time.sleep(1.5)  # the countdowns and the balance drawn
                page.screenshot(path=str(out / f"{name}-{size}.png"), full_page=name != "table")
                context.close()
        browser.close()


if __name__ == "__main__":
    shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
