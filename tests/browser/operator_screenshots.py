"""Screenshots of the operator console, phone and desktop: the console (the create form with its defaults and the
blind levels editor, the players' tools, the latest acts with their amounts and before and after) and a terminated
tournament's page (its restart window, the tables to watch, its audit).

``python -m tests.browser.operator_screenshots docs/screenshots``: a local stack, a deposit, an adjustment and a
stack adjustment, a running heads-up tournament terminated by the operator, and Chromium at 390x844 and 1280x800.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, sign_in
from tests.e2e.seeding import call, fund, seed_running

OPERATOR = "olga"


def seed(stack: LocalRuntime) -> str:
    """Acts for the audit and a terminated tournament: its id."""
    token = stack.token(OPERATOR, operator=True)
    fund(stack, OPERATOR, "ann", "bob", amount=50_000)
    call(
        stack,
        "POST",
        "/admin/accounts/ann/adjustments",
        token,
        {"amount": -2_500, "reason": "a goodwill refund reversed"},
    )
    tid, _ = seed_running(stack, OPERATOR, "evening", ("ann", "bob"))
    body = {"delta": 5_000, "reason": "a misdeal: chips given back"}
    status, answer = call(stack, "POST", f"/admin/tournaments/{tid}/players/bob/stack", token, body)
    assert status == 200, answer
    status, answer = call(
        stack, "POST", f"/admin/tournaments/{tid}/terminate", token, {"reason": "the dealer service is down"}
    )
    assert status == 200, answer
    return tid


def shoot(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with LocalRuntime.from_cdk_out(keys_dir=Path(tempfile.mkdtemp())) as stack, sync_playwright() as playwright:
        tid = seed(stack)
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            for name, route, ready in (
                ("operator", "#/operator", "Latest acts"),
                ("operator-recovery", f"#/operator/t/{tid}", "Recovery"),
            ):
                context = browser.new_context(viewport=viewport, device_scale_factor=1)
                page = context.new_page()
                page.goto(stack.urls["app"])
                sign_in(page, OPERATOR, operator=True)
                page.goto(stack.urls["app"] + route)
                page.get_by_role("region", name=ready).get_by_role("table").or_(
                    page.get_by_role("region", name=ready).get_by_text("Restart window")
                ).first.wait_for()
                if name == "operator" and size == "desktop":
                    page.get_by_text("Blind structure:").click()  # the levels, edited (a long table on a phone)
                    page.get_by_role("button", name="Edit the levels").click()
                page.evaluate("window.scrollTo(0, 0)")
                time.sleep(1.5)  # the countdowns drawn
                page.screenshot(path=str(out / f"{name}-{size}.png"), full_page=True)
                context.close()
        browser.close()


if __name__ == "__main__":
    shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
