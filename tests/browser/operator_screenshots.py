"""Screenshots of the operator console, phone and desktop: the console (the create form with its defaults and the
blind levels editor, the players' tools, the latest acts with their amounts and before and after) and a terminated
tournament's page (its restart window, the tables to watch, its audit).

``python -m tests.browser.operator_screenshots docs/screenshots``: a local stack, a deposit, an adjustment and a
stack adjustment, a running heads-up tournament terminated by the operator, and Chromium at 390x844 and 1280x800.
"""

from __future__ import annotations

import sys
from pathlib import Path

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import sign_in
from tests.browser.screenshots import Shot, shoot_pages
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


def _ready(shot: Shot) -> bool:
    page, name = shot.page, shot.name
    route, region = {
        "operator": ("#/operator", "Latest acts"),
        "operator-recovery": (f"#/operator/t/{shot.tid}", "Recovery"),
    }[name]
    sign_in(page, OPERATOR, operator=True)
    page.goto(shot.stack.urls["app"] + route)
    page.get_by_role("region", name=region).get_by_role("table").or_(
        page.get_by_role("region", name=region).get_by_text("Restart window")
    ).first.wait_for()
    if name == "operator" and shot.size == "desktop":
        page.get_by_text("Blind structure:").click()  # the levels, edited (a long table on a phone)
        page.get_by_role("button", name="Edit the levels").click()
    page.evaluate("window.scrollTo(0, 0)")
    return True


def shoot(out: Path) -> None:
    shoot_pages(out, seed, ("operator", "operator-recovery"), _ready)


if __name__ == "__main__":
    shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
