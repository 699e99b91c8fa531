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
    from tourney.domain.fairness import draw_hand_secret, reveal, salts_of

    rng = random.Random(7)
    deck, salts = shuffled_deck(rng), salts_of(draw_hand_secret(rng))
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


def test_the_decision_clock_runs_to_the_servers_deadline_then_into_the_time_bank(pages: Pages) -> None:
    page = pages.open()
    now = "Date.parse('2026-01-01T12:00:00Z')"
    # Given a decision of 15 s whose own time ends 9.2 s from now, with 30 s of bank: 10 s shown, the bank whole
    own = {"seconds": 15, "time_bank": 30, "on_time_bank": False, "deadline": "2026-01-01T12:00:09.200Z"}
    script = f"(m, t) => {{ const c = m.decisionClock(t, {now}); return [c, m.clockText(c)]; }}"
    clock, text = module(page, "views/table-parts.js", script, own)
    assert (round(clock["own"], 1), clock["bank"], clock["ownTotal"], clock["bankTotal"]) == (9.2, 30, 15, 30)
    assert text == "10 s + bank 30 s"
    # And once the bank runs, its own deadline counts: "Time bank 21 s"
    bank = {"seconds": 30, "time_bank": 30, "on_time_bank": True, "bank_deadline": "2026-01-01T12:00:20.500Z"}
    clock, text = module(page, "views/table-parts.js", script, bank)
    assert (clock["own"], round(clock["bank"], 1), clock["onBank"]) == (0, 20.5, True) and text == "Time bank 21 s"
    # And a deadline gone by shows 0, never a negative time
    late = {**own, "deadline": "2026-01-01T11:59:00Z"}
    assert module(page, "views/table-parts.js", script, late)[1] == "0 s + bank 30 s"


def test_the_bet_sizes_pre_actions_and_last_actions_in_words(pages: Pages) -> None:
    page = pages.open()
    # Given a raise faced preflop: 100 to call into a pot of 175 (blinds 25/50 and a raise to 150), 25 in front
    to_act = {"to_call": 125, "min_raise_to": 250, "max_raise_to": 5_000, "can_check": False}
    sizes = module(page, "views/table-parts.js", "(m, t) => m.sizePresets(t, 225, 25, 150, 50)", to_act)
    # Then the presets raise to: the minimum, 2.5 times the bet, half the pot and the pot after the call, all in
    assert dict(sizes) == {"Min": 250, "2.5x": 375, "Half pot": 325, "Pot": 500, "Max": 5_000}
    # And the pre-actions: check/fold folds to a bet and checks without one; call any calls; fold to any bet folds
    cases = [("check_fold", False, "fold"), ("check_fold", True, "check"), ("call_any", False, "call"),
             ("call_any", True, "check"), ("fold_any", False, "fold"), ("fold_any", True, "check")]  # fmt: skip
    for pre, can_check, expected in cases:
        t = {**to_act, "can_check": can_check, "to_call": 0 if can_check else 125}
        assert module(page, "views/table-parts.js", f"(m, t) => m.preActionMove('{pre}', t)", t) == expected
    words = [
        ({"kind": "fold"}, "Fold"),
        ({"kind": "check"}, "Check"),
        ({"kind": "call", "amount": 1200}, "Call 1,200"),
        ({"kind": "raise", "amount": 3000}, "Raise to 3,000"),
        ({"kind": "bet", "amount": 500, "all_in": True}, "All in 500"),
    ]
    for last, text in words:
        assert module(page, "views/table-parts.js", "(m, last) => m.actionText(last)", last) == text


def test_the_hand_log_tells_each_action_and_the_call_that_closed_the_street(pages: Pages) -> None:
    page = pages.open()

    def seat(n: int, player: str, stack: int, bet: int, last: dict[str, object] | None = None) -> dict[str, object]:
        return {"seat": n, "player": player, "stack": stack, "bet": bet, "status": "in", "cards": [],
                "last_action": last}  # fmt: skip

    base = {"hand": 4, "hand_in_progress": True, "board": [], "your_seat": 1}
    dealt = {**base, "street": "preflop", "seats": [seat(1, "ann", 975, 25), seat(2, "bob", 950, 50)],
             "to_act": {"seat": 1, "to_call": 25, "can_check": False}}  # fmt: skip
    raised = {**base, "street": "preflop",
              "seats": [seat(1, "ann", 850, 150, {"kind": "raise", "amount": 150}), seat(2, "bob", 950, 50)],
              "to_act": {"seat": 2, "to_call": 100, "can_check": False}}  # fmt: skip
    flop = {**base, "street": "flop", "board": ["Ah", "7c", "2d"],
            "seats": [seat(1, "ann", 850, 0), seat(2, "bob", 850, 0)],
            "to_act": {"seat": 2, "can_check": True}}  # fmt: skip
    script = "(m, v) => [m.logLines(null, v[0]), m.logLines(v[0], v[1]), m.logLines(v[1], v[2])]"
    lines = module(page, "views/table-parts.js", script, [dealt, raised, flop])
    assert lines == [["Hand #4 dealt"], ["ann raises to 150"], ["bob calls 100", "Flop: Ah 7c 2d"]]
