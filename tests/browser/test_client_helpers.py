"""The client's own crypto in the browser: the PKCE S256 challenge (against hashlib), the state check of the
way back from the user pool, and the fairness check of a reveal made by the domain (and of a tampered one)."""

from __future__ import annotations

import base64
import hashlib
import random
import string
from typing import Any

from tests.browser.conftest import Pages


def module(page: Any, name: str, script: str, arg: Any = None) -> Any:
    """Run ``script(m, arg)`` with the web client's module ``name`` imported in the page."""
    return page.evaluate(f"async (arg) => {{ const m = await import('./{name}'); return ({script})(m, arg); }}", arg)


def test_pkce_challenge_is_s256_of_the_verifier(pages: Pages) -> None:
    page = pages.open()
    fresh = module(page, "auth.js", "(m) => m.codeVerifier()")
    assert len(fresh) == 43 and set(fresh) <= set(string.ascii_letters + string.digits + "-_")
    for verifier in (fresh, "dBjftJeZ4CVP-mJ92K5s1P5LH4xYf5HKn1s8G0t7nOU", "a" * 128):
        expected = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        assert module(page, "auth.js", "(m, v) => m.codeChallenge(v)", verifier) == expected  # RFC 7636, 4.2


def test_the_code_is_exchanged_with_the_verifier_only_when_the_state_matches(pages: Pages) -> None:
    page = pages.open()
    auth = {
        "domain": "https://x.auth.eu-west-1.amazoncognito.com",
        "client_id": "abc",
        "redirect_uri": "https://d/app/",
    }
    script = """async (m, auth) => {
        const url = new URL(await m.authorizeUrl(auth));
        const state = url.searchParams.get("state");
        const sent = [];
        const fetcher = async (to, init) => { sent.push([to, String(init.body)]);
            return new Response(JSON.stringify({ access_token: "h.eyJzdWIiOiJhbm4iLCJ1c2VybmFtZSI6ImFubiJ9.s" })); };
        let refused = "";
        try { await m.completeSignIn(auth, { search: "?code=c1&state=forged" }, fetcher); }
        catch (e) { refused = e.message; }
        const again = new URL(await m.authorizeUrl(auth));
        const back = { search: `?code=c2&state=${again.searchParams.get("state")}` };
        const session = await m.completeSignIn(auth, back, fetcher);
        return { method: url.searchParams.get("code_challenge_method"), state, refused, sent, player: session.player };
    }"""
    answer = module(page, "auth.js", script, auth)
    assert answer["method"] == "S256" and answer["state"]
    assert "state" in answer["refused"]
    ((to, body),) = answer["sent"]  # the forged state sent nothing
    assert to == "https://x.auth.eu-west-1.amazoncognito.com/oauth2/token"
    assert "grant_type=authorization_code" in body and "code=c2" in body and "code_verifier=" in body
    assert answer["player"] == "ann"


def test_the_fairness_check_accepts_the_domains_reveal_and_refuses_a_tampered_one(pages: Pages) -> None:
    from tourney.domain.cards import card_str, shuffled_deck
    from tourney.domain.fairness import draw_salts, reveal

    rng = random.Random(7)
    deck, salts = shuffled_deck(rng), draw_salts(rng)
    shown = reveal(deck, salts, shown=[0, 3, 9, 10, 11, 13, 15]).to_dict()
    page = pages.open()
    assert module(page, "fairness.js", "(m, r) => m.verifyReveal(r)", shown) == []
    tampered = {**shown, "cards": [{**shown["cards"][0], "card": card_str(deck[1])}, *shown["cards"][1:]]}
    assert module(page, "fairness.js", "(m, r) => m.verifyReveal(r)", tampered) == [
        "the 52 leaves do not hash to the commitment published at the deal"
    ]


def test_the_table_names_the_main_pot_and_the_side_pot_of_a_view_the_services_built(pages: Pages) -> None:
    from tests.unit.services.test_table_view_pots import side_pot_on_the_flop

    view = side_pot_on_the_flop().to_dict()
    script = """(m, view) => { const list = m.potsList(view); document.body.append(list);
        return [...list.querySelectorAll("li")].map((li) => [li.textContent, li.getAttribute("aria-label")]); }"""
    page = pages.open()
    shown = module(page, "views/table.js", script, view)
    names = {s["seat"]: s["player"] for s in view["seats"]}
    expected = [(name, pot["amount"], ", ".join(names[s] for s in pot["seats"])) for name, pot in
                zip(("Main pot", "Side pot 1"), view["pots"], strict=True)]  # fmt: skip
    assert [(label.split(":")[0], text) for text, label in shown] == [
        (name, f"{name} {amount:,} · {who}") for name, amount, who in expected
    ]
    assert "bob, cy" in shown[1][0] and "ann" not in shown[1][0], "ann, all in for less, may not win the side pot"
    one_pot = {**view, "pots": view["pots"][:1]}
    assert module(page, "views/table.js", "(m, view) => m.potsList(view)", one_pot) is None
