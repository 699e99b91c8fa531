"""The web client in Debian's Chromium, driven by Playwright, against one local stack for the whole run.

The stack is the real template (the infra tests' synth) and handlers, as in ``tests/e2e``; it serves the
client at ``/app/``. Each test gets a fresh browser context (its own sessionStorage, so its own sign-in) at
a phone's size; an uncaught error in a page fails the test.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from infra.local.runtime import LocalRuntime
from tests.e2e.seeding import local_stack
from tests.infra import conftest as infra_conftest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PATIENCE_MS = 60_000
"""How long a step may take on a busy machine: the tests check outcomes and their order, never speed."""

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (make chromium installs it)")

shared_synth = infra_conftest.synthesized


@pytest.fixture(scope="session")
def stack(shared_synth: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalRuntime]:
    """One local stack for every browser test (starting one costs seconds)."""
    with local_stack(shared_synth, tmp_path_factory) as runtime:
        yield runtime


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists() or shutil.which(str(CHROMIUM)) is None:
        pytest.skip("no /usr/bin/chromium (make chromium installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Pages:
    """Browser contexts of one test: each ``open`` is a new person (own session), closed at the end."""

    def __init__(self, browser: Any, stack: LocalRuntime) -> None:
        self.browser = browser
        self.stack = stack
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, viewport: dict[str, int] = PHONE) -> Any:
        context = self.browser.new_context(viewport=viewport)
        context.set_default_timeout(PATIENCE_MS)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.goto(self.stack.urls["http"] + "/")
        return page

    def signed_in(self, player: str, operator: bool = False, viewport: dict[str, int] = PHONE) -> Any:
        page = self.open(viewport)
        sign_in(page, player, operator)
        return page

    def at_table(self, player: str, tid: str, viewport: dict[str, int] = PHONE, operator: bool = False) -> Any:
        """``player`` signed in at table 1 of the tournament, once their seat shows."""
        page = self.signed_in(player, operator, viewport)
        page.goto(f"{self.stack.urls['app']}#/t/{tid}/table/1")
        page.locator(f".seat[data-player='{player}']").wait_for()
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def sign_in(page: Any, player: str, operator: bool = False) -> None:
    page.get_by_label("Name").fill(player)
    if operator:
        page.get_by_label("Operator").check()
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("link", name="Lobby").wait_for()


def confirm_with_a_reason(page: Any, opener: Any, title: str, yes: str, reason: str, unchanged: Any) -> None:
    """Open the dialog, go back (``unchanged()`` holds), confirm without a reason (refused, still unchanged), then
    confirm with ``reason``."""
    opener.click()
    dialog = page.get_by_role("dialog", name=title)
    dialog.wait_for()
    assert dialog.is_visible() and dialog.bounding_box()["y"] >= 0
    dialog.get_by_role("button", name="Go back").click()
    dialog.wait_for(state="detached")
    assert unchanged()
    opener.click()
    dialog.get_by_role("textbox", name="Reason").fill("")
    dialog.get_by_role("button", name=yes).click()
    dialog.get_by_text("Give a reason: it is kept in the audit.").wait_for()
    assert unchanged()
    dialog.get_by_role("textbox", name="Reason").fill(reason)
    dialog.get_by_role("button", name=yes).click()
    dialog.wait_for(state="detached")


SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    """A test that takes ``size`` (or ``viewport``) runs at a phone's size and at a desktop's."""
    name: str = request.param
    return name


@pytest.fixture
def viewport(size: str) -> dict[str, int]:
    return SIZES[size]


@pytest.fixture
def pages(browser: Any, stack: LocalRuntime) -> Iterator[Pages]:
    opened = Pages(browser, stack)
    try:
        yield opened
    finally:
        opened.close()
    assert not opened.errors, f"errors in the page: {opened.errors}"
